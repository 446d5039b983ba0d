/**
 * Assessments of every framework: an organization's requirement records read together with what the
 * crosswalk infers for them, the effective status of every requirement, and scores and history per
 * framework. Records are read and written through the requirements store; inference comes from the CTE's
 * cached analysis of the org (`graph.ts` defines the rule).
 *
 * Effective status: the direct record's status when there is one (`assessment: direct`), else the
 * inferred one — covered → implemented, partial → in_progress (`inferred`) — else not started (`none`).
 * Scores use the compliance formula over applicable requirements and effective statuses.
 */

import type { Em } from '../../platform/db/database.js';
import { conflict, resourceNotFound } from '../../platform/errors.js';
import {
  type ChangeAuthor,
  type Judgement,
  type RecordKey,
  type RecordView,
  readRecordViews,
  readStatesAndChanges,
  writeJudgement,
} from '../../records/records.store.js';
import { type ScoreCounts, scoreOf } from '../../records/score.js';
import { atBounds } from '../../records/state-log.js';
import {
  ASSESSMENT_SOURCES,
  type AssessmentSource,
  ISO_42001,
  type RequirementStatus,
} from '../../shared/vocabulary.js';
import { type HistoryQuery, NO_COUNTS, resolveRange } from '../compliance/history.service.js';
import { orgCreatedAt } from '../compliance/rollup.service.js';
import { analysisOf, type CachedAnalysis, hopView } from '../cte/analysis.service.js';
import type { Framework, Requirement } from '../cte/framework.types.js';
import {
  type CoverageResult,
  type CoverageStatus,
  type DirectRecords,
  type OrgControlState,
  propagateRecords,
  type RequirementCoverage,
} from '../cte/graph.js';
import type { FrameworkLibrary } from '../cte/library.js';
import { currentLibrary, requireFramework } from '../cte/library.service.js';

const INFERRED_STATUS: Record<CoverageStatus, RequirementStatus> = {
  covered: 'implemented',
  partial: 'in_progress',
  uncovered: 'not_started',
};

export interface RequirementEntry {
  requirementId: string;
  title: string;
  domain?: string;
  status: RequirementStatus;
  applicable: boolean;
  justification: string | null;
  reviewer: string | null;
  owner: string | null;
  note: string | null;
  updatedAt: string | null;
  assessment: AssessmentSource;
  inferred: {
    status: RequirementStatus;
    coverage: CoverageStatus;
    from: { frameworkId: string; requirementId: string }[];
    justifications?: ReturnType<typeof justificationView>[];
  };
  evidenceCount: number;
  evidenceExpired: boolean;
  evidence: RecordView['evidence'];
}

function justificationView(justification: RequirementCoverage['justifications'][number]) {
  return {
    frameworkId: justification.frameworkId,
    controlId: justification.controlId,
    controlStatus: justification.controlStatus,
    ...(justification.evidenceExpired ? { evidenceExpired: true as const } : {}),
    credit: justification.credit,
    strength: justification.strength,
    path: justification.path.map(hopView),
  };
}

/** The status a requirement counts with in scores: the record's, else the inferred one. */
function effectiveStatus(row: RequirementCoverage): RequirementStatus {
  return row.assessment === 'direct' ? (row.orgStatus ?? 'not_started') : INFERRED_STATUS[row.status];
}

