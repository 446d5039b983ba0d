import { Type } from 'typebox';
import {
  DateTimeString,
  Nullable,
  OrgId,
  PlainText,
  RequirementRefSchema,
  Timestamp,
} from '../../shared/schemas.js';
import {
  ACCEPTANCE_STATES,
  RISK_SCORE_LEVELS,
  RISK_STATES,
  TREATMENT_OPTIONS,
} from '../../shared/vocabulary.js';

export const RiskLevelSchema = Type.Enum(RISK_SCORE_LEVELS, { description: RISK_SCORE_LEVELS.join(' | ') });
const RiskStateSchema = Type.Enum(RISK_STATES, {
  description:
    'Derived, never written: open (no treatment) | treating (its requirements not all implemented) | treated ' +
    '(all implemented, residual acceptable) | accepted (a valid acceptance) | needs_acceptance (residual above ' +
    'the acceptable level, or option accept, without a valid acceptance)',
});
const Rating = (description: string) => Type.Integer({ minimum: 1, maximum: 5, description });

export const LevelBandSchema = Type.Object(
  {
    level: RiskLevelSchema,
    min: Type.Integer({ minimum: 1, maximum: 25 }),
    max: Type.Integer({ minimum: 1, maximum: 25 }),
  },
  { additionalProperties: false },
);

export const RiskCriteriaSchema = Type.Object({
  orgId: Type.String(),
  likelihood: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  impact: Type.Object({ min: Type.Integer(), max: Type.Integer() }),
  levels: Type.Array(LevelBandSchema, { description: 'Score (likelihood × impact) bands, low → critical' }),
  acceptableLevel: RiskLevelSchema,
  custom: Type.Boolean({ description: 'false: the defaults' }),
});

export const RiskCriteriaBody = Type.Object(
  {
    levels: Type.Optional(Type.Array(LevelBandSchema, { minItems: 4, maxItems: 4 })),
    acceptableLevel: Type.Optional(RiskLevelSchema),
  },
  { additionalProperties: false, minProperties: 1 },
);

export { RequirementRefSchema };

export const TreatmentSchema = Type.Object(
  {
    option: Type.Enum(TREATMENT_OPTIONS, { description: TREATMENT_OPTIONS.join(' | ') }),
    requirements: Type.Array(RequirementRefSchema, {
      maxItems: 200,
      description:
        'The requirements (any framework, built in or imported) whose implementation treats the risk',
    }),
    plan: Type.Optional(PlainText({ maxLength: 10_000 })),
    dueDate: Type.Optional(DateTimeString('When the treatment is due')),
  },
  { additionalProperties: false },
);

const riskFields = {
  title: PlainText({ minLength: 1, maxLength: 300 }),
  description: Type.Optional(Nullable(PlainText({ maxLength: 10_000 }))),
  systemIds: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
      maxItems: 200,
      uniqueItems: true,
      description: 'The AI systems the risk arises from (ids or unique names)',
    }),
  ),
  category: Type.Optional(Nullable(PlainText({ maxLength: 200 }))),
  owner: Type.Optional(Nullable(PlainText({ maxLength: 200 }))),
  likelihood: Rating('Inherent likelihood, 1–5'),
  impact: Rating('Inherent impact, 1–5'),
  treatment: Type.Optional(Nullable(TreatmentSchema)),
  residualLikelihood: Type.Optional(Nullable(Rating('After treatment; absent: the inherent likelihood'))),
  residualImpact: Type.Optional(Nullable(Rating('After treatment; absent: the inherent impact'))),
  reviewDate: Type.Optional(Nullable(DateTimeString('When the risk is next reviewed'))),
};

export const CreateRiskBody = Type.Object(riskFields, { additionalProperties: false });

export const UpdateRiskBody = Type.Partial(Type.Object(riskFields), {
  additionalProperties: false,
  minProperties: 1,
});

const Rated = Type.Object({ score: Type.Integer(), level: RiskLevelSchema });

export const AcceptanceSchema = Type.Object({
  acceptanceId: Type.String(),
  acceptedBy: Type.Object({ userId: Type.String(), email: Type.String(), name: Type.String() }),
  acceptedAt: Timestamp,
  expiresAt: Timestamp,
  justification: Type.String(),
  stateHash: Type.String({
    description:
      'SHA-256 of the RFC 8785 JSON of the assessed fields (likelihoods, impacts, treatment, systems)',
  }),
  state: Type.Enum(ACCEPTANCE_STATES, {
    description: 'valid | stale (the risk changed since) | expired (past expiresAt)',
  }),
});

export const RiskSchema = Type.Object({
  riskId: Type.String(),
  title: Type.String(),
  description: Nullable(Type.String()),
  systemIds: Type.Array(Type.String()),
  category: Nullable(Type.String()),
  owner: Nullable(Type.String()),
  likelihood: Type.Integer(),
  impact: Type.Integer(),
  residualLikelihood: Type.Integer(),
  residualImpact: Type.Integer(),
  treatment: Nullable(TreatmentSchema),
  reviewDate: Nullable(Timestamp),
  inherent: Rated,
  residual: Rated,
  treatmentProgress: Type.Object({
    implemented: Type.Integer(),
    total: Type.Integer(),
    requirements: Type.Array(
      Type.Object({ frameworkId: Type.String(), requirementId: Type.String(), status: Type.String() }),
      { description: 'Each listed requirement with its effective status (direct or through the crosswalk)' },
    ),
  }),
  treatmentOverdue: Type.Boolean(),
  acceptance: Nullable(AcceptanceSchema),
  state: RiskStateSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const RiskListSchema = Type.Object({
  orgId: Type.String(),
  risks: Type.Array(RiskSchema),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const RiskQuery = Type.Object(
  {
    systemId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    level: Type.Optional(RiskLevelSchema),
    state: Type.Optional(RiskStateSchema),
    requirement: Type.Optional(
      Type.String({ pattern: '^[^:]{1,128}:.{1,128}$', description: '<frameworkId>:<requirementId>' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  },
  { additionalProperties: false },
);

export const AcceptRiskBody = Type.Object(
  {
    justification: PlainText({ minLength: 1, maxLength: 10_000 }),
    expiresAt: DateTimeString('The acceptance lapses then; the risk needs accepting again'),
  },
  { additionalProperties: false },
);

const Matrix = Type.Array(Type.Array(Type.Integer()), {
  description: 'Risks per cell: rows likelihood 1–5, columns impact 1–5',
});

export const RiskSummarySchema = Type.Object({
  orgId: Type.String(),
  counts: Type.Object({
    byLevel: Type.Record(Type.String(), Type.Integer(), { description: 'By residual level' }),
    byState: Type.Record(Type.String(), Type.Integer()),
  }),
  matrix: Type.Object({ inherent: Matrix, residual: Matrix }),
  overdueTreatments: Type.Integer(),
  acceptances: Type.Object({ valid: Type.Integer(), stale: Type.Integer(), expired: Type.Integer() }),
});

export const RiskParams = Type.Object({ orgId: OrgId, riskId: Type.String({ minLength: 1, maxLength: 64 }) });
