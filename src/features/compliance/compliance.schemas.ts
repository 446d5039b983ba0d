import { Type } from 'typebox';
import {
  ControlStatusSchema,
  CountsSchema,
  EvidenceTypeSchema,
  OrgId,
  PlainText,
  Score,
  Timestamp,
} from '../../shared/schemas.js';
import { DomainScoreSchema } from '../scores/scores.schemas.js';

export const ComplianceSchema = Type.Object({
  orgId: Type.String(),
  score: Score,
  counts: CountsSchema,
  byDomain: Type.Array(DomainScoreSchema),
  computedAt: Timestamp,
});

export const SnapshotBody = Type.Object(
  {
    label: PlainText({ minLength: 1, maxLength: 200, description: 'Unique per organization' }),
    notes: Type.Optional(PlainText({ maxLength: 10_000 })),
  },
  { additionalProperties: false },
);

export const SnapshotEvidenceSchema = Type.Object({
  evidenceId: Type.String(),
  type: EvidenceTypeSchema,
  title: Type.String(),
  fileUrl: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  effectiveDate: Type.Union([Timestamp, Type.Null()]),
  expiresAt: Type.Union([Timestamp, Type.Null()]),
  expired: Type.Boolean({ description: 'Expired when the snapshot was taken' }),
});

export const SnapshotControlSchema = Type.Object({
  controlId: Type.String(),
  domain: Type.String(),
  title: Type.String(),
  status: ControlStatusSchema,
  applicable: Type.Boolean(),
  justification: Type.Union([Type.String(), Type.Null()]),
  reviewer: Type.Union([Type.String(), Type.Null()]),
  note: Type.Optional(
    Type.Union([Type.String(), Type.Null()], {
      description:
        'The note recorded with the status; null when there is none. Absent in snapshots taken before notes were frozen (the hash covers what is stored, so those still verify).',
    }),
  ),
  updatedAt: Timestamp,
  evidenceCount: Type.Integer(),
  evidence: Type.Array(SnapshotEvidenceSchema, { description: 'Every evidence item, newest first' }),
});

export const SnapshotRecordSchema = Type.Object({
  requirementId: Type.String(),
  status: Type.Union([ControlStatusSchema, Type.Null()], { description: 'null: no status recorded' }),
  applicable: Type.Union([Type.Boolean(), Type.Null()], { description: 'null: no decision recorded' }),
  justification: Type.Union([Type.String(), Type.Null()]),
  reviewer: Type.Union([Type.String(), Type.Null()]),
  owner: Type.Union([Type.String(), Type.Null()]),
  note: Type.Union([Type.String(), Type.Null()]),
  updatedAt: Timestamp,
  evidenceCount: Type.Integer(),
  evidence: Type.Array(SnapshotEvidenceSchema, { description: 'Every evidence item, newest first' }),
});

export const SnapshotFrameworkSchema = Type.Object({
  frameworkId: Type.String(),
  records: Type.Array(SnapshotRecordSchema, { description: "The org's direct records, by requirement id" }),
});

const ContentHash = Type.String({
  pattern: '^[0-9a-f]{64}$',
  description: 'SHA-256 (hex) of the RFC 8785 canonical JSON of the snapshot without this member',
});

export const SnapshotSummarySchema = Type.Object({
  snapshotId: Type.String(),
  label: Type.String(),
  notes: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  score: Score,
  counts: CountsSchema,
  contentHash: ContentHash,
});

export const SnapshotSchema = Type.Object({
  snapshotId: Type.String(),
  orgId: Type.String(),
  label: Type.String(),
  notes: Type.Union([Type.String(), Type.Null()]),
  createdAt: Timestamp,
  score: Score,
  counts: CountsSchema,
  byDomain: Type.Array(DomainScoreSchema),
  controls: Type.Array(SnapshotControlSchema),
  frameworks: Type.Optional(
    Type.Array(SnapshotFrameworkSchema, {
      description:
        'The direct records of every other framework (built in or imported), by framework id; the hash covers them. Absent in snapshots taken before assessments of every framework existed.',
    }),
  ),
  contentHash: ContentHash,
});

export const SnapshotParams = Type.Object({
  orgId: OrgId,
  snapshotId: Type.String({ minLength: 1, maxLength: 64 }),
});

export const SnapshotListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});

export const SnapshotListSchema = Type.Object({
  orgId: Type.String(),
  snapshots: Type.Array(SnapshotSummarySchema, { description: 'Newest first' }),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const SnapshotVerificationSchema = Type.Object({
  snapshotId: Type.String(),
  contentHash: ContentHash,
  computedHash: ContentHash,
  valid: Type.Boolean({ description: 'True when the stored content still hashes to contentHash' }),
});