function entryOf(
  requirement: Requirement,
  row: RequirementCoverage,
  record: RecordView | undefined,
  detail: boolean,
): RequirementEntry {
  const from = new Map<string, { frameworkId: string; requirementId: string }>();
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
export function requireRequirement(library: FrameworkLibrary, frameworkId: string, requirementId: string) {
  const framework = requireFramework(library, frameworkId);
  const requirement = library.requirement(frameworkId, requirementId);
  if (!requirement) throw resourceNotFound('Requirement', { frameworkId, requirementId });
  return { framework, requirement };
}

export interface RequirementFilter {
  status?: RequirementStatus;
  applicable?: boolean;
  assessment?: AssessmentSource;
}

/** Every requirement of a framework with the org's record, the inference and the effective status. */
export async function listRequirements(
  em: Em,
  orgId: string,
  frameworkId: string,
  filter: RequirementFilter = {},
): Promise<{ requirements: RequirementEntry[]; validUntil: number }> {
  return requirementsOf(em, await analysisOf(em, orgId), frameworkId, filter);
}

/** As `listRequirements`, over an analysis the caller already holds. */
export async function requirementsOf(
  em: Em,
  analysis: CachedAnalysis,
  frameworkId: string,
  filter: RequirementFilter = {},
): Promise<{ requirements: RequirementEntry[]; validUntil: number }> {
  const { orgId } = analysis;
  const framework = requireFramework(analysis.library, frameworkId);
  const { records, validUntil } = await readRecordViews(em, orgId, frameworkId);
  const byId = new Map(records.map((record) => [record.requirementId, record]));
  const rows = analysis.coverage.forFramework(frameworkId);
  const requirements = framework.requirements
    .map((requirement, index) => entryOf(requirement, rows[index], byId.get(requirement.id), false))
    .filter(
      (entry) =>
        (filter.status === undefined || entry.status === filter.status) &&
        (filter.applicable === undefined || entry.applicable === filter.applicable) &&
        (filter.assessment === undefined || entry.assessment === filter.assessment),
    );
  return { requirements, validUntil };
}

/** One requirement, with the crosswalk's full reasoning. */
export async function getRequirement(
  em: Em,
  orgId: string,
  frameworkId: string,
  requirementId: string,
): Promise<RequirementEntry> {
  const analysis = await analysisOf(em, orgId);
  const { requirement } = requireRequirement(analysis.library, frameworkId, requirementId);
  const row = analysis.coverage.get(frameworkId, requirementId) as RequirementCoverage;
  const { records } = await readRecordViews(em, orgId, frameworkId, { requirementId });
  return entryOf(requirement, row, records[0], true);
}

async function judge(
  em: Em,
  key: RecordKey,
  judgement: Judgement,
  author: ChangeAuthor,
  check?: (current: { status: RequirementStatus | null } | undefined) => void,
  options?: { create: boolean },
): Promise<RequirementEntry> {
  const { library } = await currentLibrary(em);
  requireRequirement(library, key.frameworkId, key.requirementId);
  await writeJudgement(em, key, judgement, author, check, options);
  return getRequirement(em, key.orgId, key.frameworkId, key.requirementId);
}

export function setRequirementStatus(
  em: Em,
  key: RecordKey,
  input: { status: RequirementStatus; reviewer: string; note?: string; owner?: string; keyId: string | null },
): Promise<RequirementEntry> {
  return judge(
    em,
    key,
    { status: input.status, reviewer: input.reviewer, owner: input.owner, note: input.note },
    { actor: input.reviewer, keyId: input.keyId, note: input.note },
  );
}

export function setRequirementApplicability(
  em: Em,
  key: RecordKey,
  input: { applicable: boolean; justification: string; reviewer: string; keyId: string | null },
): Promise<RequirementEntry> {
  return judge(
    em,
    key,
    { applicable: input.applicable, justification: input.justification, reviewer: input.reviewer },
    { actor: input.reviewer, keyId: input.keyId, note: input.justification },
  );
}

/**
 * Withdraws the direct status and applicability: the requirement falls back to what the crosswalk infers.
 * Evidence, owner and note stay. ISO/IEC 42001 controls always keep their record (`409`).
 */
export async function withdrawAssessment(
  em: Em,
  key: RecordKey,
  input: { actor: string; keyId: string | null },
): Promise<RequirementEntry> {
  return withdrawKnown(em, key, input);
}

async function withdrawKnown(
  em: Em,
  key: RecordKey,
  input: { actor: string; keyId: string | null },
): Promise<RequirementEntry> {
  requireRequirement((await currentLibrary(em)).library, key.frameworkId, key.requirementId);
  if (key.frameworkId === ISO_42001) {
    throw conflict('ISO/IEC 42001 controls always keep their record: set a status or applicability instead', {
      frameworkId: key.frameworkId,
      requirementId: key.requirementId,
    });
  }
  return judge(
    em,
    key,
    { status: null, applicable: null, justification: null, reviewer: null },
    { actor: input.actor, keyId: input.keyId, note: 'assessment withdrawn' },
    undefined,
    { create: false },
  );
}

export interface FrameworkScore {
  score: number | null;
  counts: ScoreCounts;
  assessed: Record<AssessmentSource, number>;
  directScore: number | null;
}

/** Score, counts and how much rests on inference, over the given rows of one framework. */
function scoreRows(rows: readonly RequirementCoverage[]): FrameworkScore {
  const counts: ScoreCounts = { implemented: 0, inProgress: 0, notStarted: 0, notApplicable: 0 };
  const direct: ScoreCounts = { ...counts };
  const assessed = Object.fromEntries(ASSESSMENT_SOURCES.map((source) => [source, 0])) as Record<
    AssessmentSource,
    number
  >;
  const add = (target: ScoreCounts, status: RequirementStatus) => {
    if (status === 'implemented') target.implemented += 1;
    else if (status === 'in_progress') target.inProgress += 1;
    else target.notStarted += 1;
  };
  for (const row of rows) {
    if (!row.applicable) {
      counts.notApplicable += 1;
      direct.notApplicable += 1;
      continue;
    }
    assessed[row.assessment] += 1;
    add(counts, effectiveStatus(row));
    add(direct, row.assessment === 'direct' ? effectiveStatus(row) : 'not_started');
  }
  return { score: scoreOf(counts), counts, assessed, directScore: scoreOf(direct) };
}

function domainScores(framework: Framework, rows: readonly RequirementCoverage[]) {
  const titles = new Map((framework.domains ?? []).map((domain) => [domain.id, domain.title]));
  const byDomain = new Map<string, RequirementCoverage[]>();
  framework.requirements.forEach((requirement, index) => {
    if (!requirement.domain) return;
    const list = byDomain.get(requirement.domain) ?? [];
    list.push(rows[index]);
    byDomain.set(requirement.domain, list);
  });
  return [...byDomain].map(([domain, domainRows]) => {
    const { score, counts } = scoreRows(domainRows);
    return {
      domain,
      domainTitle: titles.get(domain) ?? domain,
      score,
      controlCount: domainRows.length,
      counts,
    };
  });
}

/** The current score of one framework for the org, overall and per domain. */
export async function frameworkCompliance(em: Em, orgId: string, frameworkId: string, now = new Date()) {
  return frameworkComplianceOf(await analysisOf(em, orgId), frameworkId, now);
}

/** As `frameworkCompliance`, over an analysis the caller already holds. */
export function frameworkComplianceOf(analysis: CachedAnalysis, frameworkId: string, now = new Date()) {
  const { orgId } = analysis;
  const framework = requireFramework(analysis.library, frameworkId);
  const rows = analysis.coverage.forFramework(frameworkId);
  return {
    orgId,
    frameworkId,
    ...scoreRows(rows),
    byDomain: domainScores(framework, rows),
    computedAt: now.toISOString(),
  };
}

/** Every framework of the library with the org's score and CTE coverage of it. */
export function orgFrameworksOf(analysis: CachedAnalysis) {
  return {
    orgId: analysis.orgId,
    frameworks: analysis.library.frameworks.map((framework) => {
      const rows = analysis.coverage.forFramework(framework.id);
      const applicable = rows.filter((row) => row.applicable);
      const covered = applicable.filter((row) => row.status === 'covered').length;
      const partial = applicable.filter((row) => row.status === 'partial').length;
      return {
        frameworkId: framework.id,
        name: framework.name,
        controlCount: framework.requirements.length,
        ...scoreRows(rows),
        coverage:
          applicable.length === 0
            ? null
            : Math.round(((covered + 0.5 * partial) / applicable.length) * 10_000) / 10_000,
      };
    }),
  };
}

/** The direct records a set of logged states amounts to, as propagation reads them. */
function directRecordsOf(
  states: Map<string, { status: RequirementStatus | null; applicable: boolean | null }>,
) {
  const records = new Map<string, Map<string, OrgControlState>>();
  for (const [key, state] of states) {
    if (state.status === null && state.applicable !== false) continue;
    const separator = key.indexOf('\u001f');
    const frameworkId = key.slice(0, separator);
    const framework = records.get(frameworkId) ?? new Map<string, OrgControlState>();
    framework.set(key.slice(separator + 1), {
      status: state.status ?? 'not_started',
      applicable: state.applicable ?? true,
      ...(state.status === null ? { statusRecorded: false as const } : {}),
    });
    records.set(frameworkId, framework);
  }
  return records as DirectRecords;
}

/**
 * History of one framework other than ISO/IEC 42001 (whose history reads daily roll-ups): the state at the
 * end of each period, rebuilt exactly from the change log of every framework (inference depends on all of
 * them) and propagated over the current library. Each distinct state is propagated once.
 */
export async function frameworkHistory(
  em: Em,
  orgId: string,
  frameworkId: string,
  query: HistoryQuery,
  now = new Date(),
) {
  const { library } = await currentLibrary(em);
  requireFramework(library, frameworkId);
  const { interval, from, to, periods } = resolveRange(query, now);
  const createdAt = await orgCreatedAt(em, orgId);
  if (!createdAt) throw resourceNotFound('Organization', { orgId });
  const bounds = periods.map((period) =>
    period.end.getTime() <= now.getTime() ? period.end.getTime() : Number.POSITIVE_INFINITY,
  );
  const { states, changes } = await readStatesAndChanges(em, orgId, createdAt);
  const current = new Map(
    states.map((state) => [
      `${state.frameworkId}\u001f${state.requirementId}`,
      { status: state.status, applicable: state.applicable },
    ]),
  );
  const byPosition = new Map<number, FrameworkScore>();
  const measured = atBounds(current, changes, bounds, (atBound, unwound) => {
    let result = byPosition.get(unwound);
    if (!result) {
      const coverage: CoverageResult = propagateRecords(library, directRecordsOf(atBound));
      result = scoreRows(coverage.forFramework(frameworkId));
      byPosition.set(unwound, result);
    }
    return result;
  });
  // The current point is the live score, which also counts implemented records whose evidence has all
  // expired as in progress; finished periods count recorded statuses, as the ISO 42001 history does.
  const live = bounds.some((bound) => !Number.isFinite(bound))
    ? scoreRows((await analysisOf(em, orgId)).coverage.forFramework(frameworkId))
    : undefined;
  const points = periods.map((period, index) => {
    const bound = bounds[index];
    const existed = bound > createdAt.getTime();
    const result = !existed ? undefined : Number.isFinite(bound) ? measured.get(bound) : live;
    const counts = result?.counts ?? NO_COUNTS;
    return {
      periodStart: period.start.toISOString(),
      periodEnd: period.end.toISOString(),
      asOf: (Number.isFinite(bound) ? period.end : now).toISOString(),
      score: result ? result.score : null,
      counts: { ...counts },
    };
  });
  return { orgId, interval, from: from.toISOString(), to: to.toISOString(), points };
}
