/**
 * A value at once, or a promise of it when it has to be fetched or computed first. Hot read paths hand out
 * what they hold this way, so that a cache hit costs no promise and no turn of the microtask queue.
 */
export type Ready<T> = T | Promise<T>;

/** Applies `next` to the value: now when it is there, else once it is. */
export function whenReady<T, R>(value: Ready<T>, next: (value: T) => Ready<R>): Ready<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/** What promises passed to `remember` resolved to. */
const resolved = new WeakMap<Promise<unknown>, { value: unknown }>();

/** Keeps what `promise` resolves to, so that `settled` can hand it out at once from then on. */
export function remember<T>(promise: Promise<T>): Promise<T> {
  promise.then(
    (value) => resolved.set(promise, { value }),
    () => {},
  );
  return promise;
}

/** The value a remembered promise resolved to, at once; the promise itself while it has not. */
export function settled<T>(promise: Promise<T>): Ready<T> {
  const held = resolved.get(promise);
  return held ? (held.value as T) : promise;
}
