import { describe, expect, it } from "vitest";
import { readable } from "./sentence";

describe("readable errors", () => {
  it("keeps a sentence as it is", () => {
    expect(readable("The agent timed out (waited 5m0s)")).toBe("The agent timed out (waited 5m0s)");
  });
  it("reads the words out of a JSON-RPC error", () => {
    expect(readable('{"code":-32603,"message":"Internal error","data":{"details":"model overloaded"}}')).toBe("Internal error (model overloaded)");
    expect(readable('prompt: {"code":-32000,"message":"Authentication required"}')).toBe("Prompt: Authentication required.");
    expect(readable("{}")).toBe("The operation failed without saying why.");
  });
  it("leaves text that only looks like JSON", () => {
    expect(readable("expected {x} in the request")).toBe("expected {x} in the request");
  });
});
