/**
 * Gaps and coverage for one organization. The propagated coverage and each gap report are cached per org
 * under a key made of the library revision and the org's state fingerprint (both read on every request),
 * so any change of a control, of evidence expiry or of an AI system's risk level is seen at once, by
 * every daemon instance, without invalidation messages.
 */

import { LruCache } from '../../platform/cache/lru-cache.js';
import { type Em, perDatabase } from '../../platform/db/database.js';
import { resourceNotFound } from '../../platform/errors.js';
import { capStatus } from '../../records/score.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { type CoverageReport, coverageFraction, coverageReport } from './coverage.js';
import type { GapInclude } from './cte.schemas.js';
import { computeGaps, type GapReport } from './gaps.js';
import {
  type CoverageResult,
  describeHop,
  propagateRecords,
  type ReachingControl,
  type RequirementCoverage,
  reachingControls,
  uncoveredByExclusion,
} from './graph.js';
import type { FrameworkLibrary } from './library.js';
import { type CurrentLibrary, currentLibrary, requireFramework } from './library.service.js';
import { loadOrgState, type OrgState } from './org-state.service.js';

export interface GapOptions {
  include?: GapInclude;
}

export interface OrgAnalysis {
  orgId: string;
  library: FrameworkLibrary;
  state: OrgState;
  coverage: CoverageResult;
}

export interface CachedAnalysis extends OrgAnalysis {
  key: string;
  gaps: Map<string, GapReport>;
  report?: CoverageReport;
}

/** About 1 MB per org with a large imported catalog; a miss costs one propagation (a few ms). */
const ORG_CACHE_SIZE = 64;
/** Each database's orgs' analyses, the most recently used kept. */
const analysesOf = perDatabase('org-analyses', () => new LruCache<string, CachedAnalysis>(ORG_CACHE_SIZE));

/**
 * Applies the nonconformity rule (`capStatus`) to capped requirements whose status the crosswalk infers; a
 * capped direct record is already read capped.
 */
function capInferred(coverage: CoverageResult, caps: ReadonlySet<string>): CoverageResult {
  for (const key of caps) {
    const [frameworkId, requirementId] = key.split('\u001f');
    const row = coverage.get(frameworkId, requirementId);
    if (row && row.assessment !== 'direct') row.status = capStatus(row.status);
  }
  return coverage;
}

/** The org's analysis: its records propagated over the current library (cached under both). */
export async function analysisOf(em: Em, orgId: string): Promise<CachedAnalysis> {
  const { library, revision }: CurrentLibrary = await currentLibrary(em);
  const state = await loadOrgState(em, orgId);
  const key = `${revision}|${state.fingerprint}`;
  const analyses = analysesOf(em);
  const cached = analyses.get(orgId);
  if (cached?.key === key) return cached;
  const analysis: CachedAnalysis = {
    orgId,
    library,
    state,
    coverage: capInferred(propagateRecords(library, state.records), state.caps),
    key,
    gaps: new Map(),
  };
  analyses.set(orgId, analysis);
  return analysis;
}

/** `{frameworkId, gaps, summary}` of one framework for the org. */
export async function orgGaps(
  em: Em,
  orgId: string,
  frameworkId: string,
  options: GapOptions = {},
): Promise<GapReport> {
  return gapsOf(await analysisOf(em, orgId), frameworkId, options);
}

/**
 * The gap report with the spec's four members per gap, or with `assessment` too when asked for; each
 * variant is cached under its own key.
 */
export function gapsOf(analysis: CachedAnalysis, frameworkId: string, options: GapOptions = {}): GapReport {
  const { orgId } = analysis;
  requireFramework(analysis.library, frameworkId);
  const key = options.include ? `${frameworkId}?include=${options.include}` : frameworkId;
  let report = analysis.gaps.get(key);
  if (!report) {
    report = computeGaps(analysis.library, analysis.coverage, frameworkId, {
      aiSystemRiskLevels: analysis.state.aiSystemRiskLevels,
      orgId,
      includeAssessment: options.include === 'assessment',
    });
    analysis.gaps.set(key, report);
  }
  return report;
}

export interface OrgCoverage extends CoverageReport {
  orgId: string;
  baseFrameworkId: string;
}

/** Coverage of every framework for the org, and the org-independent pairwise matrix. */
export async function orgCoverage(em: Em, orgId: string): Promise<OrgCoverage> {
  return coverageOf(await analysisOf(em, orgId));
}

