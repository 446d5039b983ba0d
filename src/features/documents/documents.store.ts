/**
 * Controlled documents: the only module that reads or writes `documents` and `document_versions`. Rows come
 * back with ISO timestamps. A version's `content` (up to 1 MiB) is read only where it is asked for: one
 * version, or two to compare; lists and the document's summaries leave it out.
 */
import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
import type {
  ApproverSchema,
  DocumentKind,
  RequirementRefSchema,
  VersionState,
} from './documents.schemas.js';

export type RequirementRef = Static<typeof RequirementRefSchema>;
export type Approver = Static<typeof ApproverSchema>;
export interface ActorRef {
  type: string;
  id: string;
  name: string;
}
export interface EvidenceRef {
  frameworkId: string;
  requirementId: string;
  evidenceId: string;
}

export interface DocumentRow {
  documentId: string;
  orgId: string;
  title: string;
  kind: DocumentKind;
  owner: string | null;
  requirements: RequirementRef[];
  reviewEvery: string | null;
  nextReviewAt: string | null;
  createdBy: ActorRef | null;
  createdAt: string;
  updatedAt: string;
}

export interface VersionSummaryRow {
  versionId: string;
  documentId: string;
  version: number;
  state: VersionState;
  fileUrl: string | null;
  changelog: string;
  author: ActorRef;
  editors: ActorRef[];
  contentHash: string | null;
  approvedBy: Approver | null;
  publishedAt: string | null;
  supersededAt: string | null;
  supersededBy: string | null;
  evidence: EvidenceRef[];
  createdAt: string;
  updatedAt: string;
}

export interface VersionRow extends VersionSummaryRow {
  content: string | null;
}

const DOCUMENT_COLUMNS = `document_id as "documentId", org_id as "orgId", title, kind, owner, requirements,
  review_every as "reviewEvery", next_review_at as "nextReviewAt", created_by as "createdBy",
  created_at as "createdAt", updated_at as "updatedAt"`;

const SUMMARY_COLUMNS = `version_id as "versionId", document_id as "documentId", version, state,
  file_url as "fileUrl", changelog, author, editors, content_hash as "contentHash", approved_by as "approvedBy",
  published_at as "publishedAt", superseded_at as "supersededAt", superseded_by as "supersededBy", evidence,
  created_at as "createdAt", updated_at as "updatedAt"`;

