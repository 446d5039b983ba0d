import { Type } from 'typebox';
import {
  DateTimeString,
  Nullable,
  OrgId,
  PlainText,
  RequirementRefSchema,
  Timestamp,
} from '../../shared/schemas.js';
import { FINDING_KINDS } from '../../shared/vocabulary.js';

export const AuditSchema = Type.Object({
  auditId: Type.String(),
  title: Type.String(),
  frameworkIds: Type.Array(Type.String()),
  criteria: Nullable(Type.String()),
  leadAuditor: Type.String(),
  plannedStart: Timestamp,
  plannedEnd: Timestamp,
  state: Type.Union([Type.Literal('planned'), Type.Literal('in_progress'), Type.Literal('completed')]),
  conclusion: Nullable(Type.String()),
  startedAt: Nullable(Timestamp),
  completedAt: Nullable(Timestamp),
  findings: Type.Object({
    open: Type.Integer(),
    closed: Type.Integer(),
    byKind: Type.Record(Type.String(), Type.Integer()),
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const AuditListSchema = Type.Object({ orgId: Type.String(), audits: Type.Array(AuditSchema) });

export const CreateAuditBody = Type.Object(
  {
    title: PlainText({ minLength: 1, maxLength: 300 }),
    frameworkIds: Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
      minItems: 1,
      maxItems: 50,
      uniqueItems: true,
    }),
    criteria: Type.Optional(PlainText({ maxLength: 10_000 })),
    leadAuditor: PlainText({ minLength: 1, maxLength: 200 }),
    plannedStart: DateTimeString('Planned start'),
    plannedEnd: DateTimeString('Planned end, not before the start'),
  },
  { additionalProperties: false },
);

export const UpdateAuditBody = Type.Object(
  {
    state: Type.Optional(
      Type.Union([Type.Literal('in_progress'), Type.Literal('completed')], {
        description: 'planned → in_progress → completed (a conclusion is required to complete)',
      }),
    ),
    conclusion: Type.Optional(PlainText({ minLength: 1, maxLength: 20_000 })),
    title: Type.Optional(PlainText({ minLength: 1, maxLength: 300 })),
    criteria: Type.Optional(PlainText({ maxLength: 10_000 })),
    leadAuditor: Type.Optional(PlainText({ minLength: 1, maxLength: 200 })),
    plannedStart: Type.Optional(DateTimeString('Planned start')),
    plannedEnd: Type.Optional(DateTimeString('Planned end')),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const FindingKindSchema = Type.Enum(FINDING_KINDS, { description: FINDING_KINDS.join(' | ') });

export const EffectivenessCheckSchema = Type.Object({
  checkId: Type.String(),
  effective: Type.Boolean(),
  note: Type.String(),
  evidenceIds: Type.Array(Type.String()),
  checkedBy: Type.Object({ userId: Type.String(), email: Type.String(), name: Type.String() }),
  checkedAt: Timestamp,
});

export const FindingSchema = Type.Object({
  findingId: Type.String(),
  auditId: Type.String(),
  kind: FindingKindSchema,
  requirements: Type.Array(
    Type.Object({ frameworkId: Type.String(), requirementId: Type.String(), status: Type.String() }),
    { description: 'The requirements the finding is about, with their effective status now' },
  ),
  description: Type.String(),
  owner: Nullable(Type.String()),
  dueDate: Nullable(Timestamp),
  rootCause: Nullable(Type.String()),
  correctiveAction: Nullable(Type.String()),
  state: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  caps: Type.Boolean({
    description: 'An open major nonconformity: its requirements count at most as in progress',
  }),
  checks: Type.Array(EffectivenessCheckSchema, { description: 'Effectiveness checks, oldest first' }),
  openedAt: Timestamp,
  closedAt: Nullable(Timestamp),
  updatedAt: Timestamp,
});

export const FindingListSchema = Type.Object({ orgId: Type.String(), findings: Type.Array(FindingSchema) });

export const CreateFindingBody = Type.Object(
  {
    kind: FindingKindSchema,
    requirements: Type.Array(RequirementRefSchema, { maxItems: 100 }),
    description: PlainText({ minLength: 1, maxLength: 20_000 }),
    owner: Type.Optional(PlainText({ minLength: 1, maxLength: 200 })),
    dueDate: Type.Optional(DateTimeString('When the corrective action is due')),
  },
  { additionalProperties: false },
);

export const UpdateFindingBody = Type.Object(
  {
    rootCause: Type.Optional(Nullable(PlainText({ maxLength: 20_000 }))),
    correctiveAction: Type.Optional(Nullable(PlainText({ maxLength: 20_000 }))),
    owner: Type.Optional(Nullable(PlainText({ minLength: 1, maxLength: 200 }))),
    dueDate: Type.Optional(Nullable(DateTimeString('When the corrective action is due'))),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const CloseFindingBody = Type.Object(
  {
    effective: Type.Boolean({
      description: 'Whether the corrective action worked; only true closes the finding',
    }),
    note: PlainText({ minLength: 1, maxLength: 20_000 }),
    evidenceIds: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, uniqueItems: true }),
    ),
  },
  { additionalProperties: false },
);

export const AuditParams = Type.Object({
  orgId: OrgId,
  auditId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const FindingParams = Type.Object({
  orgId: OrgId,
  auditId: Type.String({ minLength: 1, maxLength: 64 }),
  findingId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const OrgFindingParams = Type.Object({
  orgId: OrgId,
  findingId: Type.String({ minLength: 1, maxLength: 64 }),
});
export const FindingQuery = Type.Object(
  {
    state: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('closed')])),
    kind: Type.Optional(FindingKindSchema),
  },
  { additionalProperties: false },
);
