import { createHash, randomBytes } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict, resourceNotFound } from '../../platform/errors.js';
import type { Ready } from '../../platform/ready.js';
import { bodyInstant, parseInstant } from '../../platform/time.js';
import { effectiveStatus } from '../../records/score.js';
import type {
  AcceptanceState,
  RequirementStatus,
  RiskScoreLevel,
  RiskState,
} from '../../shared/vocabulary.js';
import { RISK_SCORE_LEVELS, RISK_STATES } from '../../shared/vocabulary.js';
import { analysisOf, type CachedAnalysis } from '../cte/analysis.service.js';
import {
  aboveAcceptable,
  checkLevels,
  DEFAULT_CRITERIA,
  type LevelBand,
  levelOf,
  type RiskCriteria,
  SCALE,
  scoreOf,
} from './risk-criteria.js';
import {
  type AcceptanceRow,
  deleteRisk,
  insertAcceptance,
  insertRisk,
  type RiskRow,
  type RiskSource,
  type RiskValues,
  selectAcceptances,
  selectCriteria,
  selectRisk,
  selectRiskBySource,
  selectRisks,
  type Treatment,
  updateRisk,
  upsertCriteria,
  withdrawAcceptances,
} from './risks.store.js';

export type { Treatment };

/** Resolves an AI system named by id or unique name to its id (null: no such system). */
export type ResolveSystem = (orgId: string, value: string) => Ready<string | null>;

export async function criteriaOf(em: Em, orgId: string): Promise<RiskCriteria & { custom: boolean }> {
  const stored = await selectCriteria(em, orgId);
  return stored ? { ...stored, custom: true } : { ...DEFAULT_CRITERIA, custom: false };
}

export const criteriaView = (orgId: string, criteria: RiskCriteria & { custom: boolean }) => ({
  orgId,
  likelihood: { ...SCALE },
  impact: { ...SCALE },
  levels: criteria.levels,
  acceptableLevel: criteria.acceptableLevel,
  custom: criteria.custom,
});

export async function setCriteria(
  em: Em,
  orgId: string,
  change: { levels?: LevelBand[]; acceptableLevel?: RiskScoreLevel },
): Promise<RiskCriteria & { custom: boolean }> {
  const current = await criteriaOf(em, orgId);
  const next = {
    levels: change.levels ?? current.levels,
    acceptableLevel: change.acceptableLevel ?? current.acceptableLevel,
  };
  checkLevels(next.levels);
  await upsertCriteria(em, orgId, next, new Date());
  return { ...next, custom: true };
}

export interface RequirementProgress {
  frameworkId: string;
  requirementId: string;
  status: RequirementStatus;
}

export interface AcceptanceView {
  acceptanceId: string;
  acceptedBy: { userId: string; email: string; name: string };
  acceptedAt: string;
  expiresAt: string;
  justification: string;
  stateHash: string;
  state: AcceptanceState;
}

export interface RiskView {
  riskId: string;
  title: string;
  description: string | null;
  systemIds: string[];
  category: string | null;
  owner: string | null;
  likelihood: number;
  impact: number;
  residualLikelihood: number;
  residualImpact: number;
  treatment: Treatment | null;
  reviewDate: string | null;
  inherent: { score: number; level: RiskScoreLevel };
  residual: { score: number; level: RiskScoreLevel };
  treatmentProgress: { implemented: number; total: number; requirements: RequirementProgress[] };
  treatmentOverdue: boolean;
  acceptance: AcceptanceView | null;
  state: RiskState;
  createdAt: string;
  updatedAt: string;
}

/**
 * What an acceptance vouches for: the risk's assessed fields. Any change to them after the acceptance makes it
 * stale (descriptive fields — title, owner, review date — do not).
 */
export function assessedStateHash(risk: RiskValues): string {
  const assessed = {
    likelihood: risk.likelihood,
    impact: risk.impact,
    residualLikelihood: risk.residualLikelihood ?? risk.likelihood,
    residualImpact: risk.residualImpact ?? risk.impact,
    treatment: risk.treatment,
    systemIds: [...risk.systemIds].sort(),
  };
  return createHash('sha256')
    .update(canonicalize(assessed) as string)
    .digest('hex');
}

function acceptanceState(acceptance: AcceptanceRow, currentHash: string, now: number): AcceptanceState {
  if (Date.parse(acceptance.expiresAt) <= now) return 'expired';
  return acceptance.stateHash === currentHash ? 'valid' : 'stale';
}

