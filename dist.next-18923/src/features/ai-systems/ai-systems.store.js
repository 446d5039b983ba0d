/**
 * AI systems: the only module that reads or writes `ai_systems`. Rows come back as the API shows them
 * (timestamps as ISO strings).
 */
import { randomUUID } from 'node:crypto';
import { toIso } from '../../platform/db/instant.js';
const COLUMNS = `system_id as "systemId", name, description, owner, purpose, risk_level as "riskLevel",
  lifecycle_stage as "lifecycleStage", created_at as "createdAt", updated_at as "updatedAt"`;
/** Body member → column, for the fields a PUT may change. */
const MUTABLE = {
    name: 'name',
    description: 'description',
    owner: 'owner',
    purpose: 'purpose',
    riskLevel: 'risk_level',
    lifecycleStage: 'lifecycle_stage',
};
const toView = (row) => ({
    ...row,
    createdAt: toIso(row.createdAt),
    updatedAt: toIso(row.updatedAt),
});
/** The new system, or null when the org has one of that name already (a unique index, case-insensitive). */
export async function insertAiSystem(em, orgId, input) {
    const now = new Date();
    const [row] = await em.execute(`insert into ai_systems (system_id, org_id, name, description, owner, purpose, risk_level, lifecycle_stage,
       created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning ${COLUMNS}`, [
        randomUUID(),
        orgId,
        input.name,
        input.description ?? null,
        input.owner,
        input.purpose,
        input.riskLevel,
        input.lifecycleStage ?? 'design',
        now,
        now,
    ]);
    return row ? toView(row) : null;
}
/** The org's systems by name (then id), optionally of one risk level and lifecycle stage. */
export async function selectAiSystems(em, orgId, filter = {}) {
    const where = ['org_id = ?'];
    const params = [orgId];
    if (filter.riskLevel) {
        where.push('risk_level = ?');
        params.push(filter.riskLevel);
    }
    if (filter.lifecycleStage) {
        where.push('lifecycle_stage = ?');
        params.push(filter.lifecycleStage);
    }
    const rows = await em.execute(`select ${COLUMNS} from ai_systems where ${where.join(' and ')} order by lower(name), system_id`, params);
    return rows.map(toView);
}
export async function selectAiSystem(em, orgId, systemId) {
    const [row] = await em.execute(`select ${COLUMNS} from ai_systems where org_id = ? and system_id = ?`, [orgId, systemId]);
    return row ? toView(row) : null;
}
/**
 * Replaces the given fields and leaves the others as they are; null when there is no such system. A name
 * another system of the org holds fails with the driver's unique constraint violation.
 */
export async function updateAiSystemRow(em, orgId, systemId, changes) {
    const entries = Object.keys(MUTABLE)
        .filter((key) => changes[key] !== undefined)
        .map((key) => [MUTABLE[key], changes[key]]);
    const [row] = await em.execute(`update ai_systems set ${entries.map(([column]) => `${column} = ?`).join(', ')}, updated_at = ?
     where org_id = ? and system_id = ? returning ${COLUMNS}`, [...entries.map(([, value]) => value), new Date(), orgId, systemId]);
    return row ? toView(row) : null;
}
/** Whether there was such a system to delete. */
export async function deleteAiSystemRow(em, orgId, systemId) {
    const deleted = await em.execute('delete from ai_systems where org_id = ? and system_id = ? returning system_id as "systemId"', [orgId, systemId]);
    return deleted.length > 0;
}
/** The distinct risk levels of the org's AI systems that are not retired, in no particular order. */
export async function selectActiveRiskLevels(em, orgId) {
    const rows = await em.execute(`select distinct risk_level as "riskLevel" from ai_systems where org_id = ? and lifecycle_stage <> 'retired'
     order by 1`, [orgId]);
    return rows.map((row) => row.riskLevel);
}
/** The org's systems' ids and names: what an attestation may name a system by. */
export async function selectAiSystemNames(em, orgId) {
    return em.execute('select system_id as "systemId", name from ai_systems where org_id = ?', [orgId]);
}
//# sourceMappingURL=ai-systems.store.js.map