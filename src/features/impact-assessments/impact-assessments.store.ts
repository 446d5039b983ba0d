/**
 * Impact assessments: the only module that reads or writes `impact_assessments`. Rows come back with ISO
 * timestamps and with the AI system as it is now (risk level, lifecycle stage, purpose, name), which the
 * service compares with the system as it was at approval.
 */
import { randomUUID } from 'node:crypto';
import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
import type {
  AnswerValue,
  ApproverSchema,
  AssessmentState,
  ImpactSchema,
} from './impact-assessments.schemas.js';

export type Answer = Static<typeof AnswerValue>;
export type Answers = Record<string, Answer>;
export type Impact = Static<typeof ImpactSchema>;
export type Approver = Static<typeof ApproverSchema>;
export interface ActorRef {
  type: string;
  id: string;
  name: string;
}
export interface SystemState {
  riskLevel: string;
  lifecycleStage: string;
  purpose: string;
}
export interface EvidenceRef {
  frameworkId: string;
  requirementId: string;
  evidenceId: string;
}

export interface AssessmentRow {
  assessmentId: string;
  orgId: string;
  systemId: string;
  templateId: string;
  templateVersion: number;
  version: number;
  state: AssessmentState;
  answers: Answers;
  impacts: Impact[];
  createdBy: ActorRef | null;
  submittedBy: ActorRef | null;
  submittedAt: string | null;
  approvedBy: Approver | null;
  approvedAt: string | null;
  reviewDue: string | null;
  contentHash: string | null;
  systemAtApproval: SystemState | null;
  evidence: EvidenceRef[];
  supersededBy: string | null;
  createdAt: string;
  updatedAt: string;
  /** The AI system as it is now. */
  system: SystemState & { name: string };
}

const COLUMNS = `a.assessment_id as "assessmentId", a.org_id as "orgId", a.system_id as "systemId",
  a.template_id as "templateId", a.template_version as "templateVersion", a.version, a.state, a.answers,
  a.impacts, a.created_by as "createdBy", a.submitted_by as "submittedBy", a.submitted_at as "submittedAt",
  a.approved_by as "approvedBy", a.approved_at as "approvedAt", a.review_due as "reviewDue",
  a.content_hash as "contentHash", a.system_at_approval as "systemAtApproval", a.evidence,
  a.superseded_by as "supersededBy", a.created_at as "createdAt", a.updated_at as "updatedAt",
  json_build_object('riskLevel', s.risk_level, 'lifecycleStage', s.lifecycle_stage, 'purpose', s.purpose,
    'name', s.name) as system`;

const FROM = 'impact_assessments a join ai_systems s on s.system_id = a.system_id';

/**
 * An approved assessment due for re-assessment, as SQL over `FROM` (the service states the same rule for
 * one row, with its reasons): the system's risk level, lifecycle stage or purpose differ from the snapshot
 * taken at approval, or the review date has passed (the parameter is now).
 */
const DUE = `(a.state = 'approved' and (a.review_due <= ?
  or s.risk_level is distinct from a.system_at_approval ->> 'riskLevel'
  or s.lifecycle_stage is distinct from a.system_at_approval ->> 'lifecycleStage'
  or s.purpose is distinct from a.system_at_approval ->> 'purpose'))`;

