import { reviewPath } from '../../../src/clients/api-client/paths.js';
import type { ManagementReview, ManagementReviewList, ReviewDecision } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** Management reviews (ISO/IEC 42001 9.3) and the writes on them. */

/**
 * A review's inputs as the daemon computes them from the org's records for the period (the schema declares
 * them as an open record; this is how the console reads them, each member optional so an older review shows).
 */
export interface ReviewInputs {
  earlierActions?: (ReviewDecision & { reviewId: string; heldAt: string; overdue: boolean })[];
  scores?: {
    frameworkId: string;
    name: string;
    from: number | null;
    to: number | null;
    change: number | null;
  }[];
  nonconformities?: { opened: number; closed: number; openAtEnd: number; byKind: Record<string, number> };
  audits?: {
    completed: {
      auditId: string;
      title: string;
      completedAt: string;
      conclusion: string | null;
      findingsByKind: Record<string, number>;
    }[];
  };
  attestations?: { byLevel: Record<string, number> };
  risks?: {
    byLevel: Record<string, number>;
    byState: Record<string, number>;
    acceptancesExpiring: { riskId: string; title: string; expiresAt: string }[];
  };
  opportunities?: { findingId: string; description: string; openedAt: string }[];
}

/** The inputs in the order ISO/IEC 42001 9.3.2 lists them, with the names the console gives them. */
export const INPUTS: readonly { key: keyof ReviewInputs; name: string }[] = [
  { key: 'earlierActions', name: 'Actions from earlier reviews' },
  { key: 'scores', name: 'Scores of every framework' },
  { key: 'nonconformities', name: 'Nonconformities' },
  { key: 'audits', name: 'Internal audits' },
  { key: 'attestations', name: 'Attestations' },
  { key: 'risks', name: 'Risks' },
  { key: 'opportunities', name: 'Opportunities for improvement' },
];

export const inputsOf = (review: ManagementReview) => review.inputs as ReviewInputs;

export const useReviews = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<ManagementReviewList>(reviewPath(orgId)), [orgId]);
};

export const useReview = (reviewId: string) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<ManagementReview>(reviewPath(orgId, reviewId)), [orgId, reviewId]);
};

export const holdReview = (
  session: Session,
  body: { heldAt: string; attendees: string[]; period: { from: string; to: string } },
) => session.api.post<ManagementReview>(reviewPath(session.orgId), body);

/** Notes per input (merged with the others) and the whole list of decisions, while the review is open. */
export const recordReview = (
  session: Session,
  reviewId: string,
  body: { notes?: Record<string, string>; decisions?: ReviewDecision[]; attendees?: string[] },
) => session.api.put<ManagementReview>(reviewPath(session.orgId, reviewId), body);

/** Freezes the review with a content hash. */
export const closeReview = (session: Session, reviewId: string) =>
  session.api.post<ManagementReview>(reviewPath(session.orgId, reviewId, '/close'), {});
