import { type TSchema, Type } from 'typebox';
import {
  ControlStatusSchema,
  CountsSchema,
  ErrorEnvelopeSchema,
  EvidenceTypeSchema,
  Nullable,
  Score,
  Timestamp,
} from '../../shared/schemas.js';
import {
  ISO_42001,
  OSCAL_FORMATS,
  RISK_SCORE_LEVELS,
  RISK_STATES,
  SOA_CHECK_KINDS,
  SOA_CHECK_SEVERITIES,
  SOA_FORMATS,
} from '../../shared/vocabulary.js';

const snapshotId = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });

export const OscalExportQuery = Type.Object({
  format: Type.Optional(
    Type.Enum(OSCAL_FORMATS, {
      default: 'json',
      description: 'json: the package envelope; zip: the five documents as files of one archive',
    }),
  ),
  frameworkId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      default: ISO_42001,
      description:
        'The framework of the package: iso-42001 (default), iso-42001-clauses, nist-ai-rmf, eu-ai-act, ' +
        'iso-27001, iso-27001-clauses, gdpr, or the id of an imported OSCAL catalog. Unknown → 404. ' +
        'Only iso-42001 can be combined with snapshotId (400 otherwise).',
    }),
  ),
  snapshotId: Type.Optional(
    snapshotId(
      'Export the state frozen in this compliance snapshot instead of the live state (ISO/IEC 42001 only)',
    ),
  ),
});

export const SoaExportQuery = Type.Object({
  format: Type.Optional(Type.Enum(SOA_FORMATS, { default: 'json', description: SOA_FORMATS.join(' | ') })),
  snapshotId: Type.Optional(
    snapshotId('Render the state frozen in this compliance snapshot instead of the live state'),
  ),
});

/**
 * A document of the given media types, sent as is (never re-serialised); `json` describes the JSON one for
 * OpenAPI and the clients.
 */
export const fileResponse = (description: string, mediaTypes: string[], json: TSchema = Type.Unknown()) => ({
  description,
  content: Object.fromEntries(
    mediaTypes.map((mediaType) => [
      mediaType,
      { schema: mediaType.startsWith('application/json') ? json : Type.String({ format: 'binary' }) },
    ]),
  ),
});

/** The export waited longer than the configured bound for its job. */
export const exportErrorResponses = { 503: ErrorEnvelopeSchema };

export const SoaCheckSchema = Type.Object({
  kind: Type.Enum(SOA_CHECK_KINDS, { description: SOA_CHECK_KINDS.join(' | ') }),
  severity: Type.Enum(SOA_CHECK_SEVERITIES, { description: SOA_CHECK_SEVERITIES.join(' | ') }),
  message: Type.String({ description: 'What is wrong, naming the risk, control, system or assessment' }),
  riskId: Type.Optional(Type.String()),
  controlId: Type.Optional(Type.String({ description: 'An ISO/IEC 42001 Annex A control' })),
  systemId: Type.Optional(Type.String()),
  assessmentId: Type.Optional(Type.String()),
});

export const SoaChecksSchema = Type.Object({
  orgId: Type.String(),
  checks: Type.Array(SoaCheckSchema, { description: 'Most severe first, then by kind' }),
});

const SoaEvidenceSchema = Type.Object({
  evidenceId: Type.String(),
  type: EvidenceTypeSchema,
  title: Type.String(),
  description: Nullable(Type.String()),
  fileUrl: Nullable(Type.String({ description: 'Without user information' })),
  createdAt: Timestamp,
  effectiveDate: Nullable(Timestamp),
  expiresAt: Nullable(Timestamp),
  expired: Type.Boolean({ description: 'expiresAt is not after the statement’s asOf' }),
});

const SoaRiskRefSchema = Type.Object({
  riskId: Type.String(),
  title: Type.String(),
  residualLevel: Type.Enum(RISK_SCORE_LEVELS),
  state: Type.Enum(RISK_STATES),
});

export const SoaRowSchema = Type.Object({
  controlId: Type.String(),
  domain: Type.String(),
  domainTitle: Type.String(),
  title: Type.String(),
  applicable: Type.Boolean(),
  justification: Nullable(Type.String()),
  justificationSource: Type.Union([Type.Literal('officer'), Type.Literal('risks'), Type.Null()], {
    description:
      'officer: recorded with the applicability; risks: derived from the risks whose treatment lists the control; null: none',
  }),
  risks: Nullable(
    Type.Array(SoaRiskRefSchema, {
      description: 'The risks whose treatment lists the control; null when the statement carries no risks',
    }),
  ),
  status: ControlStatusSchema,
  note: Nullable(
    Type.String({
      description:
        'The note recorded with the status; null when there is none, or in a snapshot taken before snapshots froze notes',
    }),
  ),
  evidence: Type.Array(SoaEvidenceSchema, { description: 'The newest 50, newest first' }),
  evidenceCount: Type.Integer({ description: 'All evidence recorded for the control' }),
  evidenceExpired: Type.Boolean({
    description: 'It has evidence and all of it has expired at asOf (the CI gate’s no-expired-evidence rule)',
  }),
  reviewer: Nullable(Type.String()),
  updatedAt: Timestamp,
});

const SoaSignatorySchema = Type.Object({
  name: Nullable(Type.String()),
  role: Nullable(Type.String()),
  date: Nullable(Timestamp),
});

export const SoaRequesterSchema = Type.Object({
  type: Type.Union([Type.Literal('user'), Type.Literal('key')], {
    description: 'user: a signed-in person; key: an API key',
  }),
  name: Type.String(),
  email: Nullable(Type.String()),
  role: Nullable(Type.String({ description: 'The person’s role in the organization' })),
});

export const SoaApprovalSchema = Type.Object(
  {
    preparedBy: SoaSignatorySchema,
    reviewedBy: SoaSignatorySchema,
    approvedBy: SoaSignatorySchema,
  },
  {
    description:
      'Filled with what comply knows (the person who exported prepares it, unless an auditor); the rest is left to sign',
  },
);

export const SoaSnapshotRefSchema = Type.Object({
  snapshotId: Type.String(),
  label: Type.String(),
  createdAt: Timestamp,
  contentHash: Type.String(),
});

/** The Statement of Applicability as JSON (`format=json`). */
export const SoaStatementSchema = Type.Object({
  framework: Type.String(),
  orgId: Type.String(),
  orgName: Type.String(),
  asOf: Type.String({
    format: 'date-time',
    description:
      'The instant the statement describes: its generation (live data) or the snapshot’s; evidence expiry is judged at it',
  }),
  generatedAt: Timestamp,
  lastModified: Type.String({ format: 'date-time', description: 'The last change to the data it shows' }),
  exportedBy: Nullable(SoaRequesterSchema),
  approval: SoaApprovalSchema,
  score: Score,
  counts: CountsSchema,
  snapshot: Nullable(SoaSnapshotRefSchema),
  notes: Type.Array(Type.String()),
  checks: Nullable(Type.Array(SoaCheckSchema)),
  controls: Type.Array(SoaRowSchema, { description: 'Every Annex A control, in Annex A order' }),
});
