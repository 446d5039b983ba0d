import { OSCAL_FILES } from '../../../platform/oscal/constants.js';
import { compProp, documentMetadata, stateProps, } from './oscal-context.js';
import { findingStatus, implementationState } from './oscal-status.js';
import { markupLine, oscalDateTime } from './oscal-text.js';
const EVIDENCE_KINDS = {
    attestation: 'Attestation',
    document: 'Document',
    link: 'Link',
};
/**
 * An evidence item as an observation. Its resource lives in the SSP's back-matter, linked as
 * `ssp.json#uuid` rather than copied, which would double the size of a large export.
 */
export function evidenceObservation(control, { evidence, resourceUuid, observationUuid, title }, noun = 'control') {
    return {
        uuid: observationUuid,
        title,
        description: `${EVIDENCE_KINDS[evidence.type]} recorded for ${noun} ${markupLine(control.controlId, 'unknown')}.`,
        methods: ['EXAMINE'],
        'relevant-evidence': [{ href: `${OSCAL_FILES.ssp}#${resourceUuid}`, description: title }],
        collected: oscalDateTime(evidence.createdAt),
    };
}
const STATUS_SOURCES = {
    direct: 'as recorded',
    inferred: 'as inferred through the crosswalk',
    none: 'not assessed',
};
function finding(ctx, control) {
    const { noun } = ctx.framework;
    const source = STATUS_SOURCES[control.assessment ?? 'direct'];
    const result = {
        uuid: ctx.ids.finding(control.controlId),
        title: markupLine(`${control.controlId} ${control.title}`, control.controlId),
        description: `Status of ${noun} ${markupLine(control.controlId, noun)} ${source}, with ${control.evidenceCount} evidence item(s).`,
        props: [compProp('status', control.status)],
        origins: [{ actors: [{ type: 'tool', 'actor-uuid': ctx.ids.tool }] }],
        target: {
            type: 'statement-id',
            'target-id': ctx.tokens.statement(control.controlId),
            status: findingStatus(control),
            'implementation-status': { state: implementationState(control) },
        },
        'implementation-statement-uuid': ctx.ids.implementedRequirement(control.controlId),
    };
    const evidence = ctx.evidence.get(control) ?? [];
    if (evidence.length > 0) {
        result['related-observations'] = evidence.map((ref) => ({ 'observation-uuid': ref.observationUuid }));
    }
    return result;
}
export function evidenceObservations(ctx) {
    const observations = [];
    for (const control of ctx.controls) {
        for (const ref of ctx.evidence.get(control) ?? []) {
            observations.push(evidenceObservation(control, ref, ctx.framework.noun));
        }
    }
    return observations;
}
/**
 * One result per export: an observation per evidence item and a finding per applicable control
 * (requirement), whether its status is recorded, inferred or neither.
 * `observations` defaults to all of them; a streaming writer passes only the first and adds the rest.
 */
export function buildAssessmentResults(ctx, observations = evidenceObservations(ctx)) {
    const findings = ctx.controls
        .filter((control) => control.applicable)
        .map((control) => finding(ctx, control));
    const result = {
        uuid: ctx.ids.result(ctx.generatedAt),
        title: `Evidence review of ${ctx.orgMarkup} at ${ctx.generatedAt}`,
        description: `Observations of the ${ctx.evidenceCount} evidence item(s) exported and a finding for each of the ${findings.length} applicable ${ctx.framework.noun}(s).`,
        start: ctx.generatedAt,
        end: ctx.generatedAt,
        'reviewed-controls': { 'control-selections': [{ 'include-all': {} }] },
    };
    if (observations.length > 0)
        result.observations = observations;
    if (findings.length > 0)
        result.findings = findings;
    return {
        'assessment-results': {
            uuid: ctx.ids.assessmentResults,
            metadata: documentMetadata(ctx, `${ctx.orgMarkup}: ${ctx.frameworkName} assessment results`, {
                props: stateProps(ctx),
            }),
            'import-ap': { href: OSCAL_FILES.assessmentPlan },
            results: [result],
        },
    };
}
//# sourceMappingURL=assessment-results.builder.js.map