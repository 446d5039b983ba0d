import { countStates } from './score.js';
/**
 * Past states are rebuilt exactly by walking the change log backwards from the current state: each
 * change carries the value it replaced. The walk only reads changes after the earliest instant asked for.
 * States are keyed by `stateKey(frameworkId, requirementId)`.
 */
export const stateKey = (frameworkId, requirementId) => `${frameworkId}\u001f${requirementId}`;
/** The framework and requirement a `stateKey` names. */
export function splitStateKey(key) {
    const separator = key.indexOf('\u001f');
    return { frameworkId: key.slice(0, separator), requirementId: key.slice(separator + 1) };
}
/** Undoes one change on the states it applies to. */
export function revert(states, change) {
    const key = stateKey(change.frameworkId, change.requirementId);
    let state = states.get(key);
    if (!state) {
        // The record was created after this change was made only if it was withdrawn later; start it empty.
        state = { status: null, applicable: null };
        states.set(key, state);
    }
    if (change.field === 'status')
        state.status = change.fromValue;
    else
        state.applicable = change.fromValue === null ? null : change.fromValue === 'true';
}
/**
 * The states as of each bound, where the state at a bound includes exactly the changes made before it
 * (`changedAt < bound`); `Infinity` means now. `changes` must hold every change at or after the smallest
 * finite bound, newest first. `measure` turns the states at a bound into the value kept for it.
 */
export function atBounds(current, changes, bounds, measure) {
    const states = new Map([...current].map(([id, state]) => [id, { ...state }]));
    const result = new Map();
    let next = 0;
    for (const bound of [...new Set(bounds)].sort((a, b) => b - a)) {
        while (next < changes.length && changes[next].changedAt >= bound) {
            revert(states, changes[next]);
            next += 1;
        }
        result.set(bound, measure(states, next));
    }
    return result;
}
/** ISO/IEC 42001 counts at each bound (every state given is counted). */
export function countsAtBounds(current, changes, bounds) {
    return atBounds(current, changes, bounds, (states) => countStates(states.values()));
}
//# sourceMappingURL=state-log.js.map