/**
 * The risk as the register shows it: its levels, the live status of each requirement its treatment lists
 * (the requirement's effective status, so a record of another framework counts through the crosswalk), and
 * its state, derived in this order: a valid acceptance → accepted; option `accept` → needs_acceptance; no
 * treatment → open; listed requirements not all implemented → treating; residual above the acceptable level
 * → needs_acceptance; else treated.
 */
export function assessRisk(
  row: RiskRow,
  criteria: RiskCriteria,
  acceptance: AcceptanceRow | undefined,
  analysis: CachedAnalysis,
  now = Date.now(),
): RiskView {
  const residualLikelihood = row.residualLikelihood ?? row.likelihood;
  const residualImpact = row.residualImpact ?? row.impact;
  const inherentScore = scoreOf(row.likelihood, row.impact);
  const residualScore = scoreOf(residualLikelihood, residualImpact);
  const residualLevel = levelOf(criteria, residualScore);
  const requirements = (row.treatment?.requirements ?? []).map(({ frameworkId, requirementId }) => {
    const coverage = analysis.coverage.get(frameworkId, requirementId);
    // A requirement of a framework removed since counts as not started.
    return {
      frameworkId,
      requirementId,
      status: coverage ? effectiveStatus(coverage) : ('not_started' as const),
    };
  });
  const implemented = requirements.filter((requirement) => requirement.status === 'implemented').length;
  const allImplemented = implemented === requirements.length;
  const dueDate = row.treatment?.dueDate;
  const treatmentOverdue = !allImplemented && dueDate !== undefined && Date.parse(dueDate) < now;
  const acceptanceView: AcceptanceView | null = acceptance
    ? {
        acceptanceId: acceptance.acceptanceId,
        acceptedBy: acceptance.acceptedBy,
        acceptedAt: acceptance.acceptedAt,
        expiresAt: acceptance.expiresAt,
        justification: acceptance.justification,
        stateHash: acceptance.stateHash,
        state: acceptanceState(acceptance, assessedStateHash(row), now),
      }
    : null;
  let state: RiskState;
  if (acceptanceView?.state === 'valid') state = 'accepted';
  else if (row.treatment?.option === 'accept') state = 'needs_acceptance';
  else if (!row.treatment) state = 'open';
  else if (!allImplemented) state = 'treating';
  else state = aboveAcceptable(criteria, residualLevel) ? 'needs_acceptance' : 'treated';
  return {
    riskId: row.riskId,
    title: row.title,
    description: row.description,
    systemIds: row.systemIds,
    category: row.category,
    owner: row.owner,
    likelihood: row.likelihood,
    impact: row.impact,
    residualLikelihood,
    residualImpact,
    treatment: row.treatment,
    reviewDate: row.reviewDate,
    inherent: { score: inherentScore, level: levelOf(criteria, inherentScore) },
    residual: { score: residualScore, level: residualLevel },
    treatmentProgress: { implemented, total: requirements.length, requirements },
    treatmentOverdue,
    acceptance: acceptanceView,
    state,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface Register {
  criteria: RiskCriteria;
  risks: RiskView[];
  /** Epoch ms at which a state changes by time alone (an acceptance expiring, a treatment falling due). */
  validUntil: number;
}

/** Every risk of the org, assessed (oldest first), over the org's analysis (read when not given). */
export async function registerOf(em: Em, orgId: string, analysis?: CachedAnalysis): Promise<Register> {
  const [criteria, rows, acceptances, assessed] = await Promise.all([
    criteriaOf(em, orgId),
    selectRisks(em, orgId),
    selectAcceptances(em, orgId),
    analysis ?? analysisOf(em, orgId),
  ]);
  const byRisk = new Map(acceptances.map((acceptance) => [acceptance.riskId, acceptance]));
  const now = Date.now();
  const boundaries = [
    ...acceptances.map((acceptance) => Date.parse(acceptance.expiresAt)),
    ...rows.map((row) => (row.treatment?.dueDate ? Date.parse(row.treatment.dueDate) : Number.NaN)),
  ].filter((at) => at > now);
  return {
    criteria,
    risks: rows.map((row) => assessRisk(row, criteria, byRisk.get(row.riskId), assessed, now)),
    validUntil: Math.min(Number.POSITIVE_INFINITY, ...boundaries),
  };
}

export interface RiskFilter {
  systemId?: string;
  level?: RiskScoreLevel;
  state?: RiskState;
  /** `<frameworkId>:<requirementId>` */
  requirement?: string;
}

export function filterRisks(risks: RiskView[], filter: RiskFilter): RiskView[] {
  const [frameworkId, ...rest] = filter.requirement?.split(':') ?? [];
  const requirementId = rest.join(':');
  return risks.filter(
    (risk) =>
      (filter.systemId === undefined || risk.systemIds.includes(filter.systemId)) &&
      (filter.level === undefined || risk.residual.level === filter.level) &&
      (filter.state === undefined || risk.state === filter.state) &&
      (filter.requirement === undefined ||
        (risk.treatment?.requirements ?? []).some(
          (requirement) =>
            requirement.frameworkId === frameworkId && requirement.requirementId === requirementId,
        )),
  );
}

export async function getRisk(em: Em, orgId: string, riskId: string): Promise<RiskView> {
  const [criteria, row, acceptances, analysis] = await Promise.all([
    criteriaOf(em, orgId),
    selectRisk(em, orgId, riskId),
    selectAcceptances(em, orgId, riskId),
    analysisOf(em, orgId),
  ]);
  if (!row) throw resourceNotFound('Risk', { riskId });
  return assessRisk(row, criteria, acceptances[0], analysis);
}

export interface RiskInput {
  title: string;
  description?: string | null;
  systemIds?: string[];
  category?: string | null;
  owner?: string | null;
  likelihood: number;
  impact: number;
  treatment?: Treatment | null;
  residualLikelihood?: number | null;
  residualImpact?: number | null;
  reviewDate?: string | null;
}

/**
 * Checks what a risk names: its AI systems (ids or unique names, resolved to ids) and its treatment's
 * requirements (any framework of the library); `400` naming every one that does not exist.
 */
async function resolveNames(
  em: Em,
  orgId: string,
  input: Pick<RiskInput, 'systemIds' | 'treatment'>,
  resolveSystem: ResolveSystem,
): Promise<{ systemIds: string[] }> {
  const systemIds: string[] = [];
  const unknownSystems: string[] = [];
  for (const value of input.systemIds ?? []) {
    const id = await resolveSystem(orgId, value);
    if (id === null) unknownSystems.push(value);
    else if (!systemIds.includes(id)) systemIds.push(id);
  }
  const { library } = await analysisOf(em, orgId);
  const unknownRequirements = (input.treatment?.requirements ?? []).filter(
    ({ frameworkId, requirementId }) => !library.requirement(frameworkId, requirementId),
  );
  if (unknownSystems.length || unknownRequirements.length) {
    const named = [
      ...unknownSystems.map((system) => `AI system "${system}"`),
      ...unknownRequirements.map((ref) => `requirement ${ref.frameworkId} ${ref.requirementId}`),
    ];
    throw badRequest(`Unknown ${named.join(', ')}`, {
      ...(unknownSystems.length ? { unknownSystems } : {}),
      ...(unknownRequirements.length ? { unknownRequirements } : {}),
    });
  }
  return { systemIds };
}

/** The input with its dates checked and normalized (`400` naming a date out of range). */
const withInstants = <T extends Partial<RiskInput>>(input: T): T => ({
  ...input,
  ...(input.reviewDate !== undefined ? { reviewDate: bodyInstant(input.reviewDate, 'body.reviewDate') } : {}),
  ...(input.treatment
    ? {
        treatment: {
          ...input.treatment,
          dueDate: bodyInstant(input.treatment.dueDate, 'body.treatment.dueDate'),
        },
      }
    : {}),
});

const valuesOf = (input: RiskInput, systemIds: string[]): RiskValues => ({
  title: input.title,
  description: input.description ?? null,
  category: input.category ?? null,
  owner: input.owner ?? null,
  systemIds,
  likelihood: input.likelihood,
  impact: input.impact,
  residualLikelihood: input.residualLikelihood ?? null,
  residualImpact: input.residualImpact ?? null,
  treatment: input.treatment ?? null,
  reviewDate: input.reviewDate ?? null,
});

export async function createRisk(
  em: Em,
  orgId: string,
  input: RiskInput,
  createdBy: string,
  resolveSystem: ResolveSystem,
  source?: RiskSource,
): Promise<RiskView> {
  input = withInstants(input);
  const { systemIds } = await resolveNames(em, orgId, input, resolveSystem);
  const riskId = `risk_${randomBytes(9).toString('base64url')}`;
  if (
    !(await insertRisk(em, { riskId, orgId, createdBy, source, ...valuesOf(input, systemIds) }, new Date()))
  ) {
    const existing = source && (await selectRiskBySource(em, orgId, source));
    throw conflict('This impact already raised a risk in the register', { riskId: existing });
  }
  return getRisk(em, orgId, riskId);
}

/** Replaces the given fields; fields left out keep their values (null clears an optional one). */
export async function changeRisk(
  em: Em,
  orgId: string,
  riskId: string,
  change: Partial<RiskInput>,
  resolveSystem: ResolveSystem,
): Promise<RiskView> {
  change = withInstants(change);
  // Names are resolved before the transaction: the AI-system directory reads on its own connection, which an
  // open transaction would keep waiting on the embedded database's single one.
  const resolved =
    change.systemIds !== undefined || change.treatment
      ? await resolveNames(
          em,
          orgId,
          { systemIds: change.systemIds ?? [], treatment: change.treatment ?? null },
          resolveSystem,
        )
      : null;
  await em.transactional(async (tx) => {
    const current = await selectRisk(tx, orgId, riskId, { forUpdate: true });
    if (!current) throw resourceNotFound('Risk', { riskId });
    const merged: RiskInput = { ...current, ...change } as RiskInput;
    const systemIds = change.systemIds !== undefined && resolved ? resolved.systemIds : current.systemIds;
    await updateRisk(tx, orgId, riskId, valuesOf(merged, systemIds), new Date());
  });
  return getRisk(em, orgId, riskId);
}

export async function removeRisk(em: Em, orgId: string, riskId: string): Promise<void> {
  if (!(await deleteRisk(em, orgId, riskId))) throw resourceNotFound('Risk', { riskId });
}

/**
 * Accepts the risk's residual risk as it stands now: bound to the hash of its assessed fields, until
 * `expiresAt`. Replaces an earlier acceptance.
 */
export async function acceptRisk(
  em: Em,
  orgId: string,
  riskId: string,
  input: { justification: string; expiresAt: string },
  acceptedBy: { userId: string; email: string; name: string },
): Promise<AcceptanceView> {
  if (parseInstant(input.expiresAt, 'body.expiresAt').getTime() <= Date.now()) {
    throw badRequest('expiresAt must be in the future', {
      fields: [{ field: 'body.expiresAt', message: 'in the past' }],
    });
  }
  return em.transactional(async (tx) => {
    const risk = await selectRisk(tx, orgId, riskId, { forUpdate: true });
    if (!risk) throw resourceNotFound('Risk', { riskId });
    const now = new Date();
    const acceptance: AcceptanceRow = {
      acceptanceId: `acc_${randomBytes(9).toString('base64url')}`,
      riskId,
      acceptedBy,
      acceptedAt: now.toISOString(),
      expiresAt: new Date(input.expiresAt).toISOString(),
      justification: input.justification,
      stateHash: assessedStateHash(risk),
    };
    await insertAcceptance(tx, { ...acceptance, orgId }, now);
    return { ...acceptance, state: 'valid' as const };
  });
}

export async function withdrawAcceptance(em: Em, orgId: string, riskId: string): Promise<void> {
  if (!(await selectRisk(em, orgId, riskId))) throw resourceNotFound('Risk', { riskId });
  if (!(await withdrawAcceptances(em, orgId, riskId, new Date()))) {
    throw resourceNotFound('Acceptance', { riskId });
  }
}

const emptyMatrix = () => Array.from({ length: SCALE.max }, () => Array<number>(SCALE.max).fill(0));

/** Counts by residual level and by state, the 5 × 5 matrices, overdue treatments and acceptances by state. */
export function summarize(orgId: string, risks: RiskView[]) {
  const byLevel = Object.fromEntries(RISK_SCORE_LEVELS.map((level) => [level, 0]));
  const byState = Object.fromEntries(RISK_STATES.map((state) => [state, 0]));
  const inherent = emptyMatrix();
  const residual = emptyMatrix();
  const acceptances = { valid: 0, stale: 0, expired: 0 };
  let overdueTreatments = 0;
  for (const risk of risks) {
    byLevel[risk.residual.level] += 1;
    byState[risk.state] += 1;
    inherent[risk.likelihood - 1][risk.impact - 1] += 1;
    residual[risk.residualLikelihood - 1][risk.residualImpact - 1] += 1;
    if (risk.treatmentOverdue) overdueTreatments += 1;
    if (risk.acceptance) acceptances[risk.acceptance.state] += 1;
  }
  return {
    orgId,
    counts: { byLevel, byState },
    matrix: { inherent, residual },
    overdueTreatments,
    acceptances,
  };
}
