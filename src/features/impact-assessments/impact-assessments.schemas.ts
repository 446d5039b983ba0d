import { Type } from 'typebox';
import { Identifier, Nullable, OrgId, PlainText, Timestamp } from '../../shared/schemas.js';

/** The kinds of question a template asks, and the answer each takes (see `AnswerValue`). */
export const QUESTION_KINDS = ['text', 'choice', 'multi', 'scale'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/**
 * An assessment's life: a `draft` is edited, `submitted` waits for a second person, `approved` is frozen and
 * is evidence, `superseded` is an approved version a later approved version replaced.
 */
export const ASSESSMENT_STATES = ['draft', 'submitted', 'approved', 'superseded'] as const;
export type AssessmentState = (typeof ASSESSMENT_STATES)[number];

/** Who or what an impact reaches. */
export const AFFECTED = ['individuals', 'groups', 'society', 'environment'] as const;

/** Why an approved assessment is due to be done again. */
export const REASSESSMENT_REASONS = [
  'risk_level_changed',
  'lifecycle_stage_changed',
  'purpose_changed',
  'review_due',
] as const;

const TemplateId = Identifier('Template id, e.g. iso-42001-aiia');
const QuestionId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9-]*$' });

export const QuestionSchema = Type.Object({
  questionId: QuestionId,
  text: Type.String(),
  help: Type.Optional(Type.String({ description: 'What a good answer covers' })),
  kind: Type.Enum(QUESTION_KINDS, {
    description:
      'text: a string | choice: one of `options` | multi: a list of `options` | scale: an integer 1..n, ' +
      'where `options` names the n points from lowest to highest',
  }),
  options: Type.Optional(Type.Array(Type.String())),
  required: Type.Boolean({ description: 'Must be answered before the assessment can be submitted' }),
});

export const SectionSchema = Type.Object({
  sectionId: Type.String(),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  questions: Type.Array(QuestionSchema),
});

export const RequirementRefSchema = Type.Object({
  frameworkId: Type.String(),
  requirementId: Type.String(),
});

export const TemplateSchema = Type.Object({
  templateId: Type.String(),
  name: Type.String(),
  description: Type.String(),
  version: Type.Integer({ description: 'Raised whenever a question is added, removed or changes meaning' }),
  sections: Type.Array(SectionSchema),
  evidenceFor: Type.Array(RequirementRefSchema, {
    description: 'The requirements an approved assessment of this template is evidence for',
  }),
});

export const TemplateListSchema = Type.Object({ templates: Type.Array(TemplateSchema) });

export const TemplateParams = Type.Object({ templateId: TemplateId });

/** One answer: text for `text` and `choice`, a list for `multi`, an integer for `scale`. */
export const AnswerValue = Type.Union([
  PlainText({ maxLength: 20_000 }),
  Type.Integer(),
  Type.Array(PlainText({ maxLength: 500 }), { maxItems: 100 }),
]);

export const ImpactSchema = Type.Object(
  {
    affected: Type.Enum(AFFECTED, { description: AFFECTED.join(' | ') }),
    rights: Type.Optional(
      Type.Array(PlainText({ minLength: 1, maxLength: 200 }), {
        maxItems: 50,
        description: 'The rights or interests at stake (non-discrimination, privacy, …)',
      }),
    ),
    description: PlainText({ minLength: 1, maxLength: 4000 }),
    likelihood: Type.Integer({ minimum: 1, maximum: 5, description: '1 (rare) .. 5 (almost certain)' }),
    severity: Type.Integer({ minimum: 1, maximum: 5, description: '1 (negligible) .. 5 (critical)' }),
    mitigation: Type.Optional(PlainText({ maxLength: 4000 })),
    riskId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "A risk of the org's register this impact raised",
      }),
    ),
  },
  { additionalProperties: false },
);

const ActorSchema = Type.Object({
  type: Type.String({ description: 'user | key' }),
  id: Type.String(),
  name: Type.String(),
});

export const ApproverSchema = Type.Object({
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
});

const SystemStateSchema = Type.Object({
  riskLevel: Type.String(),
  lifecycleStage: Type.String(),
  purpose: Type.String(),
});

export const ReassessmentSchema = Type.Object(
  {
    due: Type.Boolean(),
    reasons: Type.Array(
      Type.Object({
        code: Type.Enum(REASSESSMENT_REASONS, { description: REASSESSMENT_REASONS.join(' | ') }),
        message: Type.String(),
      }),
    ),
  },
  {
    description:
      "Computed when read, for an approved assessment: due when the AI system's risk level, lifecycle stage or " +
      'purpose differ from what they were at approval, or once reviewDue has passed',
  },
);

export const AssessmentSchema = Type.Object({
  assessmentId: Type.String(),
  orgId: Type.String(),
  systemId: Type.String(),
  templateId: Type.String(),
  templateVersion: Type.Integer(),
  version: Type.Integer({ description: '1, then one more with each revision' }),
  state: Type.Enum(ASSESSMENT_STATES, { description: ASSESSMENT_STATES.join(' | ') }),
  answers: Type.Record(Type.String(), AnswerValue, { description: 'By questionId' }),
  impacts: Type.Array(ImpactSchema),
  createdBy: Nullable(ActorSchema),
  submittedBy: Nullable(ActorSchema),
  submittedAt: Nullable(Timestamp),
  approvedBy: Nullable(ApproverSchema),
  approvedAt: Nullable(Timestamp),
  reviewDue: Nullable(Timestamp),
  contentHash: Nullable(
    Type.String({
      description:
        'SHA-256 (hex) of the RFC 8785 JSON of {assessmentId, systemId, templateId, templateVersion, version, ' +
        'answers, impacts, system, submittedBy, submittedAt, approvedBy, approvedAt, reviewDue}, set on approval',
    }),
  ),
  systemAtApproval: Nullable(SystemStateSchema),
  evidence: Type.Array(
    Type.Object({ frameworkId: Type.String(), requirementId: Type.String(), evidenceId: Type.String() }),
    { description: 'The evidence items the approval added, one per requirement of the template' },
  ),
  supersededBy: Nullable(Type.String()),
  reassessment: ReassessmentSchema,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const AssessmentParams = Type.Object({
  orgId: OrgId,
  assessmentId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const SystemAssessmentParams = Type.Object({
  orgId: OrgId,
  systemId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const StartAssessmentBody = Type.Object({ templateId: TemplateId }, { additionalProperties: false });

export const UpdateAssessmentBody = Type.Object(
  {
    answers: Type.Optional(
      Type.Record(Type.String({ maxLength: 64 }), Type.Union([AnswerValue, Type.Null()]), {
        maxProperties: 500,
        description: 'By questionId; merged into the answers so far, null removes one',
      }),
    ),
    impacts: Type.Optional(
      Type.Array(ImpactSchema, { maxItems: 200, description: 'Replaces the whole list' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const AssessmentListQuery = Type.Object({
  state: Type.Optional(Type.Enum(ASSESSMENT_STATES, { description: ASSESSMENT_STATES.join(' | ') })),
  due: Type.Optional(
    Type.Boolean({ description: 'true: only approved assessments due for re-assessment; false: the others' }),
  ),
  systemId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  templateId: Type.Optional(TemplateId),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size, 1..200' }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});

export const AssessmentPageSchema = Type.Object({
  orgId: Type.String(),
  assessments: Type.Array(AssessmentSchema, { description: 'Most recently changed first' }),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const SystemAssessmentListSchema = Type.Object({
  orgId: Type.String(),
  systemId: Type.String(),
  assessments: Type.Array(AssessmentSchema, { description: 'By template, newest version first' }),
});
