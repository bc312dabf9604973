// A value the memory stores have at once and the Redis stores only after a round trip. The hot
// path of a request in memory mode must not pay a microtask per step for a promise it does not
// need, so callers continue synchronously when the value is already there.
export type Awaitable<T> = T | Promise<T>;

/** `next(value)` now when the value is there; after it settles when it is a promise. */
export function andThen<T, U>(value: Awaitable<T>, next: (value: T) => Awaitable<U>): Awaitable<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** All of the values: at once when none is a promise, else once they have all settled (Promise.all). */
export function allOf<T>(values: readonly Awaitable<T>[]): Awaitable<T[]> {
  return values.some((value) => value instanceof Promise) ? Promise.all(values) : (values as T[]);
}
