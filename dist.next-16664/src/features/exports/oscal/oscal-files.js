import { randomUUID } from 'node:crypto';
import { validateOscalDocument, validateOscalItem, } from '../../../platform/oscal/validation.js';
import { Spool } from '../spool.js';
import { buildAssessmentPlan } from './assessment-plan.builder.js';
import { buildAssessmentResults, evidenceObservation } from './assessment-results.builder.js';
import { buildCatalog } from './catalog.builder.js';
import { evidenceResource } from './evidence.builder.js';
import { checkAssessmentResultsConstraints, checkSspConstraints } from './oscal-constraints.js';
import { createOscalContextWithPauses } from './oscal-context.js';
import { OscalValidationError } from './oscal-package-validation.js';
import { OscalReferenceChecker } from './oscal-references.js';
import { buildProfile } from './profile.builder.js';
import { buildSsp } from './ssp.builder.js';
function oscalFile(name, spool, range) {
    return {
        name,
        range,
        size: range.end - range.start,
        get content() {
            return spool.read(range);
        },
        stream: () => spool.stream(range),
    };
}
/** Evidence items processed between two pauses. */
const ITEMS_PER_PAUSE = 5000;
/** Problems kept for the error; a systematic fault would otherwise list one per evidence item. */
const MAX_PROBLEMS = 1000;
function firstEvidence(ctx) {
    for (const control of ctx.controls) {
        const [ref] = ctx.evidence.get(control) ?? [];
        if (ref)
            return [control, ref];
    }
    return undefined;
}
class OscalFileWriter {
    ctx;
    spool;
    pause;
    files = [];
    schemaProblems = [];
    otherProblems = [];
    problemCount = 0;
    schemaCount = 0;
    references = new OscalReferenceChecker();
    /** Stands in for the streamed elements in a document's text; random, so no user text can match it. */
    marker = `streamed-elements:${randomUUID()}`;
    constructor(ctx, spool, pause) {
        this.ctx = ctx;
        this.spool = spool;
        this.pause = pause;
    }
    report(list, problem) {
        this.problemCount += 1;
        if (list === this.schemaProblems)
            this.schemaCount += 1;
        if (list.length < MAX_PROBLEMS)
            list.push(problem);
    }
    schemaErrors(file, result, prefix = '') {
        for (const error of result.errors) {
            this.report(this.schemaProblems, `${file} ${prefix}${error.path === '/' && prefix ? '' : error.path}: ${error.message}`);
        }
    }
    /** A document small enough to handle whole: validated, its references checked, written. */
    async document(file, kind, document) {
        this.schemaErrors(file, validateOscalDocument(kind, document));
        this.references.startDocument(file);
        this.references.check(document);
        const start = this.spool.size;
        this.spool.write(JSON.stringify(document));
        this.files.push(oscalFile(file, this.spool, { start, end: this.spool.size }));
        await this.pause();
    }
    /**
     * A document with an array as long as the evidence. It is built and validated with the first element
     * only, which checks its whole structure against the schema; each further element is validated on its
     * own against the array's item definition. As the array's only constraints are `minItems` and
     * `items`, this is exactly the document's validation, without the document ever holding every
     * element: each is checked, written and dropped.
     */
    async streamedDocument(file, kind, document, array) {
        this.schemaErrors(file, validateOscalDocument(kind, document));
        this.references.startDocument(file);
        const out = this.spool;
        const start = out.size;
        if (array.holder?.length) {
            const [first] = array.holder;
            array.holder[0] = this.marker;
            // The document's text around the elements; building the elements leaves the document as it is.
            const [head, tail] = this.split(JSON.stringify(document));
            out.write(head);
            const arrayKey = String(array.path[array.path.length - 1]);
            const prefix = `/${array.path.join('/')}`;
            let index = 0;
            for (const control of this.ctx.controls) {
                for (const ref of this.ctx.evidence.get(control) ?? []) {
                    const element = index === 0 ? first : array.build(control, ref);
                    if (index > 0)
                        this.schemaErrors(file, validateOscalItem(array.item, element), `${prefix}/${index}`);
                    this.references.check(element, [...array.path, index], arrayKey);
                    out.write(index === 0 ? JSON.stringify(element) : `,${JSON.stringify(element)}`);
                    index += 1;
                    if (index % ITEMS_PER_PAUSE === 0)
                        await this.pause();
                }
            }
            out.write(tail);
            this.references.check(document);
        }
        else {
            this.references.check(document);
            out.write(JSON.stringify(document));
        }
        this.files.push(oscalFile(file, out, { start, end: out.size }));
        await this.pause();
    }
    /** The document's text before and after the marker; it must stand there exactly once. */
    split(json) {
        const marker = JSON.stringify(this.marker);
        const at = json.indexOf(marker);
        if (at < 0 || json.indexOf(marker, at + 1) >= 0)
            throw new Error('Streamed OSCAL array marker not found once');
        return [json.slice(0, at), json.slice(at + marker.length)];
    }
    constraints(problems) {
        for (const p of problems)
            this.report(this.otherProblems, `${p.document} ${p.path}: ${p.message}`);
    }
    /** Throws when anything was wrong. References only mean something between well-formed documents. */
    finish() {
        if (this.schemaProblems.length === 0) {
            for (const p of this.references.finish()) {
                this.report(this.otherProblems, `${p.document} ${p.path}: ${p.message} (${p.reference})`);
            }
        }
        const problems = this.schemaProblems.length > 0 ? this.schemaProblems : this.otherProblems;
        if (problems.length > 0) {
            const total = problems === this.schemaProblems ? this.schemaCount : this.problemCount - this.schemaCount;
            throw new OscalValidationError(problems, total);
        }
        return this.files;
    }
}
/**
 * The five documents of an organization's package for one framework (`data.framework`) as UTF-8 JSON (each the bytes of what `JSON.stringify`
 * gives for the document `buildOscalPackage` builds), checked while they are written: every document
 * against NIST's schema, every reference the schema cannot see, the metaschema rules we rely on.
 * Documents are written to the spool in import order and dropped as soon as they are text; the
 * evidence-sized arrays (SSP back-matter resources, assessment observations) never exist as one array of
 * objects, and their text never as one string or buffer.
 * Throws an OscalValidationError listing the problems instead of returning an invalid package.
 */
