import { randomBytes } from 'node:crypto';
import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict, resourceNotFound } from '../../platform/errors.js';
import { bodyInstant } from '../../platform/time.js';
import { capRequirements, releaseCaps } from '../../records/records.store.js';
import { effectiveStatus } from '../../records/score.js';
import { FINDING_KINDS, type FindingKind, type RequirementStatus } from '../../shared/vocabulary.js';
import { analysisOf, type CachedAnalysis } from '../cte/analysis.service.js';
import {
  type AuditRow,
  type CheckRow,
  type FindingRow,
  insertAudit,
  insertCheck,
  insertFinding,
  type RequirementRef,
  selectAudit,
  selectAudits,
  selectChecks,
  selectFinding,
  selectFindings,
  updateAudit,
  updateFinding,
} from './audits.store.js';

const newId = (prefix: string) => `${prefix}_${randomBytes(9).toString('base64url')}`;

/** `400` naming the frameworks or requirements the library does not have. */
async function checkRefs(
  em: Em,
  orgId: string,
  refs: { frameworkIds?: string[]; requirements?: RequirementRef[] },
) {
  const { library } = await analysisOf(em, orgId);
  const unknownFrameworks = (refs.frameworkIds ?? []).filter((id) => !library.framework(id));
  const unknownRequirements = (refs.requirements ?? []).filter(
    ({ frameworkId, requirementId }) => !library.requirement(frameworkId, requirementId),
  );
  if (unknownFrameworks.length || unknownRequirements.length) {
    throw badRequest('Unknown frameworks or requirements', {
      ...(unknownFrameworks.length ? { unknownFrameworks } : {}),
      ...(unknownRequirements.length ? { unknownRequirements } : {}),
    });
  }
}

function findingCounts(findings: FindingRow[]) {
  const byKind = Object.fromEntries(FINDING_KINDS.map((kind) => [kind, 0]));
  for (const finding of findings) byKind[finding.kind] += 1;
  return {
    open: findings.filter((finding) => finding.state === 'open').length,
    closed: findings.filter((finding) => finding.state === 'closed').length,
    byKind,
  };
}

export const auditView = (audit: AuditRow, findings: FindingRow[]) => {
  const { orgId: _orgId, ...rest } = audit;
  return {
    ...rest,
    findings: findingCounts(findings.filter((finding) => finding.auditId === audit.auditId)),
  };
};

export async function createAudit(
  em: Em,
  orgId: string,
  input: {
    title: string;
    frameworkIds: string[];
    criteria?: string;
    leadAuditor: string;
    plannedStart: string;
    plannedEnd: string;
  },
) {
  input = {
    ...input,
    plannedStart: bodyInstant(input.plannedStart, 'body.plannedStart'),
    plannedEnd: bodyInstant(input.plannedEnd, 'body.plannedEnd'),
  };
  if (Date.parse(input.plannedEnd) < Date.parse(input.plannedStart)) {
    throw badRequest('plannedEnd is before plannedStart', {
      fields: [{ field: 'body.plannedEnd', message: 'before the start' }],
    });
  }
  await checkRefs(em, orgId, { frameworkIds: input.frameworkIds });
  const auditId = newId('aud');
  await insertAudit(em, { auditId, orgId, criteria: input.criteria ?? null, ...input }, new Date());
  return auditView((await selectAudit(em, orgId, auditId)) as AuditRow, []);
}

export async function listAudits(em: Em, orgId: string) {
  const [audits, findings] = await Promise.all([selectAudits(em, orgId), selectFindings(em, orgId)]);
  return audits.map((audit) => auditView(audit, findings));
}

export async function getAudit(em: Em, orgId: string, auditId: string) {
  const audit = await selectAudit(em, orgId, auditId);
  if (!audit) throw resourceNotFound('Audit', { auditId });
  return auditView(audit, await selectFindings(em, orgId, { auditId }));
}

const NEXT_STATE: Record<AuditRow['state'], AuditRow['state'] | null> = {
  planned: 'in_progress',
  in_progress: 'completed',
  completed: null,
};

/** Plans change until the audit completes; its state moves planned → in_progress → completed, one step at a time. */
export async function changeAudit(
  em: Em,
  orgId: string,
  auditId: string,
  change: Partial<
    Pick<AuditRow, 'title' | 'criteria' | 'leadAuditor' | 'plannedStart' | 'plannedEnd' | 'conclusion'>
  > & {
    state?: 'in_progress' | 'completed';
  },
) {
  await em.transactional(async (tx) => {
    const audit = await selectAudit(tx, orgId, auditId, { forUpdate: true });
    if (!audit) throw resourceNotFound('Audit', { auditId });
    if (audit.state === 'completed')
      throw conflict('A completed audit cannot change', { auditId, state: audit.state });
    const next: AuditRow = { ...audit, ...change, state: audit.state };
    const now = new Date();
    if (change.state !== undefined && change.state !== audit.state) {
      if (NEXT_STATE[audit.state] !== change.state) {
        throw conflict(
          `An audit moves from ${audit.state} to ${NEXT_STATE[audit.state]}, not to ${change.state}`,
          {
            auditId,
            state: audit.state,
          },
        );
      }
      if (change.state === 'completed' && !next.conclusion) {
        throw badRequest('A conclusion is required to complete the audit', {
          fields: [{ field: 'body.conclusion', message: 'required to complete' }],
        });
      }
      next.state = change.state;
      if (change.state === 'in_progress') next.startedAt = now.toISOString();
      if (change.state === 'completed') next.completedAt = now.toISOString();
    }
    if (Date.parse(next.plannedEnd) < Date.parse(next.plannedStart)) {
      throw badRequest('plannedEnd is before plannedStart', {
        fields: [{ field: 'body.plannedEnd', message: 'before the start' }],
      });
    }
    await updateAudit(tx, next, now);
  });
  return getAudit(em, orgId, auditId);
}

