/**
 * The score rule and the effective-status rule, once for every framework and every view: the ISO/IEC 42001
 * routes, the framework routes, history, snapshots and exports all count through these functions.
 *
 * Effective status: the direct record's status when there is one (`assessment: direct`), else what the
 * crosswalk infers — covered → implemented, partial → in_progress — else not started.
 * Score: 100 × (implemented + 0.5 × in_progress) / applicable, one decimal; null when nothing applies.
 */
import {
  ASSESSMENT_SOURCES,
  type AssessmentSource,
  type CoverageStatus,
  type RequirementStatus,
} from '../shared/vocabulary.js';

/** A requirement's status and applicability; null (not judged) counts as not started and applicable. */
export interface ControlState {
  status: RequirementStatus | null;
  applicable: boolean | null;
}

export interface ScoreCounts {
  implemented: number;
  inProgress: number;
  notStarted: number;
  notApplicable: number;
}

export const NO_COUNTS: Readonly<ScoreCounts> = {
  implemented: 0,
  inProgress: 0,
  notStarted: 0,
  notApplicable: 0,
};

/** The status inference gives a requirement, by what the crosswalk gives it. */
export const INFERRED_STATUS: Record<CoverageStatus, RequirementStatus> = {
  covered: 'implemented',
  partial: 'in_progress',
  uncovered: 'not_started',
};

/** What the crosswalk analysis knows of one requirement, as far as its effective status depends on it. */
export interface AssessedRequirement {
  assessment: AssessmentSource;
  /** The direct record's status, when it recorded one. */
  orgStatus?: RequirementStatus;
  /** What the record and the crosswalk give together. */
  status: CoverageStatus;
  applicable: boolean;
}

/**
 * The nonconformity rule: while a major nonconformity is open on a requirement, the requirement counts at most
 * as in progress — in scores, gaps and coverage alike. Direct records are capped where they are read
 * (`requirement_records` through the records store's view); a requirement whose status is inferred is capped
 * after propagation with this, so that both read the same rule.
 */
export function capStatus(status: CoverageStatus): CoverageStatus {
  return status === 'covered' ? 'partial' : status;
}

/** The status a requirement counts with in scores: the record's, else the inferred one. */
export function effectiveStatus(row: AssessedRequirement): RequirementStatus {
  return row.assessment === 'direct' ? (row.orgStatus ?? 'not_started') : INFERRED_STATUS[row.status];
}

export function scoreOf(counts: ScoreCounts): number | null {
  const applicable = counts.implemented + counts.inProgress + counts.notStarted;
  if (applicable === 0) return null;
  return Math.round((1000 * (counts.implemented + 0.5 * counts.inProgress)) / applicable) / 10;
}

export function countStates(states: Iterable<ControlState>): ScoreCounts {
  const counts: ScoreCounts = { ...NO_COUNTS };
  for (const state of states) {
    if (state.applicable === false) counts.notApplicable += 1;
    else if (state.status === 'implemented') counts.implemented += 1;
    else if (state.status === 'in_progress') counts.inProgress += 1;
    else counts.notStarted += 1;
  }
  return counts;
}

export interface FrameworkScore {
  score: number | null;
  counts: ScoreCounts;
  /** How many applicable requirements rest on a record, on inference, or on neither. */
  assessed: Record<AssessmentSource, number>;
  /** The score the direct records alone give (inferred requirements count as not started). */
  directScore: number | null;
}

/** Score, counts and how much rests on inference, over the analysed requirements of one framework. */
export function scoreAssessed(rows: readonly AssessedRequirement[]): FrameworkScore {
  const assessed = Object.fromEntries(ASSESSMENT_SOURCES.map((source) => [source, 0])) as Record<
    AssessmentSource,
    number
  >;
  for (const row of rows) if (row.applicable) assessed[row.assessment] += 1;
  const counts = countStates(
    rows.map((row) => ({ status: effectiveStatus(row), applicable: row.applicable })),
  );
  const direct = countStates(
    rows.map((row) => ({
      status: row.assessment === 'direct' ? effectiveStatus(row) : 'not_started',
      applicable: row.applicable,
    })),
  );
  return { score: scoreOf(counts), counts, assessed, directScore: scoreOf(direct) };
}

export interface DomainScore {
  domain: string;
  domainTitle: string;
  score: number | null;
  controlCount: number;
  counts: ScoreCounts;
}

/**
 * Scores per domain, in the order domains first appear among `states` (library order when the states come
 * in it). Titles come from `domains`; a domain the framework does not describe is titled by its id.
 */
export function scoreByDomain(
  domains: readonly { id: string; title: string }[] | undefined,
  states: readonly (ControlState & { domain?: string })[],
): DomainScore[] {
  const titles = new Map((domains ?? []).map((domain) => [domain.id, domain.title]));
  const byDomain = new Map<string, ControlState[]>();
  for (const state of states) {
    if (!state.domain) continue;
    const list = byDomain.get(state.domain) ?? [];
    list.push(state);
    byDomain.set(state.domain, list);
  }
  return [...byDomain].map(([domain, domainStates]) => {
    const counts = countStates(domainStates);
    return {
      domain,
      domainTitle: titles.get(domain) ?? domain,
      score: scoreOf(counts),
      controlCount: domainStates.length,
      counts,
    };
  });
}
