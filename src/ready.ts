/**
 * A value at once, or a promise of it when it has to be fetched or computed first. Hot read paths hand out
 * what they hold this way, so that a cache hit costs no promise and no turn of the microtask queue.
 */
export type Ready<T> = T | Promise<T>;

/** Applies `next` to the value: now when it is there, else once it is. */
export function whenReady<T, R>(value: Ready<T>, next: (value: T) => Ready<R>): Ready<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
