import { badRequest, conflict } from '../../platform/errors.js';
import { libraryConflicts } from './conflicts.js';
import { saveStoredFramework } from './frameworks.store.js';
import { BUILTIN_FRAMEWORK_IDS, extendLibrary, loadBuiltinLibrary, } from './library.js';
import { requireFramework } from './library.service.js';
import { exportMappingCollection } from './mapping-export.js';
import { importOscalCatalog, OscalImportError } from './oscal-import.js';
export function summarize(framework) {
    return {
        id: framework.id,
        name: framework.name,
        controlCount: framework.requirements.length,
        ...(framework.domains ? { domains: framework.domains.length } : {}),
    };
}
export function listFrameworks(library) {
    return { frameworks: library.frameworks.map(summarize) };
}
export function frameworkDetail(current, frameworkId) {
    const framework = requireFramework(current.library, frameworkId);
    const perDomain = new Map();
    for (const requirement of framework.requirements) {
        if (requirement.domain)
            perDomain.set(requirement.domain, (perDomain.get(requirement.domain) ?? 0) + 1);
    }
    const domainsOf = (functionId) => (framework.domains ?? []).filter((domain) => domain.function === functionId);
    return {
        ...summarize(framework),
        version: framework.version,
        publisher: framework.publisher,
        kind: framework.kind,
        imported: current.importedIds.has(framework.id),
        ...(framework.functions
            ? {
                functions: framework.functions.map((fn) => ({
                    id: fn.id,
                    title: fn.title,
                    domainCount: domainsOf(fn.id).length,
                    controlCount: domainsOf(fn.id).reduce((sum, domain) => sum + (perDomain.get(domain.id) ?? 0), 0),
                })),
            }
            : {}),
        ...(framework.domains
            ? {
                domainList: framework.domains.map((domain) => ({
                    id: domain.id,
                    title: domain.title,
                    ...(domain.function ? { function: domain.function } : {}),
                    controlCount: perDomain.get(domain.id) ?? 0,
                })),
            }
            : {}),
        controls: framework.requirements.map(({ id, ...requirement }) => ({ controlId: id, ...requirement })),
    };
}
/**
 * Converts an OSCAL catalog and stores it; the same catalog again replaces it (or changes nothing).
 * The framework must fit into the library before it is stored, so a bad import cannot break the library.
 */
export async function importCatalog(em, document, options = {}) {
    let converted;
    try {
        converted = importOscalCatalog(document, { frameworkId: options.frameworkId });
    }
    catch (error) {
        if (error instanceof OscalImportError) {
            throw badRequest(error.message, { reason: 'invalid-catalog', problems: error.problems.slice(0, 20) });
        }
        throw error;
    }
    const { framework, skippedWithdrawn } = converted;
    if (BUILTIN_FRAMEWORK_IDS.includes(framework.id)) {
        throw conflict('A built-in framework has this id; import the catalog under another frameworkId', {
            frameworkId: framework.id,
        });
    }
    if (framework.requirements.length === 0) {
        throw badRequest('The catalog has no control to import (all withdrawn, or none at all)', {
            reason: 'empty-catalog',
        });
    }
    try {
        extendLibrary(loadBuiltinLibrary(), { frameworks: [framework] });
    }
    catch (error) {
        throw badRequest(`The catalog cannot join the library: ${error.message}`, {
            reason: 'invalid-catalog',
        });
    }
    const sourceUuid = document.catalog.uuid;
    const outcome = await saveStoredFramework(em, {
        framework,
        sourceUuid: typeof sourceUuid === 'string' ? sourceUuid : undefined,
        skippedWithdrawn,
    });
    return { ...summarize(framework), version: framework.version, skippedWithdrawn, outcome };
}
/** Curated and computed conflicts of the library, optionally only those touching one framework. */
export function listConflicts(library, filter) {
    if (filter.frameworkId)
        requireFramework(library, filter.frameworkId);
    const conflicts = libraryConflicts(library).filter((conflict) => (!filter.kind || conflict.kind === filter.kind) &&
        (!filter.severity || conflict.severity === filter.severity) &&
        (!filter.frameworkId ||
            conflict.requirements.some((requirement) => requirement.frameworkId === filter.frameworkId)));
    return { conflicts };
}
const mappingExports = new WeakMap();
/** The crosswalk as an OSCAL mapping-collection, built once per library. */
export function mappingCollection(library) {
    let document = mappingExports.get(library);
    if (!document) {
        document = exportMappingCollection(library);
        mappingExports.set(library, document);
    }
    return document;
}
//# sourceMappingURL=frameworks.service.js.map