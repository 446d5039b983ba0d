import { resourceNotFound } from '../errors.js';
import { loadStoredFrameworks, storedFrameworkRefs } from './frameworks.store.js';
import { BUILTIN_FRAMEWORK_IDS, extendLibrary, loadBuiltinLibrary, } from './library.js';
const revisionOf = (refs) => `builtin;${refs.map((ref) => `${ref.frameworkId}:${ref.contentHash}`).join(',')}`;
let current;
let loading;
async function loadLibrary(em) {
    const stored = await loadStoredFrameworks(em);
    const builtin = new Set(BUILTIN_FRAMEWORK_IDS);
    // A stored framework never shadows a built-in one (the import route refuses those ids).
    const imported = stored.filter((row) => !builtin.has(row.frameworkId));
    return {
        library: extendLibrary(loadBuiltinLibrary(), { frameworks: imported.map((row) => row.framework) }),
        revision: revisionOf(stored),
        importedIds: new Set(imported.map((row) => row.frameworkId)),
    };
}
/** The current library; rebuilt once when the imported frameworks changed. */
export async function currentLibrary(em) {
    const revision = revisionOf(await storedFrameworkRefs(em));
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
export function requireFramework(library, frameworkId) {
    const framework = library.framework(frameworkId);
    if (!framework)
        throw resourceNotFound('Framework', { frameworkId });
    return framework;
}
//# sourceMappingURL=library.service.js.map