import {
  auditFindingPath,
  auditPath,
  findingPath,
  requirementPath,
} from '../../../src/clients/api-client/paths.js';
import type { FindingKind } from '../../../src/shared/vocabulary.js';
import type { Finding, FindingList, InternalAudit, InternalAuditList, Requirement } from '../api';
import { filled } from '../api';
import { type Session, useLoad, useSession } from '../ui';
import type { RequirementRef } from './frameworks';

export type { RequirementRef };

/** Internal audits (ISO/IEC 42001 9.2), their findings (10.2), and the writes on them. */

export const useAudits = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<InternalAuditList>(auditPath(orgId)), [orgId]);
};

export const useAudit = (auditId: string) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<InternalAudit>(auditPath(orgId, auditId)), [orgId, auditId]);
};

export interface AuditPlan {
  title: string;
  frameworkIds: string[];
  criteria?: string;
  leadAuditor: string;
  plannedStart: string;
  plannedEnd: string;
}

export const planAudit = (session: Session, body: AuditPlan) =>
  session.api.post<InternalAudit>(auditPath(session.orgId), body);

/** Moves the audit on: planned → in_progress → completed (a conclusion is required to complete). */
export const moveAudit = (
  session: Session,
  auditId: string,
  body: { state: 'in_progress' } | { state: 'completed'; conclusion: string },
) => session.api.put<InternalAudit>(auditPath(session.orgId, auditId), body);

export type FindingFilters = { state: string; kind: string };

/** The findings of one audit, or with no audit every finding of the org, oldest first. */
export const useFindings = (auditId: string | undefined, filters: FindingFilters) => {
  const { api, orgId } = useSession();
  return useLoad(
    () =>
      api.get<FindingList>(
        auditId === undefined ? findingPath(orgId) : auditPath(orgId, auditId, '/findings'),
        filled(filters),
      ),
    [orgId, auditId, filters.state, filters.kind],
  );
};

export const useFinding = (findingId: string) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<Finding>(findingPath(orgId, findingId)), [orgId, findingId]);
};

/** The entries of the finding's requirements (title, status, the findings that cap them), in its order. */
export const useFindingRequirements = (finding: Finding | undefined) => {
  const { api, orgId } = useSession();
  const refs = finding?.requirements ?? [];
  return useLoad(
    () =>
      Promise.all(
        refs.map((ref) =>
          api.get<Requirement>(requirementPath(orgId, ref.frameworkId, ref.requirementId)).catch(() => null),
        ),
      ),
    [orgId, refs.map((ref) => `${ref.frameworkId}\u0000${ref.requirementId}`).join('\u0001')],
  );
};

export interface NewFinding {
  kind: FindingKind;
  requirements: RequirementRef[];
  description: string;
  owner?: string;
  dueDate?: string;
}

export const openFinding = (session: Session, auditId: string, body: NewFinding) =>
  session.api.post<Finding>(auditPath(session.orgId, auditId, '/findings'), body);

export interface FindingChange {
  rootCause?: string | null;
  correctiveAction?: string | null;
  owner?: string | null;
  dueDate?: string | null;
}

export const changeFinding = (session: Session, finding: Finding, body: FindingChange) =>
  session.api.put<Finding>(auditFindingPath(session.orgId, finding.auditId, finding.findingId), body);

/** An effectiveness check (a signed-in approver or owner): only an effective one closes the finding. */
export const checkFinding = (
  session: Session,
  finding: Finding,
  body: { effective: boolean; note: string; evidenceIds?: string[] },
) =>
  session.api.post<Finding>(
    auditFindingPath(session.orgId, finding.auditId, finding.findingId, '/close'),
    body,
  );
