import { aiSystemPath } from '../../../src/clients/api-client/paths.js';
import type { AiSystem, AiSystemList } from '../api';
import { filled } from '../api';
import { type Session, useLoad, useSession } from '../ui';

export type AiSystemFilters = { riskLevel: string; lifecycleStage: string };

export const useAiSystems = (filters: AiSystemFilters) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<AiSystemList>(aiSystemPath(orgId), filled(filters)), [orgId, filters]);
};

export const addAiSystem = (
  session: Session,
  body: { name: string; owner: string; purpose: string; riskLevel: string; lifecycleStage: string },
) => session.api.post(aiSystemPath(session.orgId), body);

export const useAiSystem = (systemId: string) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<AiSystem>(aiSystemPath(orgId, systemId)), [orgId, systemId]);
};

/**
 * Changes a system (`description: null` clears it; `lifecycleStage: 'retired'` retires it); a new risk tier,
 * lifecycle stage or purpose flags its approved assessments for review.
 */
export const changeAiSystem = (
  session: Session,
  systemId: string,
  body: {
    description?: string | null;
    owner?: string;
    purpose?: string;
    riskLevel?: string;
    lifecycleStage?: string;
  },
) => session.api.put<AiSystem>(aiSystemPath(session.orgId, systemId), body);
