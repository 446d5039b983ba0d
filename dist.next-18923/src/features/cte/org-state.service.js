/**
 * What the CTE needs to know about an organization: its direct requirement records of every framework
 * (each with whether its evidence has all expired, from the requirements module) and the risk levels of its
 * AI systems (retired ones no longer count). Its rows also make the fingerprint that keys cached analyses.
 */
import { readRecordStates } from '../../records/records.store.js';
import { activeRiskLevels } from '../ai-systems/ai-systems.service.js';
export async function loadOrgState(em, orgId, now = new Date()) {
    const states = await readRecordStates(em, orgId, { now });
    const risks = await activeRiskLevels(em, orgId);
    states.sort((a, b) => a.frameworkId === b.frameworkId
        ? a.requirementId.localeCompare(b.requirementId)
        : a.frameworkId.localeCompare(b.frameworkId));
    const records = new Map();
    const parts = [];
    let validUntil = Number.POSITIVE_INFINITY;
    for (const state of states) {
        if (state.expiresAt !== null)
            validUntil = Math.min(validUntil, new Date(state.expiresAt).getTime());
        // A record counts once it holds a status or an exclusion; an applicability-only exclusion leaves the
        // status to the crosswalk (`statusRecorded: false`).
        if (state.status === null && state.applicable !== false)
            continue;
        let framework = records.get(state.frameworkId);
        if (!framework) {
            framework = new Map();
            records.set(state.frameworkId, framework);
        }
        framework.set(state.requirementId, {
            status: state.status ?? 'not_started',
            applicable: state.applicable ?? true,
            ...(state.status === null ? { statusRecorded: false } : {}),
            ...(state.evidenceExpired ? { evidenceExpired: true } : {}),
        });
        parts.push(`${state.frameworkId}/${state.requirementId}:${state.status}:${state.applicable}:${state.evidenceExpired ? 1 : 0}`);
    }
    parts.push(...risks.map((risk) => `risk:${risk}`));
    return { records, aiSystemRiskLevels: risks, fingerprint: parts.join(','), validUntil };
}
//# sourceMappingURL=org-state.service.js.map