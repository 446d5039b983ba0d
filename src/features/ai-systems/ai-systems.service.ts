import { randomUUID } from 'node:crypto';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { conflict, resourceNotFound } from '../../platform/errors.js';
import type { RiskLevel } from '../../shared/vocabulary.js';
import type { AiSystemSchema, CreateAiSystemBody, UpdateAiSystemBody } from './ai-systems.schemas.js';

export type AiSystemView = Static<typeof AiSystemSchema>;
export type NewAiSystem = Static<typeof CreateAiSystemBody>;
export type AiSystemChanges = Static<typeof UpdateAiSystemBody>;

type AiSystemRow = Omit<AiSystemView, 'createdAt' | 'updatedAt'> & {
  createdAt: Date | string;
  updatedAt: Date | string;
};

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

const toView = (row: AiSystemRow): AiSystemView => ({
  ...row,
  createdAt: new Date(row.createdAt).toISOString(),
  updatedAt: new Date(row.updatedAt).toISOString(),
});

const nameTaken = (name: string) => conflict('An AI system with this name already exists', { name });

/** The name is claimed by a unique index (case-insensitive), so concurrent creates cannot both win. */
export async function createAiSystem(em: Em, orgId: string, input: NewAiSystem): Promise<AiSystemView> {
  const now = new Date();
  const [row] = await em.execute<AiSystemRow[]>(
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
  if (!row) throw nameTaken(input.name);
  return toView(row);
}

export async function listAiSystems(
  em: Em,
  orgId: string,
  filter: { riskLevel?: string; lifecycleStage?: string },
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
  const rows = await em.execute<AiSystemRow[]>(
    `select ${COLUMNS} from ai_systems where ${where.join(' and ')} order by lower(name), system_id`,
    params,
  );
  return rows.map(toView);
}

export async function getAiSystem(em: Em, orgId: string, systemId: string): Promise<AiSystemView> {
  const [row] = await em.execute<AiSystemRow[]>(
    `select ${COLUMNS} from ai_systems where org_id = ? and system_id = ?`,
    [orgId, systemId],
  );
  if (!row) throw resourceNotFound('AI system', { systemId });
  return toView(row);
}

/** Replaces the given fields and leaves the others as they are. */
export async function updateAiSystem(
  em: Em,
  orgId: string,
  systemId: string,
  changes: AiSystemChanges,
): Promise<AiSystemView> {
  const entries = (Object.keys(MUTABLE) as (keyof AiSystemChanges)[])
    .filter((key) => changes[key] !== undefined)
    .map((key) => [MUTABLE[key], changes[key]] as const);
  let row: AiSystemRow | undefined;
  try {
    [row] = await em.execute<AiSystemRow[]>(
      `update ai_systems set ${entries.map(([column]) => `${column} = ?`).join(', ')}, updated_at = ?
       where org_id = ? and system_id = ? returning ${COLUMNS}`,
      [...entries.map(([, value]) => value), new Date(), orgId, systemId],
    );
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw nameTaken(changes.name ?? '');
    throw error;
  }
  if (!row) throw resourceNotFound('AI system', { systemId });
  return toView(row);
}

export async function deleteAiSystem(em: Em, orgId: string, systemId: string): Promise<void> {
  const deleted = await em.execute<{ systemId: string }[]>(
    'delete from ai_systems where org_id = ? and system_id = ? returning system_id as "systemId"',
    [orgId, systemId],
  );
  if (deleted.length === 0) throw resourceNotFound('AI system', { systemId });
}

/** The distinct risk levels of the org's AI systems that are not retired, in no particular order. */
export async function activeRiskLevels(em: Em, orgId: string): Promise<RiskLevel[]> {
  const rows = await em.execute<{ riskLevel: RiskLevel }[]>(
    `select distinct risk_level as "riskLevel" from ai_systems where org_id = ? and lifecycle_stage <> 'retired'
     order by 1`,
    [orgId],
  );
  return rows.map((row) => row.riskLevel);
}
