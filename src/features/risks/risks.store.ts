/** The AI risk register: the only module that reads or writes `risks`, `risk_acceptances` and `risk_criteria`. */
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
import { textArray } from '../../platform/db/sql.js';
import type { RiskScoreLevel, TreatmentOption } from '../../shared/vocabulary.js';
import type { LevelBand } from './risk-criteria.js';

export interface Treatment {
  option: TreatmentOption;
  requirements: { frameworkId: string; requirementId: string }[];
  plan?: string;
  dueDate?: string;
}

export interface RiskRow {
  riskId: string;
  orgId: string;
  title: string;
  description: string | null;
  category: string | null;
  owner: string | null;
  systemIds: string[];
  likelihood: number;
  impact: number;
  residualLikelihood: number | null;
  residualImpact: number | null;
  treatment: Treatment | null;
  reviewDate: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface AcceptanceRow {
  acceptanceId: string;
  riskId: string;
  acceptedBy: { userId: string; email: string; name: string };
  acceptedAt: string;
  expiresAt: string;
  justification: string;
  stateHash: string;
}

const RISK_COLUMNS = `risk_id as "riskId", org_id as "orgId", title, description, category, owner,
  system_ids as "systemIds", likelihood, impact, residual_likelihood as "residualLikelihood",
  residual_impact as "residualImpact", treatment, review_date as "reviewDate", created_at as "createdAt",
  updated_at as "updatedAt"`;

const toRisk = (row: RiskRow): RiskRow => ({
  ...row,
  reviewDate: toIsoOrNull(row.reviewDate),
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

export async function selectCriteria(
  em: Em,
  orgId: string,
): Promise<{ levels: LevelBand[]; acceptableLevel: RiskScoreLevel } | null> {
  const [row] = await em.execute<{ levels: LevelBand[]; acceptableLevel: RiskScoreLevel }[]>(
    'select levels, acceptable_level as "acceptableLevel" from risk_criteria where org_id = ?',
    [orgId],
  );
  return row ?? null;
}

export async function upsertCriteria(
  em: Em,
  orgId: string,
  criteria: { levels: LevelBand[]; acceptableLevel: RiskScoreLevel },
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into risk_criteria (org_id, levels, acceptable_level, updated_at) values (?, ?::jsonb, ?, ?)
     on conflict (org_id) do update set levels = excluded.levels, acceptable_level = excluded.acceptable_level,
       updated_at = excluded.updated_at`,
    [orgId, JSON.stringify(criteria.levels), criteria.acceptableLevel, now],
  );
}

export type RiskValues = Omit<RiskRow, 'riskId' | 'orgId' | 'createdAt' | 'updatedAt'>;

const valuesOf = (risk: RiskValues) => [
  risk.title,
  risk.description,
  risk.category,
  risk.owner,
  textArray(risk.systemIds),
  risk.likelihood,
  risk.impact,
  risk.residualLikelihood,
  risk.residualImpact,
  risk.treatment === null ? null : JSON.stringify(risk.treatment),
  risk.reviewDate,
];

/** Where a risk came from, when an impact of an impact assessment raised it (one risk per impact). */
export interface RiskSource {
  assessmentId: string;
  impactIndex: number;
}

/** False when the source already raised a risk. */
export async function insertRisk(
  em: Em,
  risk: RiskValues & { riskId: string; orgId: string; createdBy: string; source?: RiskSource },
  now: Date,
): Promise<boolean> {
  const rows = await em.execute(
    `insert into risks (risk_id, org_id, title, description, category, owner, system_ids, likelihood, impact,
       residual_likelihood, residual_impact, treatment, review_date, source_assessment_id, source_impact, created_by,
       created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?::text[], ?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, ?)
     on conflict (org_id, source_assessment_id, source_impact) do nothing returning risk_id`,
    [
      risk.riskId,
      risk.orgId,
      ...valuesOf(risk),
      risk.source?.assessmentId ?? null,
      risk.source?.impactIndex ?? null,
      risk.createdBy,
      now,
      now,
    ],
  );
  return rows.length > 0;
}

/** The risk an impact raised, if any. */
export async function selectRiskBySource(em: Em, orgId: string, source: RiskSource): Promise<string | null> {
  const [row] = await em.execute<{ riskId: string }[]>(
    'select risk_id as "riskId" from risks where org_id = ? and source_assessment_id = ? and source_impact = ?',
    [orgId, source.assessmentId, source.impactIndex],
  );
  return row?.riskId ?? null;
}

/** Replaces the risk's assessed and descriptive fields; false when the org has no such risk. */
export async function updateRisk(
  em: Em,
  orgId: string,
  riskId: string,
  risk: RiskValues,
  now: Date,
): Promise<boolean> {
  const rows = await em.execute(
    `update risks set title = ?, description = ?, category = ?, owner = ?, system_ids = ?::text[], likelihood = ?,
       impact = ?, residual_likelihood = ?, residual_impact = ?, treatment = ?::jsonb, review_date = ?, updated_at = ?
     where org_id = ? and risk_id = ? returning risk_id`,
    [...valuesOf(risk), now, orgId, riskId],
  );
  return rows.length > 0;
}

export async function deleteRisk(em: Em, orgId: string, riskId: string): Promise<boolean> {
  const rows = await em.execute('delete from risks where org_id = ? and risk_id = ? returning risk_id', [
    orgId,
    riskId,
  ]);
  return rows.length > 0;
}

/** The org's risks, oldest first. */
export async function selectRisks(em: Em, orgId: string): Promise<RiskRow[]> {
  const rows = await em.execute<RiskRow[]>(
    `select ${RISK_COLUMNS} from risks where org_id = ? order by created_at, risk_id`,
    [orgId],
  );
  return rows.map(toRisk);
}

export async function selectRisk(
  em: Em,
  orgId: string,
  riskId: string,
  options: { forUpdate?: boolean } = {},
): Promise<RiskRow | null> {
  const [row] = await em.execute<RiskRow[]>(
    `select ${RISK_COLUMNS} from risks where org_id = ? and risk_id = ?${options.forUpdate ? ' for update' : ''}`,
    [orgId, riskId],
  );
  return row ? toRisk(row) : null;
}

const ACCEPTANCE_COLUMNS = `acceptance_id as "acceptanceId", risk_id as "riskId", accepted_by as "acceptedBy",
  accepted_at as "acceptedAt", expires_at as "expiresAt", justification, state_hash as "stateHash"`;

const toAcceptance = (row: AcceptanceRow): AcceptanceRow => ({
  ...row,
  acceptedAt: toIso(row.acceptedAt),
  expiresAt: toIso(row.expiresAt),
});

/** The acceptances in force (not withdrawn) of the org's risks, one per risk at most. */
export async function selectAcceptances(em: Em, orgId: string, riskId?: string): Promise<AcceptanceRow[]> {
  const rows = await em.execute<AcceptanceRow[]>(
    `select ${ACCEPTANCE_COLUMNS} from risk_acceptances where org_id = ? and withdrawn_at is null
     ${riskId === undefined ? '' : 'and risk_id = ?'}`,
    riskId === undefined ? [orgId] : [orgId, riskId],
  );
  return rows.map(toAcceptance);
}

/** Records an acceptance, withdrawing the one it replaces. */
export async function insertAcceptance(
  em: Em,
  acceptance: AcceptanceRow & { orgId: string },
  now: Date,
): Promise<void> {
  await withdrawAcceptances(em, acceptance.orgId, acceptance.riskId, now);
  await em.execute(
    `insert into risk_acceptances (acceptance_id, org_id, risk_id, accepted_by, accepted_at, expires_at,
       justification, state_hash) values (?, ?, ?, ?::jsonb, ?, ?, ?, ?)`,
    [
      acceptance.acceptanceId,
      acceptance.orgId,
      acceptance.riskId,
      JSON.stringify(acceptance.acceptedBy),
      acceptance.acceptedAt,
      acceptance.expiresAt,
      acceptance.justification,
      acceptance.stateHash,
    ],
  );
}

/** Withdraws the risk's acceptance in force; false when there was none. */
export async function withdrawAcceptances(
  em: Em,
  orgId: string,
  riskId: string,
  now: Date,
): Promise<boolean> {
  const rows = await em.execute(
    `update risk_acceptances set withdrawn_at = ? where org_id = ? and risk_id = ? and withdrawn_at is null
     returning acceptance_id`,
    [now, orgId, riskId],
  );
  return rows.length > 0;
}
