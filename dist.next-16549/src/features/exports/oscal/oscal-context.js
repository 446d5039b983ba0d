import { COMPLY_PROP_NS, OSCAL_VERSION } from '../../../platform/oscal/constants.js';
import { ISO_42001 } from '../../../shared/vocabulary.js';
import { EXPORT_FRAMEWORK, frameworkLabel, sortControls } from '../framework.js';
import { OscalTokens, oscalIds } from './oscal-ids.js';
import { markupLine, oscalDateTime, oscalString } from './oscal-text.js';
/** Evidence items prepared between two pauses of `createOscalContextWithPauses`. */
const REFS_PER_STEP = 10_000;
/** Builds the context, yielding after every few thousand evidence items (each derives two UUIDs). */
function* contextSteps(data) {
    const framework = data.framework ?? EXPORT_FRAMEWORK;
    const ids = oscalIds(data.org.orgId, framework);
    // ISO/IEC 42001 controls are sorted by their dotted ids; other frameworks keep their library order.
    const controls = framework.id === ISO_42001 ? sortControls(data.controls) : [...data.controls];
    const orgName = oscalString(data.org.name, data.org.orgId);
    const lastModified = oscalDateTime(data.lastModified);
    const evidence = new Map();
    let evidenceCount = 0;
    for (const control of data.controls) {
        const refs = [];
        for (const item of control.evidence) {
            refs.push({
                evidence: item,
                resourceUuid: ids.evidenceResource(item.evidenceId),
                observationUuid: ids.observation(item.evidenceId),
                title: markupLine(item.title, item.evidenceId),
            });
            evidenceCount += 1;
            if (evidenceCount % REFS_PER_STEP === 0)
                yield;
        }
        evidence.set(control, refs);
    }
    const domains = controls.flatMap((control) => (control.domain ? [control.domain] : []));
    return {
        data,
        framework,
        frameworkName: markupLine(framework.name, framework.id),
        frameworkLabel: markupLine(frameworkLabel(framework), framework.id),
        ids,
        tokens: new OscalTokens(controls.map((control) => control.controlId), domains),
        orgName,
        orgMarkup: markupLine(data.org.name, data.org.orgId),
        generatedAt: oscalDateTime(data.generatedAt),
        lastModified,
        version: data.snapshot ? oscalString(`snapshot ${data.snapshot.label}`, lastModified) : lastModified,
        controls,
        evidence,
        evidenceCount,
        orgParty: { uuid: ids.orgParty, type: 'organization', name: orgName },
    };
}
export function createOscalContext(data) {
    const steps = contextSteps(data);
    for (;;) {
        const step = steps.next();
        if (step.done)
            return step.value;
    }
}
/** The same context, awaiting `pause` every few thousand evidence items. */
export async function createOscalContextWithPauses(data, pause) {
    const steps = contextSteps(data);
    for (;;) {
        const step = steps.next();
        if (step.done)
            return step.value;
        await pause();
    }
}
/** A property in our namespace. */
export function compProp(name, value) {
    return { name, ns: COMPLY_PROP_NS, value };
}
export function documentMetadata(ctx, title, extra = {}) {
    const metadata = {
        title,
        published: ctx.generatedAt,
        'last-modified': ctx.lastModified,
        version: extra.version ?? ctx.version,
        'oscal-version': OSCAL_VERSION,
    };
    if (extra.props?.length)
        metadata.props = extra.props;
    if (extra.roles?.length)
        metadata.roles = extra.roles;
    metadata.parties = [ctx.orgParty, ...(extra.parties ?? [])];
    if (extra.remarks)
        metadata.remarks = extra.remarks;
    return metadata;
}
/** Props that tie a document to the organization's state: score and, when exported, the snapshot. */
export function stateProps(ctx) {
    const { data } = ctx;
    const props = [compProp('org-id', oscalString(data.org.orgId, 'unknown'))];
    // ISO/IEC 42001 packages have always gone without it; every other package names its framework.
    if (ctx.framework.id !== ISO_42001)
        props.push(compProp('framework-id', oscalString(ctx.framework.id, 'unknown')));
    if (data.score !== null)
        props.push(compProp('compliance-score', data.score.toFixed(1)));
    if (data.snapshot) {
        props.push(compProp('snapshot-id', oscalString(data.snapshot.snapshotId, 'unknown')), compProp('snapshot-label', oscalString(data.snapshot.label, 'unnamed')), compProp('snapshot-created', oscalDateTime(data.snapshot.createdAt)), compProp('snapshot-content-hash', oscalString(data.snapshot.contentHash, 'unknown')));
    }
    return props;
}
//# sourceMappingURL=oscal-context.js.map