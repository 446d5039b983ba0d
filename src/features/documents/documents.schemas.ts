import { Type } from 'typebox';
import { Nullable, OrgId, PlainText, RequirementRefSchema, Timestamp } from '../../shared/schemas.js';

/** What a controlled document is. */
export const DOCUMENT_KINDS = ['policy', 'procedure', 'plan', 'record'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/**
 * A version's life: a `draft` is edited, `published` is the version in force (immutable, evidence), and a
 * published version a later publication replaced is `superseded` (still readable).
 */
export const VERSION_STATES = ['draft', 'published', 'superseded'] as const;
export type VersionState = (typeof VERSION_STATES)[number];

/** The most Markdown one version holds, in UTF-8 bytes. */
export const MAX_CONTENT_BYTES = 1_048_576;

const DocumentId = Type.String({ minLength: 1, maxLength: 64, description: 'Document id' });
const VersionId = Type.String({ minLength: 1, maxLength: 64, description: 'Version id' });

export { RequirementRefSchema };

const Requirements = Type.Array(RequirementRefSchema, {
  maxItems: 500,
  uniqueItems: true,
  description:
    'The requirements the document serves, each of the framework library (else 400 naming them); a ' +
    'published version is evidence on each',
});

const ReviewEvery = Type.String({
  minLength: 2,
  maxLength: 32,
  description:
    'How often the document is reviewed: an ISO 8601 duration of years, months, weeks and days (P1Y, P6M, ' +
    'P90D, P1Y6M); the next review falls that long after each publication',
});

const Title = PlainText({ minLength: 1, maxLength: 300 });
const Owner = PlainText({ minLength: 1, maxLength: 200 });
const Changelog = PlainText({
  minLength: 1,
  maxLength: 10_000,
  description: 'What changed in this version, and why',
});
const Content = PlainText({
  maxLength: MAX_CONTENT_BYTES,
  description: 'The document as Markdown, at most 1 MiB (UTF-8)',
});
const FileUrl = Type.String({
  minLength: 1,
  maxLength: 2048,
  description: 'Where the document is kept instead (an absolute http(s) URL without user name or password)',
});

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

const EvidenceRefSchema = Type.Object({
  frameworkId: Type.String(),
  requirementId: Type.String(),
  evidenceId: Type.String(),
});

const versionFields = {
  versionId: Type.String(),
  documentId: Type.String(),
  version: Type.Integer({ description: '1, then one more with each draft' }),
  state: Type.Enum(VERSION_STATES, { description: VERSION_STATES.join(' | ') }),
  fileUrl: Nullable(Type.String()),
  changelog: Type.String(),
  author: ActorSchema,
  editors: Type.Array(ActorSchema, {
    description: 'Who changed the draft after its author; none of them, nor the author, may approve it',
  }),
  contentHash: Nullable(
    Type.String({
      description:
        'SHA-256 (hex) of the RFC 8785 JSON of {documentId, version, content or fileUrl, changelog}, set on ' +
        'publication',
    }),
  ),
  approvedBy: Nullable(ApproverSchema),
  publishedAt: Nullable(Timestamp),
  supersededAt: Nullable(Timestamp),
  supersededBy: Nullable(Type.String({ description: 'The version published in its place' })),
  evidence: Type.Array(EvidenceRefSchema, {
    description: 'The evidence items publication added, one per requirement of the document',
  }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** A version without its content: in lists and in the document's `published` and `draft`. */
export const VersionSummarySchema = Type.Object(versionFields);

export const VersionSchema = Type.Object({
  ...versionFields,
  content: Nullable(Type.String({ description: 'The Markdown, when the version is not a file URL' })),
});

export const DocumentSchema = Type.Object({
  documentId: Type.String(),
  orgId: Type.String(),
  title: Type.String(),
  kind: Type.Enum(DOCUMENT_KINDS, { description: DOCUMENT_KINDS.join(' | ') }),
  owner: Nullable(Type.String()),
  requirements: Type.Array(RequirementRefSchema),
  reviewEvery: Nullable(Type.String({ description: 'ISO 8601 duration' })),
  published: Type.Union([VersionSummarySchema, Type.Null()], {
    description: 'The version in force; a draft in progress never hides it',
  }),
  draft: Type.Union([VersionSummarySchema, Type.Null()], {
    description: 'The version being written, if any',
  }),
  nextReviewAt: Type.Union([Timestamp, Type.Null()], {
    description: 'When the next review is due: the last publication plus reviewEvery (null without either)',
  }),
  reviewDue: Type.Boolean({ description: 'nextReviewAt has passed: the document is due for review' }),
  createdBy: Nullable(ActorSchema),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

export const DocumentPageSchema = Type.Object({
  orgId: Type.String(),
  documents: Type.Array(DocumentSchema, {
    description: 'Next review soonest first (documents without one last), then by title',
  }),
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export const VersionListSchema = Type.Object({
  orgId: Type.String(),
  documentId: Type.String(),
  versions: Type.Array(VersionSummarySchema, { description: 'Newest first' }),
});

export const DiffHunkSchema = Type.Object({
  oldStart: Type.Integer(),
  oldLines: Type.Integer(),
  newStart: Type.Integer(),
  newLines: Type.Integer(),
  lines: Type.Array(Type.String(), {
    description: 'Unified diff lines: " " context, "-" only in `from`, "+" only in `to`',
  }),
});

const VersionRefSchema = Type.Object({
  versionId: Type.String(),
  version: Type.Integer(),
  state: Type.Enum(VERSION_STATES),
});

export const VersionDiffSchema = Type.Object({
  orgId: Type.String(),
  documentId: Type.String(),
  from: VersionRefSchema,
  to: VersionRefSchema,
  changes: Type.Array(DiffHunkSchema, {
    description: 'Line-based unified diff hunks from `from` to `to` (3 lines of context); none when equal',
  }),
});

export const DocumentParams = Type.Object({ orgId: OrgId, documentId: DocumentId });
export const VersionParams = Type.Object({ orgId: OrgId, documentId: DocumentId, versionId: VersionId });

export const CreateDocumentBody = Type.Object(
  {
    title: Title,
    kind: Type.Enum(DOCUMENT_KINDS, { description: DOCUMENT_KINDS.join(' | ') }),
    owner: Type.Optional(Owner),
    requirements: Requirements,
    reviewEvery: Type.Optional(ReviewEvery),
  },
  { additionalProperties: false },
);

export const UpdateDocumentBody = Type.Object(
  {
    title: Type.Optional(Title),
    owner: Type.Optional(Nullable(Owner)),
    requirements: Type.Optional(Requirements),
    reviewEvery: Type.Optional(Nullable(ReviewEvery)),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const DocumentListQuery = Type.Object({
  kind: Type.Optional(Type.Enum(DOCUMENT_KINDS, { description: DOCUMENT_KINDS.join(' | ') })),
  owner: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size, 1..200' }),
  ),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});

export const CreateVersionBody = Type.Object(
  {
    content: Type.Optional(Content),
    fileUrl: Type.Optional(FileUrl),
    changelog: Changelog,
  },
  { additionalProperties: false },
);

export const UpdateVersionBody = Type.Object(
  {
    content: Type.Optional(Content),
    fileUrl: Type.Optional(FileUrl),
    changelog: Type.Optional(Changelog),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const DiffQuery = Type.Object({
  against: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The version to compare with: the diff runs from it to the version in the path',
  }),
});
