import type { FeatureRoutes } from '../../context.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import {
  CreateReviewBody,
  ReviewListSchema,
  ReviewParams,
  ReviewSchema,
  UpdateReviewBody,
} from './reviews.schemas.js';
import { closeReview, getReview, holdReview, listReviews, recordReview } from './reviews.service.js';

const TAG = 'management reviews';

/** Management reviews (ISO/IEC 42001 9.3), under the org scope. */
export const reviewRoutes: FeatureRoutes = async function reviewRoutes(app, { ctx }) {
  app.post(
    '/orgs/:orgId/management-reviews',
    {
      schema: {
        tags: [TAG],
        summary: 'Hold a management review: its inputs are computed from the org’s records for the period',
        params: OrgIdParam,
        body: CreateReviewBody,
        response: { 201: ReviewSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const review = await holdReview(ctx.db.em(), request.params.orgId, request.body);
      return reply
        .status(201)
        .header(
          'location',
          `/api/v1/orgs/${encodeURIComponent(request.params.orgId)}/management-reviews/${review.reviewId}`,
        )
        .send(review);
    },
  );

  app.get(
    '/orgs/:orgId/management-reviews',
    {
      schema: {
        tags: [TAG],
        summary: 'The management reviews, latest first',
        params: OrgIdParam,
        response: { 200: ReviewListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orgId: request.params.orgId,
      reviews: await listReviews(ctx.db.em(), request.params.orgId),
    }),
  );

  app.get(
    '/orgs/:orgId/management-reviews/:reviewId',
    {
      schema: {
        tags: [TAG],
        summary: 'One management review',
        params: ReviewParams,
        response: { 200: ReviewSchema, ...errorResponses },
      },
    },
    async (request) => getReview(ctx.db.em(), request.params.orgId, request.params.reviewId),
  );

  app.put(
    '/orgs/:orgId/management-reviews/:reviewId',
    {
      schema: {
        tags: [TAG],
        summary: 'Add notes per input, the decisions (with owner and due date), attendees — while open',
        params: ReviewParams,
        body: UpdateReviewBody,
        response: { 200: ReviewSchema, ...errorResponses },
      },
    },
    async (request) => recordReview(ctx.db.em(), request.params.orgId, request.params.reviewId, request.body),
  );

  app.post(
    '/orgs/:orgId/management-reviews/:reviewId/close',
    {
      schema: {
        tags: [TAG],
        summary: 'Close the review: it is frozen with a content hash',
        params: ReviewParams,
        response: { 200: ReviewSchema, ...errorResponses },
      },
    },
    async (request) => closeReview(ctx.db.em(), request.params.orgId, request.params.reviewId),
  );
};