export async function writeOscalFiles(data, options = {}) {
    const pause = options.pause ?? (() => Promise.resolve());
    const ctx = await createOscalContextWithPauses(data, pause);
    const writer = new OscalFileWriter(ctx, options.spool ?? new Spool(), pause);
    await writer.document('catalog.json', 'catalog', buildCatalog(ctx));
    await writer.document('profile.json', 'profile', buildProfile(ctx));
    const first = firstEvidence(ctx);
    const firstResource = first && evidenceResource(first[1]);
    const ssp = buildSsp(ctx, firstResource ? [firstResource] : []);
    writer.constraints(checkSspConstraints(ssp));
    await writer.streamedDocument('ssp.json', 'ssp', ssp, {
        holder: ssp['system-security-plan']['back-matter']?.resources,
        path: ['system-security-plan', 'back-matter', 'resources'],
        item: 'ssp-resource',
        build: (_control, ref) => evidenceResource(ref),
    });
    await writer.document('assessment-plan.json', 'assessment-plan', buildAssessmentPlan(ctx));
    const { noun } = ctx.framework;
    const firstObservation = first && evidenceObservation(first[0], first[1], noun);
    const results = buildAssessmentResults(ctx, firstObservation ? [firstObservation] : []);
    writer.constraints(checkAssessmentResultsConstraints(results));
    await writer.streamedDocument('assessment-results.json', 'assessment-results', results, {
        holder: results['assessment-results'].results[0].observations,
        path: ['assessment-results', 'results', 0, 'observations'],
        item: 'observation',
        build: (control, ref) => evidenceObservation(control, ref, noun),
    });
    return writer.finish();
}
//# sourceMappingURL=oscal-files.js.map