import { validateOscalDocument } from '../../../platform/oscal/validation.js';
import { checkOscalConstraints } from './oscal-constraints.js';
import { checkOscalReferences } from './oscal-references.js';
const DOCUMENT_KINDS = {
    'catalog.json': 'catalog',
    'profile.json': 'profile',
    'ssp.json': 'ssp',
    'assessment-plan.json': 'assessment-plan',
    'assessment-results.json': 'assessment-results',
};
/** Every problem of a package, one line each: schema errors, dangling references, broken constraints. */
export function validateOscalPackage(pkg) {
    const { documents } = pkg['oscal-package'];
    const problems = [];
    for (const [file, kind] of Object.entries(DOCUMENT_KINDS)) {
        const result = validateOscalDocument(kind, documents[file]);
        for (const error of result.errors)
            problems.push(`${file} ${error.path}: ${error.message}`);
    }
    // References are only meaningful between documents of the right shape.
    if (problems.length > 0)
        return problems;
    for (const p of checkOscalReferences(pkg))
        problems.push(`${p.document} ${p.path}: ${p.message} (${p.reference})`);
    for (const p of checkOscalConstraints(pkg))
        problems.push(`${p.document} ${p.path}: ${p.message}`);
    return problems;
}
export class OscalValidationError extends Error {
    problems;
    total;
    /** `problems` may be a sample of `total` when there are very many. */
    constructor(problems, total = problems.length) {
        const shown = problems.slice(0, 10).join('; ');
        const more = total > 10 ? `; and ${total - Math.min(10, problems.length)} more` : '';
        super(`The OSCAL export is invalid (${total} problem(s)): ${shown}${more}`);
        this.problems = problems;
        this.total = total;
        this.name = 'OscalValidationError';
    }
}
/** Refuses to let an invalid package out: throws an OscalValidationError that lists the problems. */
export function assertValidOscalPackage(pkg) {
    const problems = validateOscalPackage(pkg);
    if (problems.length > 0)
        throw new OscalValidationError(problems);
}
//# sourceMappingURL=oscal-package-validation.js.map