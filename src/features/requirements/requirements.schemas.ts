import { Type } from 'typebox';
import {
  ControlStatusSchema,
  CountsSchema,
  EvidenceRefSchema,
  InstantString,
  IntervalSchema,
  Nullable,
  OrgId,
  PlainText,
  Timestamp,
} from '../../shared/schemas.js';
import { ASSESSMENT_SOURCES, REQUIREMENT_STATUSES } from '../../shared/vocabulary.js';
import { JustificationSchema } from '../cte/cte.schemas.js';
import {
  EvidenceItemParams as ControlEvidenceItemParams,
  EvidenceListSchema as ControlEvidenceListSchema,
  EvidenceSchema as ControlEvidenceSchema,
} from '../evidence/evidence.schemas.js';

const FrameworkId = Type.String({
  minLength: 1,
  maxLength: 128,
  description:
    'iso-42001, iso-42001-clauses, nist-ai-rmf, eu-ai-act, iso-27001, iso-27001-clauses, gdpr, or an imported slug',
});
const RequirementId = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "The framework's own notation, path-encoded: A.6.2.8, GOVERN%201.1, Art.%2026(6), AC-2(1)",
});

export const OrgFrameworkParams = Type.Object({ orgId: OrgId, frameworkId: FrameworkId });
export const OrgRequirementParams = Type.Object({
  orgId: OrgId,
  frameworkId: FrameworkId,
  requirementId: RequirementId,
});
export const OrgRequirementEvidenceItemParams = Type.Object({
  ...OrgRequirementParams.properties,
  evidenceId: ControlEvidenceItemParams.properties.evidenceId,
});

const Score = Nullable(
  Type.Number({ description: '100 × (implemented + 0.5 × in_progress) / applicable, one decimal' }),
);
const AssessmentSchema = Type.Enum(ASSESSMENT_SOURCES, {
  description: 'direct (the org recorded the status) | inferred (the crosswalk gives it) | none',
});
const AssessedSchema = Type.Object(
  { direct: Type.Integer(), inferred: Type.Integer(), none: Type.Integer() },
  { description: 'How many applicable requirements take their status from each source' },
);

export const FrameworkScoreSchema = Type.Object({
  score: Score,
  counts: CountsSchema,
  assessed: AssessedSchema,
  directScore: Nullable(Type.Number({ description: 'The score counting direct records only' })),
});

export const OrgFrameworkListSchema = Type.Object({
  orgId: Type.String(),
  frameworks: Type.Array(
    Type.Object({
      frameworkId: Type.String(),
      name: Type.String(),
      controlCount: Type.Integer({ description: 'Requirements in the framework' }),
      ...FrameworkScoreSchema.properties,
      coverage: Nullable(
        Type.Number({ description: 'CTE coverage, 0..1: (covered + 0.5 × partial) / applicable' }),
      ),
    }),
  ),
});

export const FrameworkComplianceSchema = Type.Object({
  orgId: Type.String(),
  frameworkId: Type.String(),
  ...FrameworkScoreSchema.properties,
  byDomain: Type.Array(
    Type.Object({
      domain: Type.String(),
      domainTitle: Type.String(),
      score: Score,
      controlCount: Type.Integer(),
      counts: CountsSchema,
    }),
    { description: 'Per domain, for frameworks that have domains' },
  ),
  computedAt: Timestamp,
});

export const FrameworkHistoryQuery = Type.Object({
  from: Type.Optional(InstantString('Start of the range')),
  to: Type.Optional(InstantString('End of the range')),
  interval: Type.Optional(IntervalSchema),
});

const InferredSchema = Type.Object(
  {
    status: ControlStatusSchema,
    coverage: Type.Enum(['covered', 'partial', 'uncovered'], {
      description: 'What the crosswalk gives from the other frameworks’ direct records',
    }),
    from: Type.Array(Type.Object({ frameworkId: Type.String(), requirementId: Type.String() }), {
      description: 'The records behind it, strongest first',
    }),
    justifications: Type.Optional(
      Type.Array(JustificationSchema, {
        description: 'The full reasoning (on the single-requirement route)',
      }),
    ),
  },
  { description: 'What the crosswalk infers, shown even when a direct record overrides it' },
);

export const RequirementEntrySchema = Type.Object({
  requirementId: Type.String(),
  title: Type.String(),
  domain: Type.Optional(Type.String()),
  status: ControlStatusSchema,
  applicable: Type.Boolean(),
  justification: Nullable(Type.String()),
  reviewer: Nullable(Type.String()),
  owner: Nullable(Type.String()),
  note: Nullable(Type.String()),
  updatedAt: Nullable(Timestamp),
  assessment: AssessmentSchema,
  inferred: InferredSchema,
  evidenceCount: Type.Integer(),
  evidenceExpired: Type.Boolean({ description: 'It has evidence and all of it has expired' }),
  evidence: Type.Array(EvidenceRefSchema, { description: 'The latest three evidence items, newest first' }),
  findings: Type.Optional(
    Type.Array(Type.Object({ findingId: Type.String(), kind: Type.String(), state: Type.String() }), {
      description:
        'Open major nonconformities on the requirement (absent when none): while one is open the requirement ' +
        'counts at most as in_progress',
    }),
  ),
});

export const RequirementListQuery = Type.Object({
  status: Type.Optional(ControlStatusSchema),
  applicable: Type.Optional(Type.Boolean()),
  assessment: Type.Optional(AssessmentSchema),
});

export const RequirementListSchema = Type.Object({
  orgId: Type.String(),
  frameworkId: Type.String(),
  requirements: Type.Array(RequirementEntrySchema),
});