export interface FindingView extends Omit<FindingRow, 'orgId' | 'requirements'> {
  requirements: (RequirementRef & { status: RequirementStatus })[];
  caps: boolean;
  checks: Omit<CheckRow, 'findingId'>[];
}

function findingView(finding: FindingRow, checks: CheckRow[], analysis: CachedAnalysis): FindingView {
  const { orgId: _orgId, requirements, ...rest } = finding;
  return {
    ...rest,
    requirements: requirements.map((ref) => {
      const coverage = analysis.coverage.get(ref.frameworkId, ref.requirementId);
      return { ...ref, status: coverage ? effectiveStatus(coverage) : 'not_started' };
    }),
    caps: finding.kind === 'major_nonconformity' && finding.state === 'open',
    checks: checks
      .filter((check) => check.findingId === finding.findingId)
      .map(({ findingId: _findingId, ...check }) => check),
  };
}

export async function listFindings(
  em: Em,
  orgId: string,
  filter: { auditId?: string; state?: 'open' | 'closed'; kind?: FindingKind } = {},
): Promise<FindingView[]> {
  if (filter.auditId && !(await selectAudit(em, orgId, filter.auditId))) {
    throw resourceNotFound('Audit', { auditId: filter.auditId });
  }
  const [findings, checks, analysis] = await Promise.all([
    selectFindings(em, orgId, filter),
    selectChecks(em, orgId),
    analysisOf(em, orgId),
  ]);
  return findings.map((finding) => findingView(finding, checks, analysis));
}

export async function getFinding(em: Em, orgId: string, findingId: string): Promise<FindingView> {
  const finding = await selectFinding(em, orgId, findingId);
  if (!finding) throw resourceNotFound('Finding', { findingId });
  const [checks, analysis] = await Promise.all([selectChecks(em, orgId), analysisOf(em, orgId)]);
  return findingView(finding, checks, analysis);
}

/**
 * Records a finding of an audit not yet completed. A major nonconformity caps its requirements at once, in the
 * same transaction: from its commit on they count at most as in progress.
 */
export async function openFinding(
  em: Em,
  orgId: string,
  auditId: string,
  input: {
    kind: FindingKind;
    requirements: RequirementRef[];
    description: string;
    owner?: string;
    dueDate?: string;
  },
): Promise<FindingView> {
  await checkRefs(em, orgId, { requirements: input.requirements });
  input = { ...input, dueDate: bodyInstant(input.dueDate, 'body.dueDate') };
  const findingId = newId('fnd');
  await em.transactional(async (tx) => {
    const audit = await selectAudit(tx, orgId, auditId, { forUpdate: true });
    if (!audit) throw resourceNotFound('Audit', { auditId });
    if (audit.state === 'completed') throw conflict('A completed audit takes no new findings', { auditId });
    await insertFinding(
      tx,
      { findingId, orgId, auditId, ...input, owner: input.owner ?? null, dueDate: input.dueDate ?? null },
      new Date(),
    );
    if (input.kind === 'major_nonconformity') {
      await capRequirements(tx, { orgId, findingId, requirements: input.requirements });
    }
  });
  return getFinding(em, orgId, findingId);
}

export async function changeFinding(
  em: Em,
  orgId: string,
  findingId: string,
  change: Partial<Pick<FindingRow, 'rootCause' | 'correctiveAction' | 'owner' | 'dueDate'>>,
): Promise<FindingView> {
  if (change.dueDate !== undefined)
    change = { ...change, dueDate: bodyInstant(change.dueDate, 'body.dueDate') };
  await em.transactional(async (tx) => {
    const finding = await selectFinding(tx, orgId, findingId, { forUpdate: true });
    if (!finding) throw resourceNotFound('Finding', { findingId });
    if (finding.state === 'closed') throw conflict('A closed finding cannot change', { findingId });
    await updateFinding(tx, { ...finding, ...change }, new Date());
  });
  return getFinding(em, orgId, findingId);
}

/**
 * Records an effectiveness check by a person. An effective one closes the finding (and releases its caps); an
 * ineffective one is kept on record and the finding stays open.
 */
export async function checkFinding(
  em: Em,
  orgId: string,
  findingId: string,
  input: { effective: boolean; note: string; evidenceIds?: string[] },
  checkedBy: { userId: string; email: string; name: string },
): Promise<FindingView> {
  await em.transactional(async (tx) => {
    const finding = await selectFinding(tx, orgId, findingId, { forUpdate: true });
    if (!finding) throw resourceNotFound('Finding', { findingId });
    if (finding.state === 'closed') throw conflict('The finding is already closed', { findingId });
    const now = new Date();
    await insertCheck(tx, {
      checkId: newId('chk'),
      orgId,
      findingId,
      effective: input.effective,
      note: input.note,
      evidenceIds: input.evidenceIds ?? [],
      checkedBy,
      checkedAt: now.toISOString(),
    });
    if (input.effective) {
      await updateFinding(tx, { ...finding, state: 'closed', closedAt: now.toISOString() }, now);
      await releaseCaps(tx, orgId, findingId);
    }
  });
  return getFinding(em, orgId, findingId);
}
