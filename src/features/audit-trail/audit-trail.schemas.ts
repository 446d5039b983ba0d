import { Type } from 'typebox';
import { InstantString, Nullable, OrgId, Timestamp } from '../../shared/schemas.js';
import { ACTOR_TYPES } from '../../shared/vocabulary.js';

export const AuditActorSchema = Type.Object({
  type: Type.Enum(ACTOR_TYPES, { description: 'user | key | system' }),
  id: Type.String(),
  name: Type.String(),
});

export const AuditEventSchema = Type.Object({
  eventId: Type.String(),
  seq: Type.Integer({ minimum: 1, description: '1, 2, 3… per org, without gaps' }),
  at: Timestamp,
  actor: AuditActorSchema,
  action: Type.String({ description: '<resource type>.<created | updated | deleted>, or a sign-in event' }),
  resource: Type.Object({ type: Type.String(), id: Type.String() }),
  changes: Type.Optional(
    Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() }), {
      description: 'Each changed field, before and after (secrets are never included)',
    }),
  ),
  requestId: Nullable(Type.String()),
  prevHash: Type.String({ description: 'The previous event’s hash (64 zeros before the first)' }),
  hash: Type.String({
    description: 'SHA-256 (hex) of prevHash followed by the RFC 8785 JSON of the event without hash',
  }),
});

export const AuditLogSchema = Type.Object({
  orgId: Nullable(Type.String({ description: 'null: the platform log (sign-ins, platform changes)' })),
  events: Type.Array(AuditEventSchema, { description: 'Newest first' }),
  nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for the next (older) page' })),
});

export const AuditVerificationSchema = Type.Object({
  orgId: Nullable(Type.String()),
  valid: Type.Boolean(),
  events: Type.Integer({ description: 'Events checked' }),
  headHash: Nullable(Type.String({ description: 'Hash of the newest event' })),
  firstInvalid: Type.Optional(
    Type.Object({ seq: Type.Integer(), eventId: Type.String(), reason: Type.String() }),
  ),
});

export const AuditQuery = Type.Object(
  {
    from: Type.Optional(InstantString('Events at or after')),
    to: Type.Optional(InstantString('Events before')),
    actorId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    action: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    resourceType: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,18}$', description: 'From the previous page' })),
  },
  { additionalProperties: false },
);

export const AuditOrgParams = Type.Object({ orgId: OrgId });
