import { applicabilityProfilePath } from '../../../src/clients/api-client/paths.js';
import type { ApplicabilityProfileBody, ApplicabilityProfileView } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** The applicability profile: what the org is under the EU AI Act, and the exclusions that follow. */
export const useApplicabilityProfile = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<ApplicabilityProfileView>(applicabilityProfilePath(orgId)), [orgId]);
};

/** What saving these answers would exclude, against the records as they are: nothing is written. */
export const previewProfile = (session: Session, body: ApplicabilityProfileBody) =>
  session.api.request<ApplicabilityProfileView>('PUT', applicabilityProfilePath(session.orgId), {
    body,
    query: { dryRun: true },
  });

/** Saves the profile; the records follow (a person's own applicability judgement stays). */
export const saveProfile = (session: Session, body: ApplicabilityProfileBody) =>
  session.api.put<ApplicabilityProfileView>(applicabilityProfilePath(session.orgId), body);
