import { ISO_42001 } from '../../shared/vocabulary.js';
import { loadBuiltinLibrary } from '../cte/library.js';
/** The part exported of frameworks whose names do not say it: their Annex A controls. */
const SCOPES = { [ISO_42001]: 'Annex A', 'iso-27001': 'Annex A' };
/**
 * How an export names a framework of the library. Annex A frameworks and imported OSCAL catalogs have
 * controls; the other frameworks (regulations, guidance, management-system clauses) have requirements.
 */
export function exportFramework(framework, options = {}) {
    const imported = options.imported ?? false;
    const scope = SCOPES[framework.id] ?? null;
    return {
        id: framework.id,
        name: framework.name,
        version: framework.version,
        scope,
        noun: scope !== null || imported ? 'control' : 'requirement',
        imported,
    };
}
function builtinIso() {
    const framework = loadBuiltinLibrary().framework(ISO_42001);
    if (!framework)
        throw new Error(`The built-in library has no ${ISO_42001}`);
    return framework;
}
/**
 * ISO/IEC 42001 Annex A, as the library defines it: what the SoA always describes, and the OSCAL
 * package's framework unless another is asked for.
 */
export const EXPORT_FRAMEWORK = exportFramework(builtinIso());
/** `ISO/IEC 42001:2023 Annex A`, `EU Artificial Intelligence Act (Regulation (EU) 2024/1689)`. */
export function frameworkLabel(framework) {
    return framework.scope ? `${framework.name} ${framework.scope}` : framework.name;
}
/** Numeric order of dotted ids, so that `A.10` sorts after `A.9` and `A.6.1.2` before `A.6.2.2`. */
export function compareControlIds(a, b) {
    const left = a.split('.');
    const right = b.split('.');
    for (let i = 0; i < Math.max(left.length, right.length); i++) {
        if (left[i] === undefined)
            return -1;
        if (right[i] === undefined)
            return 1;
        const l = Number(left[i]);
        const r = Number(right[i]);
        const order = Number.isNaN(l) || Number.isNaN(r) ? left[i].localeCompare(right[i]) : l - r;
        if (order !== 0)
            return order;
    }
    return 0;
}
export function sortControls(controls) {
    return [...controls].sort((a, b) => compareControlIds(a.controlId, b.controlId));
}
//# sourceMappingURL=framework.js.map