import { invalidField, resourceNotFound } from '../../platform/errors.js';
import { readRecordViews, writeJudgement } from '../../records/records.store.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { selectControl, selectControls } from './controls.store.js';
import { controlJudgement, DOMAIN_IDS, withLibraryControls } from './library.seed.js';
function checkDomain(domain) {
    if (domain !== undefined && !DOMAIN_IDS().includes(domain)) {
        throw invalidField('querystring.domain', `must be one of ${DOMAIN_IDS().join(', ')}`, {
            allowed: DOMAIN_IDS(),
        });
    }
}
/** The library, optionally filtered by domain and ranked by full-text relevance to `search`. */
export async function listControls(em, query) {
    checkDomain(query.domain);
    const rows = await selectControls(em, query);
    return rows.map((row) => row.rank === undefined ? row : { ...row, rank: Math.round(row.rank * 1e4) / 1e4 });
}
export async function getControl(em, controlId) {
    const control = await selectControl(em, controlId);
    if (!control)
        throw resourceNotFound('Control', { controlId });
    return control;
}
/**
 * An org's controls in library order: the library (in memory) joined with the org's ISO/IEC 42001
 * requirement records, which the requirements module reads with their evidence summaries.
 */
function orgControlViews(records) {
    return withLibraryControls(records).map(({ controlId, domain, title, record }) => ({
        controlId,
        domain,
        title,
        ...controlJudgement(record),
        evidenceCount: record.evidenceCount,
        evidenceExpired: record.evidenceExpired,
        evidence: record.evidence,
    }));
}
/** An org's controls, and until when they stay exact by themselves (the next evidence expiry). */
export async function listOrgControls(em, orgId, filter) {
    checkDomain(filter.domain);
    const { records, validUntil } = await readRecordViews(em, orgId, ISO_42001);
    const controls = orgControlViews(records).filter((control) => (filter.status === undefined || control.status === filter.status) &&
        (filter.applicable === undefined || control.applicable === filter.applicable) &&
        (filter.domain === undefined || control.domain === filter.domain));
    return { controls, validUntil };
}
export async function getOrgControl(em, orgId, controlId) {
    const { records } = await readRecordViews(em, orgId, ISO_42001, { requirementId: controlId });
    const [control] = orgControlViews(records);
    if (!control)
        throw resourceNotFound('Control', { controlId });
    return control;
}
const controlMustExist = (controlId) => (current) => {
    if (!current)
        throw resourceNotFound('Control', { controlId });
};
export async function setApplicability(em, input) {
    await writeJudgement(em, { orgId: input.orgId, frameworkId: ISO_42001, requirementId: input.controlId }, { applicable: input.applicable, justification: input.justification, reviewer: input.actor }, { actor: input.actor, keyId: input.keyId, note: input.justification }, controlMustExist(input.controlId));
    return getOrgControl(em, input.orgId, input.controlId);
}
export async function setStatus(em, input) {
    await writeJudgement(em, { orgId: input.orgId, frameworkId: ISO_42001, requirementId: input.controlId }, 
    // The note goes on the record (as through the requirement routes) and into the change log.
    { status: input.status, reviewer: input.actor, note: input.note ?? undefined }, { actor: input.actor, keyId: input.keyId, note: input.note }, controlMustExist(input.controlId));
    return getOrgControl(em, input.orgId, input.controlId);
}
//# sourceMappingURL=controls.service.js.map