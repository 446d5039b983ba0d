import { resourceNotFound } from '../../platform/errors.js';
import { whenReady } from '../../platform/ready.js';
import { digestOf, loadAnalystEdges } from './analyst-edges.store.js';
import { loadStoredFrameworks, readLibraryRevision } from './frameworks.store.js';
import { BUILTIN_FRAMEWORK_IDS, extendLibrary, loadBuiltinLibrary, } from './library.js';
const frameworksRevisionOf = (refs) => `builtin;${refs.map((ref) => `${ref.frameworkId}:${ref.contentHash}`).join(',')}`;
const revisionOf = (refs, edgesDigest) => `${frameworksRevisionOf(refs)};edges:${edgesDigest}`;
let current;
let loading;
async function loadLibrary(em) {
    const [stored, added] = await Promise.all([loadStoredFrameworks(em), loadAnalystEdges(em)]);
    const builtin = new Set(BUILTIN_FRAMEWORK_IDS);
    // A stored framework never shadows a built-in one (the import route refuses those ids).
    const imported = stored.filter((row) => !builtin.has(row.frameworkId));
    return {
        library: extendLibrary(loadBuiltinLibrary(), {
            frameworks: imported.map((row) => row.framework),
            edges: added,
        }),
        revision: revisionOf(stored, digestOf(added)),
        frameworksRevision: frameworksRevisionOf(stored),
        importedIds: new Set(imported.map((row) => row.frameworkId)),
    };
}
/** The revision query on the wire, and the one that goes out when it returns. */
let running;
let queued;
function sendRevisionQuery(em) {
    const sent = readLibraryRevision(em);
    running = sent;
    const settle = () => {
        if (running === sent)
            running = undefined;
    };
    sent.then(settle, settle);
    return sent;
}
/**
 * The revision as of a moment after the call: concurrent callers share one query, but only one sent after
 * each of them called (the query already on the wire may have read too early), so nobody reads a revision
 * older than its own request. Under load this is one query per round trip instead of one per request.
 * A transaction reads its own snapshot.
 */
export function revisionNow(em) {
    if (em.isInTransaction())
        return readLibraryRevision(em);
    if (queued)
        return queued;
    if (!running)
        return sendRevisionQuery(em);
    const next = running.then(() => undefined, () => undefined);
    const waiting = next.then(() => {
        queued = undefined;
        return sendRevisionQuery(em);
    });
    queued = waiting;
    return waiting;
}
/** The current library; rebuilt once when the imported frameworks or the added edges changed. */
export async function currentLibrary(em) {
    const revision = await revisionNow(em);
    if (current?.revision === revision)
        return current;
    let entry = loading;
    if (entry?.revision !== revision) {
        const started = { revision, promise: loadLibrary(em) };
        loading = entry = started;
        started.promise
            .then((loaded) => {
            // An older load finishing late must not replace a newer library.
            if (loading === started)
                current = loaded;
        })
            .catch(() => { })
            .finally(() => {
            if (loading === started)
                loading = undefined;
        });
    }
    // Content and revision come from one read, so a library is never paired with another's revision.
    return entry.promise;
}
/**
 * The current library without asking the database, when the revision the org read cache holds is the
 * one built last (see `OrgReadCache.libraryRevision`): for hot read routes. Otherwise as `currentLibrary`.
 */
export function heldLibrary(ctx, em) {
    return whenReady(heldRevision(ctx, em), (held) => current?.revision === held ? current : currentLibrary(em));
}
/** The library revision as the org read cache holds it. */
export const heldRevision = (ctx, em) => ctx.readCache.libraryRevision(() => revisionNow(em));
export function requireFramework(library, frameworkId) {
    const framework = library.framework(frameworkId);
    if (!framework)
        throw resourceNotFound('Framework', { frameworkId });
    return framework;
}
//# sourceMappingURL=library.service.js.map