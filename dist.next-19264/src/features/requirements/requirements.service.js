/**
 * Assessments of every framework: an organization's requirement records read together with what the
 * crosswalk infers for them, and the effective status of every requirement (records/score.ts states the
 * rule). Records are read and written through the records store; inference comes from the CTE's cached
 * analysis of the org (`graph.ts` defines the rule). Scores and history live in features/scores.
 */
import { conflict, resourceNotFound } from '../../platform/errors.js';
import { readRecordViews, writeJudgement, } from '../../records/records.store.js';
import { effectiveStatus, INFERRED_STATUS } from '../../records/score.js';
import { ISO_42001, } from '../../shared/vocabulary.js';
import { analysisOf, justificationView } from '../cte/analysis.service.js';
import { currentLibrary, requireFramework } from '../cte/library.service.js';
function entryOf(requirement, row, record, detail) {
    const from = new Map();
    for (const why of row.justifications) {
        from.set(`${why.frameworkId}\u001f${why.controlId}`, {
            frameworkId: why.frameworkId,
            requirementId: why.controlId,
        });
    }
    return {
        requirementId: requirement.id,
        title: requirement.title,
        ...(requirement.domain ? { domain: requirement.domain } : {}),
        status: effectiveStatus(row),
        applicable: row.applicable,
        justification: record?.justification ?? null,
        reviewer: record?.reviewer ?? null,
        owner: record?.owner ?? null,
        note: record?.note ?? null,
        updatedAt: record?.updatedAt ?? null,
        assessment: row.assessment,
        inferred: {
            status: INFERRED_STATUS[row.inferredStatus],
            coverage: row.inferredStatus,
            from: [...from.values()],
            ...(detail ? { justifications: row.justifications.map(justificationView) } : {}),
        },
        evidenceCount: record?.evidenceCount ?? 0,
        evidenceExpired: record?.evidenceExpired ?? false,
        evidence: record?.evidence ?? [],
    };
}
/** The framework and requirement a request names: `404` "Framework not found" / "Requirement not found". */
export function requireRequirement(library, frameworkId, requirementId) {
    const framework = requireFramework(library, frameworkId);
    const requirement = library.requirement(frameworkId, requirementId);
    if (!requirement)
        throw resourceNotFound('Requirement', { frameworkId, requirementId });
    return { framework, requirement };
}
/** Every requirement of a framework with the org's record, the inference and the effective status. */
export async function listRequirements(em, orgId, frameworkId, filter = {}) {
    return requirementsOf(em, await analysisOf(em, orgId), frameworkId, filter);
}
/** As `listRequirements`, over an analysis the caller already holds. */
export async function requirementsOf(em, analysis, frameworkId, filter = {}) {
    const { orgId } = analysis;
    const framework = requireFramework(analysis.library, frameworkId);
    const { records, validUntil } = await readRecordViews(em, orgId, frameworkId);
    const byId = new Map(records.map((record) => [record.requirementId, record]));
    const rows = analysis.coverage.forFramework(frameworkId);
    const requirements = framework.requirements
        .map((requirement, index) => entryOf(requirement, rows[index], byId.get(requirement.id), false))
        .filter((entry) => (filter.status === undefined || entry.status === filter.status) &&
        (filter.applicable === undefined || entry.applicable === filter.applicable) &&
        (filter.assessment === undefined || entry.assessment === filter.assessment));
    return { requirements, validUntil };
}
/** One requirement, with the crosswalk's full reasoning. */
export async function getRequirement(em, orgId, frameworkId, requirementId) {
    const analysis = await analysisOf(em, orgId);
    const { requirement } = requireRequirement(analysis.library, frameworkId, requirementId);
    const row = analysis.coverage.get(frameworkId, requirementId);
    const { records } = await readRecordViews(em, orgId, frameworkId, { requirementId });
    return entryOf(requirement, row, records[0], true);
}
async function judge(em, key, judgement, author, check, options) {
    const { library } = await currentLibrary(em);
    requireRequirement(library, key.frameworkId, key.requirementId);
    await writeJudgement(em, key, judgement, author, check, options);
    return getRequirement(em, key.orgId, key.frameworkId, key.requirementId);
}
export function setRequirementStatus(em, key, input) {
    return judge(em, key, { status: input.status, reviewer: input.reviewer, owner: input.owner, note: input.note }, { actor: input.reviewer, keyId: input.keyId, note: input.note });
}
export function setRequirementApplicability(em, key, input) {
    return judge(em, key, { applicable: input.applicable, justification: input.justification, reviewer: input.reviewer }, { actor: input.reviewer, keyId: input.keyId, note: input.justification });
}
/**
 * Withdraws the direct status and applicability: the requirement falls back to what the crosswalk infers.
 * Evidence, owner and note stay. ISO/IEC 42001 controls always keep their record (`409`).
 */
export async function withdrawAssessment(em, key, input) {
    requireRequirement((await currentLibrary(em)).library, key.frameworkId, key.requirementId);
    if (key.frameworkId === ISO_42001) {
        throw conflict('ISO/IEC 42001 controls always keep their record: set a status or applicability instead', {
            frameworkId: key.frameworkId,
            requirementId: key.requirementId,
        });
    }
    return judge(em, key, { status: null, applicable: null, justification: null, reviewer: null }, { actor: input.actor, keyId: input.keyId, note: 'assessment withdrawn' }, undefined, { create: false });
}
//# sourceMappingURL=requirements.service.js.map