/** Applies `next` to the value: now when it is there, else once it is. */
export function whenReady(value, next) {
    return value instanceof Promise ? value.then(next) : next(value);
}
/** What promises passed to `remember` resolved to. */
const resolved = new WeakMap();
/** Keeps what `promise` resolves to, so that `settled` can hand it out at once from then on. */
export function remember(promise) {
    promise.then((value) => resolved.set(promise, { value }), () => { });
    return promise;
}
/** The value a remembered promise resolved to, at once; the promise itself while it has not. */
export function settled(promise) {
    const held = resolved.get(promise);
    return held ? held.value : promise;
}
//# sourceMappingURL=ready.js.map