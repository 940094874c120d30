import { describe, expect, it } from "vitest";
import { failure, type Failure } from "./backend";

describe("failure", () => {
  // What a bound method's promise may reject with: the backend's events.Error,
  // or (older backends, the Wails runtime, the UI's own checks) an Error or a string.
  const cases: { name: string; err: unknown; want: Failure }[] = [
    { name: "events.Error", err: { code: "not-found", message: "no paper papers/x" }, want: { code: "not-found", message: "no paper papers/x" } },
    { name: "events.Error with an unknown code", err: { code: "exploded", message: "boom" }, want: { code: "internal", message: "boom" } },
    { name: "an Error", err: new Error("Call to main.App.Search timed out. Request ID: 7"), want: { code: "internal", message: "Call to main.App.Search timed out. Request ID: 7" } },
    { name: "a string", err: "no vault is open", want: { code: "internal", message: "no vault is open" } },
    { name: "nothing", err: undefined, want: { code: "internal", message: "The call failed." } },
  ];
  for (const c of cases) {
    it(c.name, () => expect(failure(c.err)).toEqual(c.want));
  }
});
