import { frameworkPath, requirementPath } from '../../../src/clients/api-client/paths.js';
import type {
  FrameworkCompliance,
  History,
  OrgFrameworkList,
  Requirement,
  RequirementEvidenceList,
  RequirementList,
} from '../api';
import { filled } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** An org's frameworks, requirements and their records. */

export const useOrgFrameworks = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<OrgFrameworkList>(frameworkPath(orgId)), [orgId]);
};

export const useFrameworkCompliance = (frameworkId: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<FrameworkCompliance>(frameworkPath(orgId, frameworkId, '/compliance')),
    [orgId, frameworkId],
  );
};

export type HistoryInterval = 'daily' | 'weekly' | 'monthly';

/** The score history over the last 30 days (daily), 26 weeks (weekly) or year (monthly). */
export const useFrameworkHistory = (frameworkId: string, interval: HistoryInterval) => {
  const { api, orgId } = useSession();
  return useLoad(() => {
    const span = interval === 'daily' ? 30 : interval === 'weekly' ? 7 * 26 : 365;
    const from = new Date(Date.now() - span * 86_400_000).toISOString().slice(0, 10);
    return api.get<History>(frameworkPath(orgId, frameworkId, '/compliance/history'), { from, interval });
  }, [orgId, frameworkId, interval]);
};

/** The list's filters as the form holds them: an empty string means any. */
export type RequirementFilters = { status: string; assessment: string; applicable: string };

export const useRequirements = (frameworkId: string, filters: RequirementFilters) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<RequirementList>(requirementPath(orgId, frameworkId), filled(filters)),
    [orgId, frameworkId, filters.status, filters.assessment, filters.applicable],
  );
};

export const useRequirement = (frameworkId: string, requirementId: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<Requirement>(requirementPath(orgId, frameworkId, requirementId)),
    [orgId, frameworkId, requirementId],
  );
};

export const useRequirementEvidence = (frameworkId: string, requirementId: string, offset: number) => {
  const { api, orgId } = useSession();
  return useLoad(
    () =>
      api.get<RequirementEvidenceList>(requirementPath(orgId, frameworkId, requirementId, '/evidence'), {
        limit: 10,
        offset,
      }),
    [orgId, frameworkId, requirementId, offset],
  );
};

/** One requirement's record, and the writes on it. */
export interface RequirementRef {
  frameworkId: string;
  requirementId: string;
}

const recordPath = ({ orgId }: Session, { frameworkId, requirementId }: RequirementRef, suffix: string) =>
  requirementPath(orgId, frameworkId, requirementId, suffix);

export const setRequirementStatus = (
  session: Session,
  ref: RequirementRef,
  body: { status: string; reviewer: string; note?: string; owner?: string },
) => session.api.put(recordPath(session, ref, '/status'), body);

export const setApplicability = (
  session: Session,
  ref: RequirementRef,
  body: { applicable: boolean; justification: string; reviewer: string },
) => session.api.put(recordPath(session, ref, '/applicability'), body);

/** Withdraws the org's direct record: the crosswalk decides the requirement's status again. */
export const withdrawAssessment = (session: Session, ref: RequirementRef) =>
  session.api.delete(recordPath(session, ref, '/assessment'));

export const addEvidence = (
  session: Session,
  ref: RequirementRef,
  body: { type: string; title: string; fileUrl?: string; description?: string; expiresAt?: string },
) => session.api.post(recordPath(session, ref, '/evidence'), body);
