// The UI's one way to the Go backend: the calls, one module per area in
// lib/api/ (errors, library, metadata, intake, vaults, chat, settings,
// context documents, relations, the loopback server, the layout),
// re-exported here. Their types come from the generated Wails bindings
// (wailsjs/go/models.ts, `make bindings`); no module redeclares one, they
// only derive the shapes the UI reads from them (lib/wire.ts: Data, with
// Go's nil slices replaced by empty ones where an answer is normalised).

export type { Data, Wire } from "./wire";
export * from "./api/errors";
export * from "./api/library";
export * from "./api/metadata";
export * from "./api/intake";
export * from "./api/vaults";
export * from "./api/chat";
export * from "./api/settings";
export * from "./api/docs";
export * from "./api/relations";
export * from "./api/loopback";
export * from "./api/layout";
