// The generated bindings are the one source of the wire types: every event
// the Go backend lists in events.Payloads is typed in frontend/wailsjs (not
// "any", which is what the generator makes of a struct it cannot type) and
// named in lib/events.ts; and no file of the frontend declares its own copy
// of a type the bindings generate (an alias derived from the generated
// type is fine: a copy drifts, one already dropped two fields on reload).

import { describe, expect, it } from "vitest";
import eventsGo from "../../../backend/events/events.go?raw";
import models from "../../wailsjs/go/models.ts?raw";
import eventsTs from "./events.ts?raw";

// Every source file of the frontend but the tests, by its path.
const files = import.meta.glob<string>(["../**/*.ts", "!../**/*.test.ts", "!../**/*.d.ts"], { query: "?raw", import: "default", eager: true });

/** goPayloads lists events.Payloads' JSON names, from the Go source. */
function goPayloads(): string[] {
  const body = /type Payloads struct \{([\s\S]*?)\n\}/.exec(eventsGo)?.[1] ?? "";
  return [...body.matchAll(/json:"([^"]+)"/g)].map((m) => m[1]).filter((n) => n !== "error");
}

// derived reports whether a type alias's right-hand side is made from a generated type.
const derivedFrom = /\bData<|\bWire<|\bEventPayloads\b|\b[a-z][A-Za-z]*\.[A-Z]\w*/;

describe("the generated bindings", () => {

  it("type every event of events.Payloads, and lib/events.ts names each", () => {
    const names = goPayloads();
    expect(names.length).toBeGreaterThanOrEqual(10);
    const payloads = /export class Payloads \{([\s\S]*?)static createFrom/.exec(models)?.[1] ?? "";
    for (const name of names) {
      const typed = new RegExp(`"${name}"\\??: ([\\w.]+);`).exec(payloads);
      expect(typed, `${name} is in the generated Payloads`).not.toBeNull();
      expect(typed![1], `${name} is typed, not any`).not.toBe("any");
      expect(eventsTs, `lib/events.ts names ${name}`).toContain(`"${name}" satisfies EventName`);
    }
  });

  it("events.ts takes the wire types from wire.ts, not from backend.ts (which imports it)", () => {
    expect(eventsTs).not.toMatch(/from "\.\/backend"/);
  });

  it("are the frontend's only declaration of the types they generate", () => {
    const generated = new Set([...models.matchAll(/export class (\w+)/g)].map((m) => m[1]));
    expect(generated.size).toBeGreaterThan(50);
    const aliases = new Map<string, string>(); // name → right-hand side
    const copies: string[] = [];
    expect(Object.keys(files).length).toBeGreaterThan(50);
    for (const [file, text] of Object.entries(files)) {
      for (const m of text.matchAll(/^(?:export )?(interface|class) (\w+)/gm)) {
        if (generated.has(m[2])) copies.push(`${file}: ${m[1]} ${m[2]}`);
      }
      for (const m of text.matchAll(/^(?:export )?type (\w+)(?:<[^=]*>)? = ([\s\S]*?);\n/gm)) {
        aliases.set(m[1], m[2]);
        if (generated.has(m[1])) aliases.set(`${file}\u0000${m[1]}`, m[2]);
      }
    }
    // An alias is derived when it is made from a generated type, or from an alias that is.
    const isDerived = (rhs: string, depth = 0): boolean =>
      derivedFrom.test(rhs) || (depth < 4 && [...rhs.matchAll(/\b[A-Z]\w*/g)].some((m) => aliases.has(m[0]) && isDerived(aliases.get(m[0])!, depth + 1)));
    for (const [key, rhs] of aliases) {
      if (!key.includes("\u0000")) continue;
      if (!isDerived(rhs)) copies.push(`${key.replace("\u0000", ": type ")} = ${rhs.slice(0, 60)}`);
    }
    expect(copies).toEqual([]);
  });
});
