import { createHash, randomBytes } from 'node:crypto';
import canonicalize from 'canonicalize';
import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict, resourceNotFound } from '../../platform/errors.js';
import { bodyInstant } from '../../platform/time.js';
import { countAttestationsByLevel } from '../attestations/attestations.store.js';
import { selectAudits, selectFindings } from '../audits/audits.store.js';
import { analysisOf } from '../cte/analysis.service.js';
import { registerOf, summarize } from '../risks/risks.service.js';
import { scoreHistory } from '../scores/history.service.js';
import {
  type Decision,
  insertReview,
  type ReviewRow,
  selectReview,
  selectReviews,
  updateReview,
} from './reviews.store.js';

const DAY_MS = 86_400_000;
/** Acceptances expiring within this long after the period are an input: the review decides on them. */
const ACCEPTANCE_HORIZON_MS = 90 * DAY_MS;

const inPeriod = (at: string | null, from: Date, to: Date) =>
  at !== null && Date.parse(at) >= from.getTime() && Date.parse(at) < to.getTime();

/** The score of a framework as of an instant: the history point of the day it falls in. */
async function scoreAt(em: Em, orgId: string, frameworkId: string, at: Date): Promise<number | null> {
  const day = at.toISOString();
  const { history } = await scoreHistory(em, orgId, frameworkId, { from: day, to: day, interval: 'daily' });
  return history.points.at(-1)?.score ?? null;
}

/**
 * The inputs ISO/IEC 42001 9.3 asks a management review to consider, computed from the org's own records for
 * the period [from, to): actions from earlier reviews; each framework's score at both ends; nonconformities
 * opened and closed; audits completed and their findings by kind; attestations by level; risks by level and
 * state with the acceptances expiring soon after; opportunities for improvement.
 */
export async function reviewInputs(em: Em, orgId: string, from: Date, to: Date, heldAt: Date) {
  const [earlier, audits, findings, attestations, analysis] = await Promise.all([
    selectReviews(em, orgId),
    selectAudits(em, orgId),
    selectFindings(em, orgId),
    countAttestationsByLevel(em, orgId, from, to),
    analysisOf(em, orgId),
  ]);
  const { risks } = await registerOf(em, orgId, analysis);
  const frameworks = analysis.library.frameworks.map((framework) => ({
    frameworkId: framework.id,
    name: framework.name,
  }));
  const scores = [];
  for (const framework of frameworks) {
    const [atFrom, atTo] = await Promise.all([
      scoreAt(em, orgId, framework.frameworkId, from),
      scoreAt(em, orgId, framework.frameworkId, new Date(Math.min(to.getTime(), Date.now()))),
    ]);
    scores.push({
      ...framework,
      from: atFrom,
      to: atTo,
      change: atFrom === null || atTo === null ? null : Math.round((atTo - atFrom) * 10) / 10,
    });
  }
  const nonconformities = findings.filter((finding) => finding.kind.endsWith('_nonconformity'));
  const completed = audits.filter((audit) => inPeriod(audit.completedAt, from, to));
  const byKind = (list: typeof findings) =>
    list.reduce<Record<string, number>>((counts, finding) => {
      counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
      return counts;
    }, {});
  const summary = summarize(orgId, risks);
  return {
    earlierActions: earlier
      .filter((review) => Date.parse(review.heldAt) < heldAt.getTime())
      .flatMap((review) =>
        review.decisions.map((decision) => ({
          reviewId: review.reviewId,
          heldAt: review.heldAt,
          ...decision,
          overdue: decision.dueDate !== undefined && Date.parse(decision.dueDate) < heldAt.getTime(),
        })),
      ),
    scores,
    nonconformities: {
      opened: nonconformities.filter((finding) => inPeriod(finding.openedAt, from, to)).length,
      closed: nonconformities.filter((finding) => inPeriod(finding.closedAt, from, to)).length,
      openAtEnd: nonconformities.filter(
        (finding) =>
          Date.parse(finding.openedAt) < to.getTime() &&
          (finding.closedAt === null || Date.parse(finding.closedAt) >= to.getTime()),
      ).length,
      byKind: byKind(nonconformities.filter((finding) => inPeriod(finding.openedAt, from, to))),
    },
    audits: {
      completed: completed.map((audit) => ({
        auditId: audit.auditId,
        title: audit.title,
        completedAt: audit.completedAt,
        conclusion: audit.conclusion,
        findingsByKind: byKind(findings.filter((finding) => finding.auditId === audit.auditId)),
      })),
    },
    attestations: { byLevel: { L0: attestations.L0 ?? 0, L2: attestations.L2 ?? 0 } },
    risks: {
      byLevel: summary.counts.byLevel,
      byState: summary.counts.byState,
      acceptancesExpiring: risks
        .filter(
          (risk) =>
            risk.acceptance?.state === 'valid' &&
            Date.parse(risk.acceptance.expiresAt) < to.getTime() + ACCEPTANCE_HORIZON_MS,
        )
        .map((risk) => ({
          riskId: risk.riskId,
          title: risk.title,
          expiresAt: risk.acceptance?.expiresAt as string,
        })),
    },
    opportunities: findings
      .filter((finding) => finding.kind === 'opportunity' && inPeriod(finding.openedAt, from, to))
      .map((finding) => ({
        findingId: finding.findingId,
        description: finding.description,
        openedAt: finding.openedAt,
      })),
  };
}