export function coverageOf(analysis: CachedAnalysis): OrgCoverage {
  analysis.report ??= coverageReport(analysis.library, analysis.coverage);
  return { orgId: analysis.orgId, baseFrameworkId: analysis.coverage.baseFrameworkId, ...analysis.report };
}

export interface RequirementCoverageView {
  requirementId: string;
  title: string;
  status: RequirementCoverage['status'];
  strength: number;
  applicable: boolean;
  orgStatus?: RequirementCoverage['orgStatus'];
  evidenceExpired?: true;
  /** Base controls whose status gives the result, strongest first. */
  coveredBy: string[];
  joint?: RequirementCoverage['joint'];
}

/** One framework's coverage for the org, requirement by requirement. */
export async function orgFrameworkCoverage(em: Em, orgId: string, frameworkId: string) {
  return frameworkCoverageOf(await analysisOf(em, orgId), frameworkId);
}

export function frameworkCoverageOf(analysis: CachedAnalysis, frameworkId: string) {
  const { orgId } = analysis;
  const framework = requireFramework(analysis.library, frameworkId);
  const rows = analysis.coverage.forFramework(frameworkId);
  const counts = { covered: 0, partial: 0, uncovered: 0 };
  let excluded = 0;
  for (const row of rows) {
    if (!row.applicable) continue;
    counts[row.status] += 1;
    if (uncoveredByExclusion(row)) excluded += 1;
  }
  const total = counts.covered + counts.partial + counts.uncovered;
  const requirements: RequirementCoverageView[] = rows.map((row, index) => ({
    requirementId: row.requirementId,
    title: framework.requirements[index].title,
    status: row.status,
    strength: row.strength,
    applicable: row.applicable,
    ...(row.orgStatus ? { orgStatus: row.orgStatus } : {}),
    ...(row.evidenceExpired ? { evidenceExpired: true as const } : {}),
    coveredBy: [...new Set(row.justifications.map((justification) => justification.controlId))],
    ...(row.joint ? { joint: row.joint } : {}),
  }));
  return {
    orgId,
    frameworkId,
    total,
    ...counts,
    coverage: coverageFraction(counts.covered, counts.partial, total),
    notApplicable: rows.length - total,
    excluded,
    requirements,
  };
}

/** A justification as the API shows it: its path in hop views, `evidenceExpired` only when true. */
export function justificationView(justification: RequirementCoverage['justifications'][number]) {
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

export function hopView(hop: ReachingControl['path'][number]) {
  return {
    from: hop.from,
    to: hop.to,
    relationship: hop.relationship,
    direction: hop.direction,
    credit: hop.credit,
    origin: hop.origin,
    inferred: hop.inferred,
    edgeId: hop.edgeId,
    text: describeHop(hop),
  };
}

/**
 * Why a requirement has its status: the org's controls that reach it and through which crosswalk edges,
 * and the base controls that could cover it (what to implement next).
 */
export async function explainRequirement(em: Em, orgId: string, frameworkId: string, requirementId: string) {
  const analysis = await analysisOf(em, orgId);
  requireFramework(analysis.library, frameworkId);
  const requirement = analysis.library.requirement(frameworkId, requirementId);
  const row = analysis.coverage.get(frameworkId, requirementId);
  if (!requirement || !row) throw resourceNotFound('Requirement', { frameworkId, requirementId });
  const candidates =
    frameworkId === ISO_42001
      ? []
      : reachingControls(analysis.library, { frameworkId, requirementId }, analysis.coverage.options);
  return {
    orgId,
    frameworkId,
    requirementId,
    title: requirement.title,
    status: row.status,
    strength: row.strength,
    applicable: row.applicable,
    ...(row.orgStatus ? { orgStatus: row.orgStatus } : {}),
    ...(row.evidenceExpired ? { evidenceExpired: true as const } : {}),
    justifications: row.justifications.map(justificationView),
    ...(row.joint ? { joint: row.joint } : {}),
    candidates: candidates.map((candidate) => ({
      controlId: candidate.controlId,
      title: analysis.library.requirement(ISO_42001, candidate.controlId)?.title ?? '',
      orgStatus: analysis.coverage.get(ISO_42001, candidate.controlId)?.orgStatus ?? 'not_started',
      strength: candidate.strength,
      credit: candidate.credit,
      path: candidate.path.map(hopView),
    })),
  };
}