const toRow = (row: AssessmentRow): AssessmentRow => ({
  ...row,
  submittedAt: toIsoOrNull(row.submittedAt),
  approvedAt: toIsoOrNull(row.approvedAt),
  reviewDue: toIsoOrNull(row.reviewDue),
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

export interface NewAssessment {
  orgId: string;
  systemId: string;
  templateId: string;
  templateVersion: number;
  version: number;
  answers: Answers;
  impacts: Impact[];
  createdBy: ActorRef;
}

/** The new draft's id, or null when its line already has that version (a concurrent start or revision). */
export async function insertAssessment(em: Em, input: NewAssessment, now: Date): Promise<string | null> {
  const assessmentId = randomUUID();
  const rows = await em.execute<{ assessmentId: string }[]>(
    `insert into impact_assessments (assessment_id, org_id, system_id, template_id, template_version, version,
       state, answers, impacts, created_by, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, 'draft', ?::jsonb, ?::jsonb, ?::jsonb, ?, ?)
     on conflict do nothing returning assessment_id as "assessmentId"`,
    [
      assessmentId,
      input.orgId,
      input.systemId,
      input.templateId,
      input.templateVersion,
      input.version,
      json(input.answers),
      json(input.impacts),
      json(input.createdBy),
      now,
      now,
    ],
  );
  return rows.length ? assessmentId : null;
}

/** One assessment; `lock` holds its row until the transaction ends (for a change that checks its state). */
export async function selectAssessment(
  em: Em,
  orgId: string,
  assessmentId: string,
  options: { lock?: boolean } = {},
): Promise<AssessmentRow | null> {
  const [row] = await em.execute<AssessmentRow[]>(
    `select ${COLUMNS} from ${FROM} where a.org_id = ? and a.assessment_id = ?${options.lock ? ' for update of a' : ''}`,
    [orgId, assessmentId],
  );
  return row ? toRow(row) : null;
}

/** The newest version of a system's line of one template, if it has one. */
export async function selectLatestInLine(
  em: Em,
  orgId: string,
  systemId: string,
  templateId: string,
): Promise<{ assessmentId: string; version: number; state: AssessmentState } | null> {
  const [row] = await em.execute<{ assessmentId: string; version: number; state: AssessmentState }[]>(
    `select assessment_id as "assessmentId", version, state from impact_assessments
     where org_id = ? and system_id = ? and template_id = ? order by version desc limit 1`,
    [orgId, systemId, templateId],
  );
  return row ?? null;
}

/** A system's assessments, by template, newest version first. */
export async function selectSystemAssessments(
  em: Em,
  orgId: string,
  systemId: string,
): Promise<AssessmentRow[]> {
  const rows = await em.execute<AssessmentRow[]>(
    `select ${COLUMNS} from ${FROM} where a.org_id = ? and a.system_id = ? order by a.template_id, a.version desc`,
    [orgId, systemId],
  );
  return rows.map(toRow);
}

export interface AssessmentFilter {
  state?: AssessmentState;
  due?: boolean;
  systemId?: string;
  templateId?: string;
  limit: number;
  offset: number;
}

/** One page of the org's assessments, most recently changed first (ties broken by id), and the total. */
export async function selectAssessmentPage(
  em: Em,
  orgId: string,
  filter: AssessmentFilter,
  now: Date,
): Promise<{ total: number; assessments: AssessmentRow[] }> {
  const where = ['a.org_id = ?'];
  const params: unknown[] = [orgId];
  if (filter.state) {
    where.push('a.state = ?');
    params.push(filter.state);
  }
  if (filter.systemId) {
    where.push('a.system_id = ?');
    params.push(filter.systemId);
  }
  if (filter.templateId) {
    where.push('a.template_id = ?');
    params.push(filter.templateId);
  }
  if (filter.due !== undefined) {
    where.push(filter.due ? DUE : `not ${DUE}`);
    params.push(now);
  }
  const match = where.join(' and ');
  const [{ total }] = await em.execute<{ total: number }[]>(
    `select count(*)::int as total from ${FROM} where ${match}`,
    params,
  );
  const rows = await em.execute<AssessmentRow[]>(
    `select ${COLUMNS} from ${FROM} where ${match} order by a.updated_at desc, a.assessment_id desc limit ? offset ?`,
    [...params, filter.limit, filter.offset],
  );
  return { total, assessments: rows.map(toRow) };
}

/** Replaces a draft's answers and impacts. */
export async function updateDraftRow(
  tx: Em,
  assessmentId: string,
  content: { answers: Answers; impacts: Impact[] },
  now: Date,
): Promise<void> {
  await tx.execute(
    `update impact_assessments set answers = ?::jsonb, impacts = ?::jsonb, updated_at = ?
     where assessment_id = ? and state = 'draft'`,
    [json(content.answers), json(content.impacts), now, assessmentId],
  );
}

export async function markSubmitted(tx: Em, assessmentId: string, by: ActorRef, now: Date): Promise<void> {
  await tx.execute(
    `update impact_assessments set state = 'submitted', submitted_by = ?::jsonb, submitted_at = ?, updated_at = ?
     where assessment_id = ? and state = 'draft'`,
    [json(by), now, now, assessmentId],
  );
}

export interface Approval {
  approvedBy: Approver;
  approvedAt: Date;
  reviewDue: Date;
  contentHash: string;
  systemAtApproval: SystemState;
  evidence: EvidenceRef[];
}

export async function markApproved(tx: Em, assessmentId: string, approval: Approval): Promise<void> {
  await tx.execute(
    `update impact_assessments set state = 'approved', approved_by = ?::jsonb, approved_at = ?, review_due = ?,
       content_hash = ?, system_at_approval = ?::jsonb, evidence = ?::jsonb, updated_at = ?
     where assessment_id = ? and state = 'submitted'`,
    [
      json(approval.approvedBy),
      approval.approvedAt,
      approval.reviewDue,
      approval.contentHash,
      json(approval.systemAtApproval),
      json(approval.evidence),
      approval.approvedAt,
      assessmentId,
    ],
  );
}

/** The approved versions of a line older than `version` become superseded by `by`. */
export async function supersedeOlder(
  tx: Em,
  line: { orgId: string; systemId: string; templateId: string },
  version: number,
  by: string,
  now: Date,
): Promise<void> {
  await tx.execute(
    `update impact_assessments set state = 'superseded', superseded_by = ?, updated_at = ?
     where org_id = ? and system_id = ? and template_id = ? and version < ? and state = 'approved'`,
    [by, now, line.orgId, line.systemId, line.templateId, version],
  );
}
