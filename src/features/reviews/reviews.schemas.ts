import { Type } from 'typebox';
import { DateTimeString, Nullable, OrgId, PlainText, Timestamp } from '../../shared/schemas.js';

export const DecisionSchema = Type.Object(
  {
    text: PlainText({ minLength: 1, maxLength: 5_000 }),
    owner: Type.Optional(PlainText({ minLength: 1, maxLength: 200 })),
    dueDate: Type.Optional(DateTimeString('When the action is due')),
  },
  { additionalProperties: false },
);

export const ReviewSchema = Type.Object({
  reviewId: Type.String(),
  heldAt: Timestamp,
  attendees: Type.Array(Type.String()),
  period: Type.Object({ from: Timestamp, to: Timestamp }),
  inputs: Type.Record(Type.String(), Type.Unknown(), {
    description:
      'Computed from the org’s records for the period when the review was created: earlierActions (decisions of ' +
      'earlier reviews, overdue flagged), scores (every framework at from and at to), nonconformities (opened, ' +
      'closed, open at the end, by kind), audits (completed, findings by kind), attestations (by level), risks (by ' +
      'level and state, acceptances expiring within 90 days after the period), opportunities',
  }),
  notes: Type.Record(Type.String(), Type.String(), { description: 'Notes per input' }),
  decisions: Type.Array(DecisionSchema),
  state: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  contentHash: Nullable(
    Type.String({ description: 'Closed reviews: SHA-256 of the RFC 8785 JSON of their content' }),
  ),
  closedAt: Nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const ReviewListSchema = Type.Object({ orgId: Type.String(), reviews: Type.Array(ReviewSchema) });

const Attendees = Type.Array(PlainText({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 100 });

export const CreateReviewBody = Type.Object(
  {
    heldAt: DateTimeString('When the review is held'),
    attendees: Attendees,
    period: Type.Object(
      {
        from: DateTimeString('Start of the period reviewed'),
        to: DateTimeString('End of the period reviewed (exclusive)'),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

export const UpdateReviewBody = Type.Object(
  {
    notes: Type.Optional(Type.Record(Type.String(), PlainText({ maxLength: 20_000 }))),
    decisions: Type.Optional(Type.Array(DecisionSchema, { maxItems: 200 })),
    attendees: Type.Optional(Attendees),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ReviewParams = Type.Object({
  orgId: OrgId,
  reviewId: Type.String({ minLength: 1, maxLength: 64 }),
});
