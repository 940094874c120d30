import type { events } from "../../../wailsjs/go/models";
import { errorCode, type ErrorCode } from "../events";
import { readable } from "../sentence";
import { type Data } from "../wire";

// --- errors ---------------------------------------------------------------------

/** Failure is what a failed call or turn is: a code the UI switches on and the message shown with it. */
export type Failure = Data<events.Error> & { code: ErrorCode };

/**
 * failure turns whatever a rejected call gives into a Failure: the backend's
 * events.Error ({code, message}), or an Error or string (an older backend,
 * the Wails runtime, or the UI's own checks), which carry no code.
 */
export function failure(err: unknown): Failure {
  if (typeof err === "object" && err !== null && "code" in err && "message" in err && typeof err.message === "string") {
    return { code: errorCode(err.code), message: readable(err.message) };
  }
  if (err instanceof Error) return { code: "internal", message: readable(err.message) };
  if (typeof err === "object" && err !== null) return { code: "internal", message: readable(JSON.stringify(err)) };
  return { code: "internal", message: err == null ? "The call failed." : readable(String(err)) };
}

/** errorText is the message of a rejected call, for a line of text. */
export function errorText(err: unknown): string {
  return failure(err).message;
}
