import { orgPath, riskPath, soaChecksPath } from '../../../src/clients/api-client/paths.js';
import type { RiskState, TreatmentOption } from '../../../src/shared/vocabulary.js';
import type { Risk, RiskAcceptance, RiskCriteria, RiskList, RiskSummary } from '../api';
import { ApiError, filled } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** The org's AI risk register, its summary and criteria, one risk, and the writes on them. */

/** The register's server-side filters as the form holds them: an empty string means any. */
export type RiskFilters = { state: string; level: string; systemId: string };

const PAGE = 1000;

/**
 * Every risk matching the filters, page after page: the heat map's cells filter the list by rating, which the
 * API does not, so the console holds the whole (filtered) register.
 */
export const useRisks = (filters: RiskFilters) => {
  const { api, orgId } = useSession();
  return useLoad(async () => {
    const query = filled(filters);
    const risks: Risk[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await api.get<RiskList>(riskPath(orgId), { ...query, limit: PAGE, offset });
      risks.push(...page.risks);
      if (page.risks.length === 0 || risks.length >= page.total) return { risks, total: page.total };
    }
  }, [orgId, filters.state, filters.level, filters.systemId]);
};

export const useRiskSummary = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<RiskSummary>(riskPath(orgId, 'summary')), [orgId]);
};

export const useRiskCriteria = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<RiskCriteria>(orgPath(orgId, '/risk-criteria')), [orgId]);
};

export const useRisk = (riskId: string) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<Risk>(riskPath(orgId, riskId)), [orgId, riskId]);
};

export interface RiskBody {
  title: string;
  description?: string;
  systemIds?: string[];
  category?: string;
  owner?: string;
  likelihood: number;
  impact: number;
  treatment?: {
    option: TreatmentOption;
    requirements: { frameworkId: string; requirementId: string }[];
    plan?: string;
    dueDate?: string;
  };
  residualLikelihood?: number;
  residualImpact?: number;
  reviewDate?: string;
}

export const addRisk = (session: Session, body: RiskBody) =>
  session.api.post<Risk>(riskPath(session.orgId), body);

/** A change of the rating; a change of the assessed fields makes the acceptance stale. */
export const changeRisk = (
  session: Session,
  riskId: string,
  body: Partial<Omit<RiskBody, 'residualLikelihood' | 'residualImpact'>> & {
    residualLikelihood?: number | null;
    residualImpact?: number | null;
  },
) => session.api.put<Risk>(riskPath(session.orgId, riskId), body);

export const removeRisk = (session: Session, riskId: string) =>
  session.api.delete(riskPath(session.orgId, riskId));

/** Accepts the residual risk as it stands, until a date (a signed-in approver or owner). */
export const acceptRisk = (
  session: Session,
  riskId: string,
  body: { justification: string; expiresAt: string },
) => session.api.post<RiskAcceptance>(riskPath(session.orgId, riskId, '/acceptance'), body);

export const withdrawAcceptance = (session: Session, riskId: string) =>
  session.api.delete(riskPath(session.orgId, riskId, '/acceptance'));

/**
 * One finding of the Statement of Applicability's consistency checks, as the contract states it (the server's
 * schema module brings the SoA renderers into the bundle's type check, so the console states the shape here).
 */
export interface SoaCheck {
  kind: string;
  severity: string;
  message: string;
  riskId?: string;
  controlId?: string;
  systemId?: string;
  assessmentId?: string;
}

export interface SoaChecks {
  orgId: string;
  checks: SoaCheck[];
}

/**
 * The SoA's checks, or null where the daemon does not offer them (an older daemon: `404 NOT_FOUND`) or the
 * key or person may not read them: the console then shows no panel.
 */
export const useSoaChecks = () => {
  const { api, orgId } = useSession();
  return useLoad(
    () =>
      api.get<SoaChecks>(soaChecksPath(orgId)).catch((error: unknown) => {
        if (error instanceof ApiError && (error.status === 404 || error.status === 403)) return null;
        throw error;
      }),
    [orgId],
  );
};

export type { RiskState };
