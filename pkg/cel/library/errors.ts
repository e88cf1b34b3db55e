// A function of a CEL library fails by throwing a CelRuntimeError: the evaluator reports its
// message as cel-go reports a function's error value.

/** An evaluation error raised by a library function, worded as upstream's. */
export class CelRuntimeError extends Error {}

/** Throws a CelRuntimeError with `message`. */
export function fail(message: string): never {
  throw new CelRuntimeError(message);
}
