/**
 * What is due: one agenda over every dated obligation of an org, computed from the records that hold the dates
 * (never a second copy): evidence expiry, risk treatments and reviews, acceptance expiry, impact assessment
 * reviews, document reviews, finding due dates and management-review decisions.
 */
import type { Em } from '../../platform/db/database.js';
import { DUE_KINDS, type DueKind } from '../../shared/vocabulary.js';
import { selectFindings } from '../audits/audits.store.js';
import type { CachedAnalysis } from '../cte/analysis.service.js';
import { selectDocumentReviews } from '../documents/documents.store.js';
import { selectDatedEvidence } from '../evidence/evidence.store.js';
import { selectAssessmentPage } from '../impact-assessments/impact-assessments.store.js';
import { datedDecisions } from '../reviews/reviews.service.js';
import { registerOf } from '../risks/risks.service.js';

export { DUE_KINDS, type DueKind };

export interface DueItem {
  kind: DueKind;
  dueAt: string;
  overdue: boolean;
  owner?: string;
  title: string;
  resource: { type: string; id: string };
}

/** A source of dated obligations: the items it holds, whatever their date. */
type Source = (em: Em, orgId: string, analysis: CachedAnalysis) => Promise<Omit<DueItem, 'overdue'>[]>;

const withOwner = (owner: string | null | undefined) => (owner ? { owner } : {});

const SOURCES: Source[] = [
  async (em, orgId) =>
    (await selectDatedEvidence(em, orgId)).map((evidence) => ({
      kind: 'evidence_expiry' as const,
      dueAt: evidence.expiresAt,
      title: `Evidence "${evidence.title}" (${evidence.frameworkId} ${evidence.requirementId}) expires`,
      resource: { type: 'evidence', id: evidence.evidenceId },
    })),
  async (em, orgId, analysis) => {
    const { risks } = await registerOf(em, orgId, analysis);
    return risks.flatMap((risk) => {
      const items: Omit<DueItem, 'overdue'>[] = [];
      const resource = { type: 'risk', id: risk.riskId };
      if (risk.treatment?.dueDate && risk.state === 'treating') {
        items.push({
          kind: 'risk_treatment',
          dueAt: risk.treatment.dueDate,
          ...withOwner(risk.owner),
          title: `Treatment of "${risk.title}"`,
          resource,
        });
      }
      if (risk.reviewDate) {
        items.push({
          kind: 'risk_review',
          dueAt: risk.reviewDate,
          ...withOwner(risk.owner),
          title: `Review of risk "${risk.title}"`,
          resource,
        });
      }
      if (risk.acceptance?.state === 'valid') {
        items.push({
          kind: 'acceptance_expiry',
          dueAt: risk.acceptance.expiresAt,
          ...withOwner(risk.owner),
          title: `Acceptance of "${risk.title}" (by ${risk.acceptance.acceptedBy.name}) expires`,
          resource,
        });
      }
      return items;
    });
  },
  async (em, orgId) => {
    const { assessments } = await selectAssessmentPage(
      em,
      orgId,
      { state: 'approved', limit: 100_000, offset: 0 },
      new Date(),
    );
    return assessments
      .filter((assessment) => assessment.reviewDue !== null)
      .map((assessment) => ({
        kind: 'assessment_review' as const,
        dueAt: assessment.reviewDue as string,
        title: `Review of the ${assessment.templateId} assessment of ${assessment.system.name}`,
        resource: { type: 'impact-assessment', id: assessment.assessmentId },
      }));
  },
  async (em, orgId) =>
    (await selectDocumentReviews(em, orgId)).map((document) => ({
      kind: 'document_review' as const,
      dueAt: document.nextReviewAt,
      ...withOwner(document.owner),
      title: `Review of the ${document.kind} "${document.title}"`,
      resource: { type: 'document', id: document.documentId },
    })),
  async (em, orgId) =>
    (await selectFindings(em, orgId, { state: 'open' }))
      .filter((finding) => finding.dueDate !== null)
      .map((finding) => ({
        kind: 'finding_due' as const,
        dueAt: finding.dueDate as string,
        ...withOwner(finding.owner),
        title: `Corrective action for ${finding.kind.replace('_', ' ')}: ${finding.description.slice(0, 120)}`,
        resource: { type: 'finding', id: finding.findingId },
      })),
  async (em, orgId) =>
    (await datedDecisions(em, orgId)).map((decision) => ({
      kind: 'decision_due' as const,
      dueAt: decision.dueDate as string,
      ...withOwner(decision.owner),
      title: `Management-review decision: ${decision.text.slice(0, 120)}`,
      resource: { type: 'management-review', id: `${decision.reviewId}#${decision.index}` },
    })),
];

export interface Agenda {
  items: DueItem[];
  /** When an item turns overdue by time alone: the answer holds until then, or until a write. */
  validUntil: number;
}

/** Every dated obligation of the org, soonest first (ties by kind and id). */
export async function agendaOf(
  em: Em,
  orgId: string,
  analysis: CachedAnalysis,
  now = Date.now(),
): Promise<Agenda> {
  const batches = await Promise.all(SOURCES.map((source) => source(em, orgId, analysis)));
  const items = batches
    .flat()
    .map((item) => ({ ...item, overdue: Date.parse(item.dueAt) < now }))
    .sort(
      (a, b) =>
        a.dueAt.localeCompare(b.dueAt) ||
        a.kind.localeCompare(b.kind) ||
        a.resource.id.localeCompare(b.resource.id),
    );
  const next = items.find((item) => !item.overdue);
  return { items, validUntil: next ? Date.parse(next.dueAt) : Number.POSITIVE_INFINITY };
}

export interface AgendaFilter {
  from?: Date;
  to?: Date;
  owner?: string;
  kind?: DueKind;
  overdue?: boolean;
}

export function filterAgenda(items: DueItem[], filter: AgendaFilter): DueItem[] {
  return items.filter((item) => {
    const at = Date.parse(item.dueAt);
    return (
      (filter.from === undefined || at >= filter.from.getTime()) &&
      (filter.to === undefined || at < filter.to.getTime()) &&
      (filter.owner === undefined || item.owner?.toLowerCase() === filter.owner.toLowerCase()) &&
      (filter.kind === undefined || item.kind === filter.kind) &&
      (filter.overdue === undefined || item.overdue === filter.overdue)
    );
  });
}
