export const exposedGc = () => globalThis.gc;
/**
 * One major collection with the last-resort flavour (what V8 does under memory pressure), which hands the
 * freed heap pages back to the system: after a large one-off build (an export, the search index) the
 * garbage it left would otherwise stay resident, since a regular collection keeps freed pages mapped for
 * reuse.
 */
export function releaseFreedMemory() {
    exposedGc()?.({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
//# sourceMappingURL=memory.js.map