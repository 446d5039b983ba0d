import { Type } from 'typebox';
import { Identifier, Nullable, OrgId, PlainText, Timestamp } from '../../shared/schemas.js';
import { WEBHOOK_EVENT_TYPES } from '../../shared/vocabulary.js';

export const WebhookEventTypeSchema = Type.Enum(WEBHOOK_EVENT_TYPES, {
  description: WEBHOOK_EVENT_TYPES.join(' | '),
});

export const CreateWebhookBody = Type.Object(
  {
    url: PlainText({
      minLength: 1,
      maxLength: 2000,
      description:
        'The receiver: http or https, without credentials, at a public address (its host is resolved now and ' +
        'on every delivery; loopback, private, link-local and other internal addresses are refused unless the ' +
        'daemon runs with COMPLY_WEBHOOK_ALLOW_PRIVATE=true)',
    }),
    events: Type.Array(WebhookEventTypeSchema, {
      minItems: 1,
      maxItems: WEBHOOK_EVENT_TYPES.length,
      uniqueItems: true,
      description: 'The events the receiver gets',
    }),
    description: Type.Optional(PlainText({ minLength: 1, maxLength: 500 })),
  },
  { additionalProperties: false },
);

const webhookFields = {
  webhookId: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Nullable(Type.String()),
  createdBy: Nullable(Type.String({ description: 'The person (user id) or key (key id) that added it' })),
  createdAt: Timestamp,
};

export const WebhookSchema = Type.Object(webhookFields);

export const CreatedWebhookSchema = Type.Object({
  ...webhookFields,
  secret: Type.String({
    description:
      'The signing secret (`whsec_…`), shown only in this response: verify each delivery’s `webhook-signature` ' +
      'with it, using a Standard Webhooks library',
  }),
});

export const WebhookListSchema = Type.Object({ orgId: Type.String(), webhooks: Type.Array(WebhookSchema) });

export const WebhookParams = Type.Object({ orgId: OrgId, webhookId: Identifier('Webhook identifier') });

export const DeliveryAttemptSchema = Type.Object({
  eventId: Type.String({ description: 'The audit event delivered: the `webhook-id` header' }),
  type: Type.String(),
  attempt: Type.Integer({ description: '1 for the first attempt' }),
  statusCode: Nullable(Type.Integer({ description: 'The receiver’s HTTP status; null when none came' })),
  error: Nullable(Type.String({ description: 'Why the attempt failed; null when it delivered' })),
  durationMs: Type.Integer(),
  outcome: Type.Union([Type.Literal('delivered'), Type.Literal('retrying'), Type.Literal('failed')], {
    description:
      'delivered | retrying (another attempt follows) | failed (the last attempt failed: given up)',
  }),
  at: Timestamp,
});

export const DeliveryLogSchema = Type.Object({
  webhookId: Type.String(),
  deliveries: Type.Array(DeliveryAttemptSchema, { description: 'Every attempt, newest first' }),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const DeliveryLogQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
  },
  { additionalProperties: false },
);