const toDocument = (row: DocumentRow): DocumentRow => ({
  ...row,
  nextReviewAt: toIsoOrNull(row.nextReviewAt),
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

const toVersion = <T extends VersionSummaryRow>(row: T): T => ({
  ...row,
  publishedAt: toIsoOrNull(row.publishedAt),
  supersededAt: toIsoOrNull(row.supersededAt),
  createdAt: toIso(row.createdAt),
  updatedAt: toIso(row.updatedAt),
});

const json = (value: unknown) => JSON.stringify(value);

export interface NewDocument {
  documentId: string;
  orgId: string;
  title: string;
  kind: DocumentKind;
  owner: string | null;
  requirements: RequirementRef[];
  reviewEvery: string | null;
  createdBy: ActorRef;
}

export async function insertDocument(em: Em, input: NewDocument, now: Date): Promise<void> {
  await em.execute(
    `insert into documents (document_id, org_id, title, kind, owner, requirements, review_every, created_by,
       created_at, updated_at)
     values (?, ?, ?, ?, ?, ?::jsonb, ?, ?::jsonb, ?, ?)`,
    [
      input.documentId,
      input.orgId,
      input.title,
      input.kind,
      input.owner,
      json(input.requirements),
      input.reviewEvery,
      json(input.createdBy),
      now,
      now,
    ],
  );
}

/** One document; `lock` holds its row until the transaction ends (every change to it or its versions does). */
export async function selectDocument(
  em: Em,
  orgId: string,
  documentId: string,
  options: { lock?: boolean } = {},
): Promise<DocumentRow | null> {
  const [row] = await em.execute<DocumentRow[]>(
    `select ${DOCUMENT_COLUMNS} from documents where org_id = ? and document_id = ?${options.lock ? ' for update' : ''}`,
    [orgId, documentId],
  );
  return row ? toDocument(row) : null;
}

export interface DocumentFilter {
  kind?: DocumentKind;
  owner?: string;
  limit: number;
  offset: number;
}

/** One page of the org's documents, next review soonest first (none last), then by title and id; and the total. */
export async function selectDocumentPage(
  em: Em,
  orgId: string,
  filter: DocumentFilter,
): Promise<{ total: number; documents: DocumentRow[] }> {
  const where = ['org_id = ?'];
  const params: unknown[] = [orgId];
  if (filter.kind) {
    where.push('kind = ?');
    params.push(filter.kind);
  }
  if (filter.owner) {
    where.push('owner = ?');
    params.push(filter.owner);
  }
  const match = where.join(' and ');
  const [{ total }] = await em.execute<{ total: number }[]>(
    `select count(*)::int as total from documents where ${match}`,
    params,
  );
  const rows = await em.execute<DocumentRow[]>(
    `select ${DOCUMENT_COLUMNS} from documents where ${match}
     order by next_review_at asc nulls last, title, document_id limit ? offset ?`,
    [...params, filter.limit, filter.offset],
  );
  return { total, documents: rows.map(toDocument) };
}

export interface DocumentChanges {
  title: string;
  owner: string | null;
  requirements: RequirementRef[];
  reviewEvery: string | null;
  nextReviewAt: Date | null;
}

export async function updateDocumentRow(
  tx: Em,
  documentId: string,
  changes: DocumentChanges,
  now: Date,
): Promise<void> {
  await tx.execute(
    `update documents set title = ?, owner = ?, requirements = ?::jsonb, review_every = ?, next_review_at = ?,
       updated_at = ?
     where document_id = ?`,
    [
      changes.title,
      changes.owner,
      json(changes.requirements),
      changes.reviewEvery,
      changes.nextReviewAt,
      now,
      documentId,
    ],
  );
}

/** Sets when the document is next reviewed (on publication). */
export async function setNextReview(tx: Em, documentId: string, at: Date | null, now: Date): Promise<void> {
  await tx.execute('update documents set next_review_at = ?, updated_at = ? where document_id = ?', [
    at,
    now,
    documentId,
  ]);
}

/** Deletes a document and its versions (drafts only: the service refuses one that was ever published). */
export async function deleteDocumentRow(tx: Em, documentId: string): Promise<void> {
  await tx.execute('delete from documents where document_id = ?', [documentId]);
}

/** Whether a version of the document was ever published (it is `published` or `superseded`). */
export async function wasPublished(tx: Em, documentId: string): Promise<boolean> {
  const rows = await tx.execute<{ one: number }[]>(
    `select 1 as one from document_versions where document_id = ? and state <> 'draft' limit 1`,
    [documentId],
  );
  return rows.length > 0;
}

/** The draft and the published version of each document given, without their content. */
export async function selectCurrentVersions(em: Em, documentIds: string[]): Promise<VersionSummaryRow[]> {
  if (!documentIds.length) return [];
  const rows = await em.execute<VersionSummaryRow[]>(
    `select ${SUMMARY_COLUMNS} from document_versions
     where document_id in (${documentIds.map(() => '?').join(', ')}) and state in ('draft', 'published')`,
    documentIds,
  );
  return rows.map(toVersion);
}

/** Every version of a document, newest first, without their content. */
export async function selectVersions(em: Em, documentId: string): Promise<VersionSummaryRow[]> {
  const rows = await em.execute<VersionSummaryRow[]>(
    `select ${SUMMARY_COLUMNS} from document_versions where document_id = ? order by version desc`,
    [documentId],
  );
  return rows.map(toVersion);
}

/** One version of a document, with its content. */
export async function selectVersion(
  em: Em,
  documentId: string,
  versionId: string,
): Promise<VersionRow | null> {
  const [row] = await em.execute<VersionRow[]>(
    `select ${SUMMARY_COLUMNS}, content from document_versions where document_id = ? and version_id = ?`,
    [documentId, versionId],
  );
  return row ? toVersion(row) : null;
}

export interface NewVersion {
  versionId: string;
  orgId: string;
  documentId: string;
  content: string | null;
  fileUrl: string | null;
  changelog: string;
  author: ActorRef;
}

/**
 * A new draft numbered one past the document's newest version; false when the document has a draft already
 * (the partial unique index) or a concurrent draft took the number.
 */
export async function insertDraft(tx: Em, input: NewVersion, now: Date): Promise<boolean> {
  const rows = await tx.execute<{ versionId: string }[]>(
    `insert into document_versions (version_id, org_id, document_id, version, state, content, file_url,
       changelog, author, created_at, updated_at)
     select ?, ?, ?, coalesce(max(version), 0) + 1, 'draft', ?, ?, ?, ?::jsonb, ?, ?
       from document_versions where document_id = ?
     on conflict do nothing returning version_id as "versionId"`,
    [
      input.versionId,
      input.orgId,
      input.documentId,
      input.content,
      input.fileUrl,
      input.changelog,
      json(input.author),
      now,
      now,
      input.documentId,
    ],
  );
  return rows.length > 0;
}

export interface DraftContent {
  content: string | null;
  fileUrl: string | null;
  changelog: string;
  editors: ActorRef[];
}

export async function updateDraftRow(
  tx: Em,
  versionId: string,
  draft: DraftContent,
  now: Date,
): Promise<void> {
  await tx.execute(
    `update document_versions set content = ?, file_url = ?, changelog = ?, editors = ?::jsonb, updated_at = ?
     where version_id = ? and state = 'draft'`,
    [draft.content, draft.fileUrl, draft.changelog, json(draft.editors), now, versionId],
  );
}

/** The document's published version, if any, becomes superseded by `by` (before `by` is published). */
export async function supersedePublished(tx: Em, documentId: string, by: string, now: Date): Promise<void> {
  await tx.execute(
    `update document_versions set state = 'superseded', superseded_at = ?, superseded_by = ?, updated_at = ?
     where document_id = ? and state = 'published'`,
    [now, by, now, documentId],
  );
}

export interface Publication {
  approvedBy: Approver;
  publishedAt: Date;
  contentHash: string;
  evidence: EvidenceRef[];
}

export async function markPublished(tx: Em, versionId: string, publication: Publication): Promise<void> {
  await tx.execute(
    `update document_versions set state = 'published', approved_by = ?::jsonb, published_at = ?,
       content_hash = ?, evidence = ?::jsonb, updated_at = ?
     where version_id = ? and state = 'draft'`,
    [
      json(publication.approvedBy),
      publication.publishedAt,
      publication.contentHash,
      json(publication.evidence),
      publication.publishedAt,
      versionId,
    ],
  );
}

/** Adds evidence items to those a published version became (when the document serves more requirements). */
export async function appendEvidence(tx: Em, versionId: string, evidence: EvidenceRef[]): Promise<void> {
  await tx.execute('update document_versions set evidence = evidence || ?::jsonb where version_id = ?', [
    json(evidence),
    versionId,
  ]);
}

export interface DocumentReview {
  documentId: string;
  title: string;
  kind: DocumentKind;
  owner: string | null;
  nextReviewAt: string;
}

/** The org's documents with a next review (a version published and a cadence), soonest first: for the agenda. */
export async function selectDocumentReviews(em: Em, orgId: string): Promise<DocumentReview[]> {
  const rows = await em.execute<DocumentReview[]>(
    `select document_id as "documentId", title, kind, owner, next_review_at as "nextReviewAt" from documents
     where org_id = ? and next_review_at is not null order by next_review_at, document_id`,
    [orgId],
  );
  return rows.map((row) => ({ ...row, nextReviewAt: toIso(row.nextReviewAt) }));
}
