/**
 * Internal audits and their findings: the only module that reads or writes `internal_audits`, `findings` and
 * `finding_checks`. (The caps an open major nonconformity puts on requirements are the records tier's.)
 */
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
import { textArray } from '../../platform/db/sql.js';
import type { FindingKind } from '../../shared/vocabulary.js';

export type AuditState = 'planned' | 'in_progress' | 'completed';

export interface AuditRow {
  auditId: string;
  orgId: string;
  title: string;
  frameworkIds: string[];
  criteria: string | null;
  leadAuditor: string;
  plannedStart: string;
  plannedEnd: string;
  state: AuditState;
  conclusion: string | null;
  startedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RequirementRef {
  frameworkId: string;
  requirementId: string;
}

export interface FindingRow {
  findingId: string;
  orgId: string;
  auditId: string;
  kind: FindingKind;
  requirements: RequirementRef[];
  description: string;
  owner: string | null;
  dueDate: string | null;
  rootCause: string | null;
  correctiveAction: string | null;
  state: 'open' | 'closed';
  openedAt: string;
  closedAt: string | null;
  updatedAt: string;
}

export interface CheckRow {
  checkId: string;
  findingId: string;
  effective: boolean;
  note: string;
  evidenceIds: string[];
  checkedBy: { userId: string; email: string; name: string };
  checkedAt: string;
}

const AUDIT_COLUMNS = `audit_id as "auditId", org_id as "orgId", title, framework_ids as "frameworkIds", criteria,
  lead_auditor as "leadAuditor", planned_start as "plannedStart", planned_end as "plannedEnd", state, conclusion,
  started_at as "startedAt", completed_at as "completedAt", created_at as "createdAt", updated_at as "updatedAt"`;

const toAudit = (row: AuditRow): AuditRow => ({
  ...row,
  plannedStart: toIso(row.plannedStart),
  plannedEnd: toIso(row.plannedEnd),
  startedAt: toIsoOrNull(row.startedAt),
  completedAt: toIsoOrNull(row.completedAt),
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

const FINDING_COLUMNS = `finding_id as "findingId", org_id as "orgId", audit_id as "auditId", kind, requirements,
  description, owner, due_date as "dueDate", root_cause as "rootCause", corrective_action as "correctiveAction", state,
  opened_at as "openedAt", closed_at as "closedAt", updated_at as "updatedAt"`;

const toFinding = (row: FindingRow): FindingRow => ({
  ...row,
  dueDate: toIsoOrNull(row.dueDate),
  openedAt: toIso(row.openedAt),
  closedAt: toIsoOrNull(row.closedAt),
  updatedAt: toIso(row.updatedAt),
});

export async function insertAudit(
  em: Em,
  audit: Omit<AuditRow, 'state' | 'conclusion' | 'startedAt' | 'completedAt' | 'createdAt' | 'updatedAt'>,
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into internal_audits (audit_id, org_id, title, framework_ids, criteria, lead_auditor, planned_start,
       planned_end, state, created_at, updated_at) values (?, ?, ?, ?::text[], ?, ?, ?, ?, 'planned', ?, ?)`,
    [
      audit.auditId,
      audit.orgId,
      audit.title,
      textArray(audit.frameworkIds),
      audit.criteria,
      audit.leadAuditor,
      audit.plannedStart,
      audit.plannedEnd,
      now,
      now,
    ],
  );
}

export async function selectAudits(em: Em, orgId: string): Promise<AuditRow[]> {
  const rows = await em.execute<AuditRow[]>(
    `select ${AUDIT_COLUMNS} from internal_audits where org_id = ? order by planned_start desc, audit_id`,
    [orgId],
  );
  return rows.map(toAudit);
}

export async function selectAudit(
  em: Em,
  orgId: string,
  auditId: string,
  options: { forUpdate?: boolean } = {},
): Promise<AuditRow | null> {
  const [row] = await em.execute<AuditRow[]>(
    `select ${AUDIT_COLUMNS} from internal_audits where org_id = ? and audit_id = ?${options.forUpdate ? ' for update' : ''}`,
    [orgId, auditId],
  );
  return row ? toAudit(row) : null;
}

export async function updateAudit(em: Em, audit: AuditRow, now: Date): Promise<void> {
  await em.execute(
    `update internal_audits set title = ?, criteria = ?, lead_auditor = ?, planned_start = ?, planned_end = ?, state = ?,
       conclusion = ?, started_at = ?, completed_at = ?, updated_at = ? where org_id = ? and audit_id = ?`,
    [
      audit.title,
      audit.criteria,
      audit.leadAuditor,
      audit.plannedStart,
      audit.plannedEnd,
      audit.state,
      audit.conclusion,
      audit.startedAt,
      audit.completedAt,
      now,
      audit.orgId,
      audit.auditId,
    ],
  );
}

export async function insertFinding(
  em: Em,
  finding: Pick<
    FindingRow,
    'findingId' | 'orgId' | 'auditId' | 'kind' | 'requirements' | 'description' | 'owner' | 'dueDate'
  >,
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into findings (finding_id, org_id, audit_id, kind, requirements, description, owner, due_date, state,
       opened_at, updated_at) values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, 'open', ?, ?)`,
    [
      finding.findingId,
      finding.orgId,
      finding.auditId,
      finding.kind,
      JSON.stringify(finding.requirements),
      finding.description,
      finding.owner,
      finding.dueDate,
      now,
      now,
    ],
  );
}

/** The org's findings (of one audit when given), oldest first. */
export async function selectFindings(
  em: Em,
  orgId: string,
  filter: { auditId?: string; state?: 'open' | 'closed'; kind?: FindingKind } = {},
): Promise<FindingRow[]> {
  const where = ['org_id = ?'];
  const params: unknown[] = [orgId];
  if (filter.auditId) where.push('audit_id = ?') && params.push(filter.auditId);
  if (filter.state) where.push('state = ?') && params.push(filter.state);
  if (filter.kind) where.push('kind = ?') && params.push(filter.kind);
  const rows = await em.execute<FindingRow[]>(
    `select ${FINDING_COLUMNS} from findings where ${where.join(' and ')} order by opened_at, finding_id`,
    params,
  );
  return rows.map(toFinding);
}

export async function selectFinding(
  em: Em,
  orgId: string,
  findingId: string,
  options: { forUpdate?: boolean } = {},
): Promise<FindingRow | null> {
  const [row] = await em.execute<FindingRow[]>(
    `select ${FINDING_COLUMNS} from findings where org_id = ? and finding_id = ?${options.forUpdate ? ' for update' : ''}`,
    [orgId, findingId],
  );
  return row ? toFinding(row) : null;
}

export async function updateFinding(em: Em, finding: FindingRow, now: Date): Promise<void> {
  await em.execute(
    `update findings set owner = ?, due_date = ?, root_cause = ?, corrective_action = ?, state = ?, closed_at = ?,
       updated_at = ? where org_id = ? and finding_id = ?`,
    [
      finding.owner,
      finding.dueDate,
      finding.rootCause,
      finding.correctiveAction,
      finding.state,
      finding.closedAt,
      now,
      finding.orgId,
      finding.findingId,
    ],
  );
}

export async function insertCheck(em: Em, check: CheckRow & { orgId: string }): Promise<void> {
  await em.execute(
    `insert into finding_checks (check_id, org_id, finding_id, effective, note, evidence_ids, checked_by, checked_at)
     values (?, ?, ?, ?, ?, ?::text[], ?::jsonb, ?)`,
    [
      check.checkId,
      check.orgId,
      check.findingId,
      check.effective,
      check.note,
      textArray(check.evidenceIds),
      JSON.stringify(check.checkedBy),
      check.checkedAt,
    ],
  );
}

export async function selectChecks(em: Em, orgId: string): Promise<CheckRow[]> {
  const rows = await em.execute<CheckRow[]>(
    `select check_id as "checkId", finding_id as "findingId", effective, note, evidence_ids as "evidenceIds",
       checked_by as "checkedBy", checked_at as "checkedAt" from finding_checks where org_id = ?
     order by checked_at, check_id`,
    [orgId],
  );
  return rows.map((row) => ({ ...row, checkedAt: toIso(row.checkedAt) }));
}
