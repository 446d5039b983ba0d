import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict, resourceNotFound } from '../errors.js';
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
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
});
const nameTaken = (name) => conflict('An AI system with this name already exists', { name });
/** The name is claimed by a unique index (case-insensitive), so concurrent creates cannot both win. */
export async function createAiSystem(em, orgId, input) {
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
    if (!row)
        throw nameTaken(input.name);
    return toView(row);
}
export async function listAiSystems(em, orgId, filter) {
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
export async function getAiSystem(em, orgId, systemId) {
    const [row] = await em.execute(`select ${COLUMNS} from ai_systems where org_id = ? and system_id = ?`, [orgId, systemId]);
    if (!row)
        throw resourceNotFound('AI system', { systemId });
    return toView(row);
}
/** Replaces the given fields and leaves the others as they are. */
export async function updateAiSystem(em, orgId, systemId, changes) {
    const entries = Object.keys(MUTABLE)
        .filter((key) => changes[key] !== undefined)
        .map((key) => [MUTABLE[key], changes[key]]);
    let row;
    try {
        [row] = await em.execute(`update ai_systems set ${entries.map(([column]) => `${column} = ?`).join(', ')}, updated_at = ?
       where org_id = ? and system_id = ? returning ${COLUMNS}`, [...entries.map(([, value]) => value), new Date(), orgId, systemId]);
    }
    catch (error) {
        if (error instanceof UniqueConstraintViolationException)
            throw nameTaken(changes.name ?? '');
        throw error;
    }
    if (!row)
        throw resourceNotFound('AI system', { systemId });
    return toView(row);
}
export async function deleteAiSystem(em, orgId, systemId) {
    const deleted = await em.execute('delete from ai_systems where org_id = ? and system_id = ? returning system_id as "systemId"', [orgId, systemId]);
    if (deleted.length === 0)
        throw resourceNotFound('AI system', { systemId });
}
/** The distinct risk levels of the org's AI systems that are not retired, in no particular order. */
export async function activeRiskLevels(em, orgId) {
    const rows = await em.execute(`select distinct risk_level as "riskLevel" from ai_systems where org_id = ? and lifecycle_stage <> 'retired'
     order by 1`, [orgId]);
    return rows.map((row) => row.riskLevel);
}
//# sourceMappingURL=ai-systems.service.js.map