/**
 * AI systems: the only module that reads or writes `ai_systems`. Rows come back as the API shows them
 * (timestamps as ISO strings).
 */
import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { toIso } from '../../platform/db/instant.js';
import type { RiskLevel } from '../../shared/vocabulary.js';
import type { AiSystemSchema, CreateAiSystemBody, UpdateAiSystemBody } from './ai-systems.schemas.js';

export type AiSystemView = Static<typeof AiSystemSchema>;
export type NewAiSystem = Static<typeof CreateAiSystemBody>;
export type AiSystemChanges = Static<typeof UpdateAiSystemBody>;

const COLUMNS = `system_id as "systemId", name, description, owner, purpose, risk_level as "riskLevel",
  lifecycle_stage as "lifecycleStage", created_at as "createdAt", updated_at as "updatedAt"`;

/** Body member → column, for the fields a PUT may change. */
const MUTABLE: Record<keyof AiSystemChanges, string> = {
  name: 'name',
  description: 'description',
  owner: 'owner',
  purpose: 'purpose',
  riskLevel: 'risk_level',
  lifecycleStage: 'lifecycle_stage',
};

const toView = (row: AiSystemView): AiSystemView => ({
  ...row,
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

/** The new system, or null when the org has one of that name already (a unique index, case-insensitive). */
export async function insertAiSystem(
  em: Em,
  orgId: string,
  input: NewAiSystem,
): Promise<AiSystemView | null> {
  const now = new Date();
  const [row] = await em.execute<AiSystemView[]>(
    `insert into ai_systems (system_id, org_id, name, description, owner, purpose, risk_level, lifecycle_stage,
       created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning ${COLUMNS}`,
    [
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
    ],
  );
  return row ? toView(row) : null;
}

/** The org's systems by name (then id), optionally of one risk level and lifecycle stage. */
export async function selectAiSystems(
  em: Em,
  orgId: string,
  filter: { riskLevel?: string; lifecycleStage?: string } = {},
): Promise<AiSystemView[]> {
  const where = ['org_id = ?'];
  const params: unknown[] = [orgId];
  if (filter.riskLevel) {
    where.push('risk_level = ?');
    params.push(filter.riskLevel);
  }
  if (filter.lifecycleStage) {
    where.push('lifecycle_stage = ?');
    params.push(filter.lifecycleStage);
  }
  const rows = await em.execute<AiSystemView[]>(
    `select ${COLUMNS} from ai_systems where ${where.join(' and ')} order by lower(name), system_id`,
    params,
  );
  return rows.map(toView);
}

export async function selectAiSystem(em: Em, orgId: string, systemId: string): Promise<AiSystemView | null> {
  const [row] = await em.execute<AiSystemView[]>(
    `select ${COLUMNS} from ai_systems where org_id = ? and system_id = ?`,
    [orgId, systemId],
  );
  return row ? toView(row) : null;
}

/**
 * Replaces the given fields and leaves the others as they are; null when there is no such system. A name
 * another system of the org holds fails with the driver's unique constraint violation.
 */
export async function updateAiSystemRow(
  em: Em,
  orgId: string,
  systemId: string,
  changes: AiSystemChanges,
): Promise<AiSystemView | null> {
  const entries = (Object.keys(MUTABLE) as (keyof AiSystemChanges)[])
    .filter((key) => changes[key] !== undefined)
    .map((key) => [MUTABLE[key], changes[key]] as const);
  const [row] = await em.execute<AiSystemView[]>(
    `update ai_systems set ${entries.map(([column]) => `${column} = ?`).join(', ')}, updated_at = ?
     where org_id = ? and system_id = ? returning ${COLUMNS}`,
    [...entries.map(([, value]) => value), new Date(), orgId, systemId],
  );
  return row ? toView(row) : null;
}

/** Whether there was such a system to delete. */
export async function deleteAiSystemRow(em: Em, orgId: string, systemId: string): Promise<boolean> {
  const deleted = await em.execute<{ systemId: string }[]>(
    'delete from ai_systems where org_id = ? and system_id = ? returning system_id as "systemId"',
    [orgId, systemId],
  );
  return deleted.length > 0;
}

/** The distinct risk levels of the org's AI systems that are not retired, in no particular order. */
export async function selectActiveRiskLevels(em: Em, orgId: string): Promise<RiskLevel[]> {
  const rows = await em.execute<{ riskLevel: RiskLevel }[]>(
    `select distinct risk_level as "riskLevel" from ai_systems where org_id = ? and lifecycle_stage <> 'retired'
     order by 1`,
    [orgId],
  );
  return rows.map((row) => row.riskLevel);
}

/** The org's systems' ids and names: what an attestation may name a system by. */
export async function selectAiSystemNames(
  em: Em,
  orgId: string,
): Promise<{ systemId: string; name: string }[]> {
  return em.execute<{ systemId: string; name: string }[]>(
    'select system_id as "systemId", name from ai_systems where org_id = ?',
    [orgId],
  );
}
