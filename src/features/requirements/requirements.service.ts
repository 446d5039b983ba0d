/**
 * Assessments of every framework: an organization's requirement records read together with what the
 * crosswalk infers for them, and the effective status of every requirement (records/score.ts states the
 * rule). Records are read and written through the records store; inference comes from the CTE's cached
 * analysis of the org (`graph.ts` defines the rule). Scores and history live in features/scores.
 */

import type { Em } from '../../platform/db/database.js';
import { conflict, resourceNotFound } from '../../platform/errors.js';
import {
  type ChangeAuthor,
  type Judgement,
  type RecordKey,
  type RecordView,
  type RequirementCap,
  readCaps,
  readRecordViews,
  writeJudgement,
} from '../../records/records.store.js';
import { effectiveStatus, INFERRED_STATUS } from '../../records/score.js';
import {
  type AssessmentSource,
  type CoverageStatus,
  ISO_42001,
  type RequirementStatus,
} from '../../shared/vocabulary.js';
import { analysisOf, type CachedAnalysis, justificationView } from '../cte/analysis.service.js';
import type { Requirement } from '../cte/framework.types.js';
import type { RequirementCoverage } from '../cte/graph.js';
import type { FrameworkLibrary } from '../cte/library.js';
import { currentLibrary, requireFramework } from '../cte/library.service.js';

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
  findings?: { findingId: string; kind: string; state: string }[];
}

/** The open major nonconformities on a requirement, as its entry lists them. */
const findingsOf = (caps: RequirementCap[]) =>
  caps.map((cap) => ({ findingId: cap.findingId, kind: 'major_nonconformity', state: 'open' }));

function entryOf(
  requirement: Requirement,
  row: RequirementCoverage,
  record: RecordView | undefined,
  detail: boolean,
  caps: RequirementCap[] = [],
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
    ...(caps.length ? { findings: findingsOf(caps) } : {}),
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
  const capsById = new Map<string, RequirementCap[]>();
  for (const cap of await readCaps(em, orgId)) {
    if (cap.frameworkId === frameworkId)
      capsById.set(cap.requirementId, [...(capsById.get(cap.requirementId) ?? []), cap]);
  }
  const rows = analysis.coverage.forFramework(frameworkId);
  const requirements = framework.requirements
    .map((requirement, index) =>
      entryOf(requirement, rows[index], byId.get(requirement.id), false, capsById.get(requirement.id)),
    )
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
  const caps = await readCaps(em, orgId, { frameworkId, requirementId });
  return entryOf(requirement, row, records[0], true, caps);
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
