/** Management reviews: the only module that reads or writes `management_reviews`. */
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';

export interface Decision {
  text: string;
  owner?: string;
  dueDate?: string;
}

export interface ReviewRow {
  reviewId: string;
  orgId: string;
  heldAt: string;
  attendees: string[];
  periodFrom: string;
  periodTo: string;
  inputs: Record<string, unknown>;
  notes: Record<string, string>;
  decisions: Decision[];
  state: 'open' | 'closed';
  contentHash: string | null;
  closedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const COLUMNS = `review_id as "reviewId", org_id as "orgId", held_at as "heldAt", attendees, period_from as "periodFrom",
  period_to as "periodTo", inputs, notes, decisions, state, content_hash as "contentHash", closed_at as "closedAt",
  created_at as "createdAt", updated_at as "updatedAt"`;

const toReview = (row: ReviewRow): ReviewRow => ({
  ...row,
  heldAt: toIso(row.heldAt),
  periodFrom: toIso(row.periodFrom),
  periodTo: toIso(row.periodTo),
  closedAt: toIsoOrNull(row.closedAt),
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

export async function insertReview(
  em: Em,
  review: Pick<
    ReviewRow,
    'reviewId' | 'orgId' | 'heldAt' | 'attendees' | 'periodFrom' | 'periodTo' | 'inputs'
  >,
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into management_reviews (review_id, org_id, held_at, attendees, period_from, period_to, inputs, state,
       created_at, updated_at) values (?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, 'open', ?, ?)`,
    [
      review.reviewId,
      review.orgId,
      review.heldAt,
      JSON.stringify(review.attendees),
      review.periodFrom,
      review.periodTo,
      JSON.stringify(review.inputs),
      now,
      now,
    ],
  );
}

/** The org's reviews, latest held first. */
export async function selectReviews(em: Em, orgId: string): Promise<ReviewRow[]> {
  const rows = await em.execute<ReviewRow[]>(
    `select ${COLUMNS} from management_reviews where org_id = ? order by held_at desc, review_id`,
    [orgId],
  );
  return rows.map(toReview);
}

export async function selectReview(
  em: Em,
  orgId: string,
  reviewId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ReviewRow | null> {
  const [row] = await em.execute<ReviewRow[]>(
    `select ${COLUMNS} from management_reviews where org_id = ? and review_id = ?${options.forUpdate ? ' for update' : ''}`,
    [orgId, reviewId],
  );
  return row ? toReview(row) : null;
}

export async function updateReview(em: Em, review: ReviewRow, now: Date): Promise<void> {
  await em.execute(
    `update management_reviews set notes = ?::jsonb, decisions = ?::jsonb, attendees = ?::jsonb, state = ?,
       content_hash = ?, closed_at = ?, updated_at = ? where org_id = ? and review_id = ?`,
    [
      JSON.stringify(review.notes),
      JSON.stringify(review.decisions),
      JSON.stringify(review.attendees),
      review.state,
      review.contentHash,
      review.closedAt,
      now,
      review.orgId,
      review.reviewId,
    ],
  );
}
