// The wire types: a generated model as the bindings hand it over (Data) and
// as Go sends it before it is normalised (Wire). Apart from backend.ts so
// that events.ts and backend.ts both use them without importing each other.

/**
 * Data is a generated model as the bindings hand it over: parsed JSON, not an
 * instance of the generated class, so its convertValues helper is absent.
 */
export type Data<T> = 0 extends 1 & T
  ? T // any (a Go time.Time, for one) stays any
  : T extends readonly (infer E)[]
    ? Data<E>[]
    : T extends object
      ? { [K in keyof T as K extends "convertValues" ? never : K]: Data<T[K]> }
      : T;

/** Wire is Data as Go sends it before it is normalised: a nil slice arrives as null. */
export type Wire<T> = 0 extends 1 & T
  ? T
  : T extends readonly (infer E)[]
    ? Wire<E>[] | null
    : T extends object
      ? { [K in keyof T as K extends "convertValues" ? never : K]: Wire<T[K]> }
      : T;

/** asGo hands plain data to a bound method, whose generated signature names the class. */
export function asGo<T>(value: Data<T>): T {
  return value as T;
}