export type ReviewInputs = Awaited<ReturnType<typeof reviewInputs>>;
export const INPUT_KEYS = [
  'earlierActions',
  'scores',
  'nonconformities',
  'audits',
  'attestations',
  'risks',
  'opportunities',
] as const;

export const reviewView = ({ orgId: _orgId, periodFrom, periodTo, ...review }: ReviewRow) => ({
  ...review,
  period: { from: periodFrom, to: periodTo },
});

export async function holdReview(
  em: Em,
  orgId: string,
  input: { heldAt: string; attendees: string[]; period: { from: string; to: string } },
) {
  const heldAt = new Date(bodyInstant(input.heldAt, 'body.heldAt'));
  const from = new Date(bodyInstant(input.period.from, 'body.period.from'));
  const to = new Date(bodyInstant(input.period.to, 'body.period.to'));
  if (to <= from)
    throw badRequest('The period must end after it starts', {
      fields: [{ field: 'body.period.to', message: 'not after from' }],
    });
  const reviewId = `rev_${randomBytes(9).toString('base64url')}`;
  const inputs = await reviewInputs(em, orgId, from, to, heldAt);
  await insertReview(
    em,
    {
      reviewId,
      orgId,
      heldAt: heldAt.toISOString(),
      attendees: input.attendees,
      periodFrom: from.toISOString(),
      periodTo: to.toISOString(),
      inputs,
    },
    new Date(),
  );
  return reviewView((await selectReview(em, orgId, reviewId)) as ReviewRow);
}

export async function listReviews(em: Em, orgId: string) {
  return (await selectReviews(em, orgId)).map(reviewView);
}

export async function getReview(em: Em, orgId: string, reviewId: string) {
  const review = await selectReview(em, orgId, reviewId);
  if (!review) throw resourceNotFound('Management review', { reviewId });
  return reviewView(review);
}

/** Notes per input and decisions, while the review is open (a closed review is frozen: `409`). */
export async function recordReview(
  em: Em,
  orgId: string,
  reviewId: string,
  change: { notes?: Record<string, string>; decisions?: Decision[]; attendees?: string[] },
) {
  const unknown = Object.keys(change.notes ?? {}).filter(
    (key) => !(INPUT_KEYS as readonly string[]).includes(key),
  );
  if (unknown.length) {
    throw badRequest(`Notes name inputs the review does not have: ${unknown.join(', ')}`, {
      inputs: [...INPUT_KEYS],
    });
  }
  const decisions = change.decisions?.map((decision, index) => ({
    ...decision,
    ...(decision.dueDate
      ? { dueDate: bodyInstant(decision.dueDate, `body.decisions.${index}.dueDate`) }
      : {}),
  }));
  await em.transactional(async (tx) => {
    const review = await selectReview(tx, orgId, reviewId, { forUpdate: true });
    if (!review) throw resourceNotFound('Management review', { reviewId });
    if (review.state === 'closed') throw conflict('A closed management review is frozen', { reviewId });
    await updateReview(
      tx,
      {
        ...review,
        notes: { ...review.notes, ...change.notes },
        decisions: decisions ?? review.decisions,
        attendees: change.attendees ?? review.attendees,
      },
      new Date(),
    );
  });
  return getReview(em, orgId, reviewId);
}

/** Freezes the review: its content (inputs, notes, decisions, attendees, period) gets a SHA-256 of its RFC 8785 JSON. */
export async function closeReview(em: Em, orgId: string, reviewId: string) {
  await em.transactional(async (tx) => {
    const review = await selectReview(tx, orgId, reviewId, { forUpdate: true });
    if (!review) throw resourceNotFound('Management review', { reviewId });
    if (review.state === 'closed') throw conflict('The management review is already closed', { reviewId });
    const {
      state: _state,
      contentHash: _hash,
      closedAt: _closedAt,
      updatedAt: _updatedAt,
      ...content
    } = reviewView(review);
    const contentHash = createHash('sha256')
      .update(canonicalize(content) as string)
      .digest('hex');
    await updateReview(
      tx,
      { ...review, state: 'closed', contentHash, closedAt: new Date().toISOString() },
      new Date(),
    );
  });
  return getReview(em, orgId, reviewId);
}

/** Decisions of every review with a due date (the agenda's `decision_due` items). */
export async function datedDecisions(em: Em, orgId: string) {
  return (await selectReviews(em, orgId)).flatMap((review) =>
    review.decisions
      .map((decision, index) => ({ reviewId: review.reviewId, index, ...decision }))
      .filter((decision) => decision.dueDate !== undefined),
  );
}