export const RequirementItemSchema = Type.Object({
  orgId: Type.String(),
  frameworkId: Type.String(),
  ...RequirementEntrySchema.properties,
});

export const RequirementStatusBody = Type.Object(
  {
    status: ControlStatusSchema,
    reviewer: PlainText({ minLength: 1, maxLength: 200, description: 'Who decided' }),
    note: Type.Optional(PlainText({ maxLength: 4000 })),
    owner: Type.Optional(PlainText({ minLength: 1, maxLength: 200, description: 'Who is responsible' })),
  },
  { additionalProperties: false },
);

export const RequirementApplicabilityBody = Type.Object(
  {
    applicable: Type.Boolean(),
    justification: PlainText({ minLength: 1, maxLength: 4000, description: 'Why it does or does not apply' }),
    reviewer: PlainText({ minLength: 1, maxLength: 200, description: 'Who decided' }),
  },
  { additionalProperties: false },
);

/** Evidence of a requirement of any framework: the control evidence shapes plus the framework and requirement. */
export const RequirementEvidenceSchema = Type.Object({
  ...ControlEvidenceSchema.properties,
  frameworkId: Type.String(),
  requirementId: Type.String(),
});
export const RequirementEvidenceListSchema = Type.Object({
  ...ControlEvidenceListSchema.properties,
  frameworkId: Type.String(),
  requirementId: Type.String(),
  evidence: Type.Array(RequirementEvidenceSchema, { description: 'Newest first' }),
});

/** The most rows one import takes: a framework's worth with room to spare (SP 800-53 has about 1,200). */
export const MAX_IMPORT_ROWS = 5000;

const IMPORT_DESCRIPTION =
  'empty or absent: left as it is. Checked row by row with the others, so that a refusal lists every bad row';

/** One row of an import: a requirement and what to record on it (JSON rows; a CSV file has these columns). */
export const ImportRowSchema = Type.Object(
  {
    requirementId: PlainText({
      maxLength: 200,
      description: "The requirement's id in the framework's own notation (A.6.2.8, Art. 26(6), GOVERN 1.1)",
    }),
    status: Type.Optional(
      PlainText({
        maxLength: 64,
        description: `${REQUIREMENT_STATUSES.join(' | ')} (case and spaces aside: "In progress" reads as in_progress); ${IMPORT_DESCRIPTION}`,
      }),
    ),
    applicable: Type.Optional(
      Type.Boolean({ description: 'false needs a justification; in CSV true/false, yes/no or 1/0' }),
    ),
    justification: Type.Optional(
      PlainText({ maxLength: 4000, description: 'Why it does or does not apply; goes with applicable' }),
    ),
    note: Type.Optional(
      PlainText({ maxLength: 4000, description: `Kept on the record; ${IMPORT_DESCRIPTION}` }),
    ),
    owner: Type.Optional(PlainText({ maxLength: 200, description: 'Who is responsible' })),
  },
  { additionalProperties: false },
);

export const ImportBody = Type.Object(
  {
    rows: Type.Array(ImportRowSchema, {
      description: `At most ${MAX_IMPORT_ROWS}; an error names a row by its 1-based position here`,
    }),
    dryRun: Type.Optional(Type.Boolean({ description: 'Validate and report, write nothing' })),
    reviewer: Type.Optional(
      PlainText({ minLength: 1, maxLength: 200, description: 'Who decided (an API key must name them)' }),
    ),
  },
  { additionalProperties: false },
);

export const ImportCsvBody = Type.String({
  description:
    'A CSV file (RFC 4180, UTF-8, a byte order mark allowed): a header row naming the columns requirementId, ' +
    'status, applicable, justification, note, owner (any case; title and domain are read and ignored), then ' +
    'one row per requirement. An error names a row by its line in the file.',
});

export const ImportQuery = Type.Object(
  {
    dryRun: Type.Optional(Type.Boolean({ description: 'Validate and report, write nothing' })),
    reviewer: Type.Optional(
      PlainText({ minLength: 1, maxLength: 200, description: 'Who decided (an API key must name them)' }),
    ),
  },
  { additionalProperties: false },
);

const IMPORT_OUTCOMES = ['created', 'changed', 'unchanged'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];
export const IMPORT_FIELDS = ['status', 'applicable', 'justification', 'note', 'owner'] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const ImportResultSchema = Type.Object({
  orgId: Type.String(),
  frameworkId: Type.String(),
  dryRun: Type.Boolean({ description: 'True: nothing was written; the counts say what the import would do' }),
  counts: Type.Object({
    created: Type.Integer({ description: 'Requirements that had no record yet' }),
    changed: Type.Integer(),
    unchanged: Type.Integer({ description: 'Rows equal to the record: nothing written, nothing logged' }),
  }),
  rows: Type.Array(
    Type.Object({
      row: Type.Integer({
        description: 'The line in the file (CSV) or the position in `rows` (JSON), from 1',
      }),
      requirementId: Type.String(),
      outcome: Type.Enum(IMPORT_OUTCOMES, { description: IMPORT_OUTCOMES.join(' | ') }),
      fields: Type.Array(Type.Enum(IMPORT_FIELDS), { description: 'What the row changes on the record' }),
    }),
  ),
});

/** One refused row, as a `400`'s `details.rows` lists them. */
export const ImportRowErrorSchema = Type.Object({
  row: Type.Integer({ description: 'The line in the file (CSV) or the position in `rows` (JSON), from 1' }),
  column: Nullable(Type.String({ description: 'The column at fault; null for the row or file as a whole' })),
  message: Type.String(),
});
