import { Type } from 'typebox';
import { InstantString, OrgId, Timestamp } from '../../shared/schemas.js';
import { DUE_KINDS } from '../../shared/vocabulary.js';

export const DueItemSchema = Type.Object({
  kind: Type.Enum(DUE_KINDS, { description: DUE_KINDS.join(' | ') }),
  dueAt: Timestamp,
  overdue: Type.Boolean(),
  owner: Type.Optional(Type.String()),
  title: Type.String(),
  resource: Type.Object({ type: Type.String(), id: Type.String() }),
});

export const AgendaSchema = Type.Object({
  orgId: Type.String(),
  items: Type.Array(DueItemSchema, { description: 'Soonest first; overdue items come first by nature' }),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const AgendaQuery = Type.Object(
  {
    from: Type.Optional(InstantString('Items due at or after')),
    to: Type.Optional(InstantString('Items due before')),
    owner: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Items of this owner (any case)' }),
    ),
    kind: Type.Optional(Type.Enum(DUE_KINDS, { description: DUE_KINDS.join(' | ') })),
    overdue: Type.Optional(
      Type.Boolean({ description: 'true: only overdue items; false: only those still ahead' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

export const AgendaParams = Type.Object({ orgId: OrgId });
