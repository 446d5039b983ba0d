import {
  impactAssessmentPath,
  impactAssessmentTemplatePath,
  systemImpactAssessmentPath,
} from '../../../src/clients/api-client/paths.js';
import type {
  ImpactAssessment,
  ImpactAssessmentPage,
  ImpactAssessmentTemplateList,
  Risk,
  SystemImpactAssessmentList,
} from '../api';
import { filled } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** Impact assessments of AI systems: the templates, a system's assessments, the org's, and the writes on them. */

export type AnswerValue = ImpactAssessment['answers'][string];
export type Impact = ImpactAssessment['impacts'][number];

export const useTemplates = () => {
  const { api } = useSession();
  return useLoad(() => api.get<ImpactAssessmentTemplateList>(impactAssessmentTemplatePath()), []);
};

/** Every version of every template's assessment of one system, newest version first. */
export const useSystemAssessments = (systemId: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<SystemImpactAssessmentList>(systemImpactAssessmentPath(orgId, systemId)),
    [orgId, systemId],
  );
};

/** The list's filters as the form holds them: an empty string means any. */
export type AssessmentFilters = { state: string; due: string };

export const useAssessments = (filters: AssessmentFilters, offset: number, limit: number) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<ImpactAssessmentPage>(impactAssessmentPath(orgId), { ...filled(filters), limit, offset }),
    [orgId, filters.state, filters.due, offset, limit],
  );
};

export const useAssessment = (assessmentId: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<ImpactAssessment>(impactAssessmentPath(orgId, assessmentId)),
    [orgId, assessmentId],
  );
};

export const startAssessment = (session: Session, systemId: string, templateId: string) =>
  session.api.post<ImpactAssessment>(systemImpactAssessmentPath(session.orgId, systemId), { templateId });

/** Saves a draft: the answers given are merged in (null removes one), the impacts replace the list. */
export const saveAssessment = (
  session: Session,
  assessmentId: string,
  body: { answers?: Record<string, AnswerValue | null>; impacts?: Impact[] },
) => session.api.put<ImpactAssessment>(impactAssessmentPath(session.orgId, assessmentId), body);

export const submitAssessment = (session: Session, assessmentId: string) =>
  session.api.post<ImpactAssessment>(impactAssessmentPath(session.orgId, assessmentId, '/submit'), undefined);

/** Approves a submitted assessment: a signed-in approver or owner other than the person who submitted it. */
export const approveAssessment = (session: Session, assessmentId: string) =>
  session.api.post<ImpactAssessment>(
    impactAssessmentPath(session.orgId, assessmentId, '/approve'),
    undefined,
  );

/** A new draft of an approved assessment, one version up, with its answers copied. */
export const reviseAssessment = (session: Session, assessmentId: string) =>
  session.api.post<ImpactAssessment>(impactAssessmentPath(session.orgId, assessmentId, '/revise'), undefined);

/** Raises an impact (counted from 0) into the risk register; a draft's impact is linked to the new risk. */
export const raiseImpactRisk = (session: Session, assessmentId: string, impactIndex: number) =>
  session.api.post<Risk>(
    impactAssessmentPath(session.orgId, assessmentId, `/impacts/${impactIndex}/risk`),
    undefined,
  );
