/**
 * Controlled documents (ISO/IEC 42001 7.5, A.2): a document names the requirements it serves and how often it
 * is reviewed; its text lives in numbered versions. A version starts as a `draft` (one at a time), edited
 * until a person other than those who wrote it approves it: it is then `published`, frozen under its content
 * hash, evidence on each of the document's requirements, and the document's next review falls one cadence
 * later; the version published before it becomes `superseded` and stays readable. A draft never hides the
 * published version: the document shows both. Every change to a document or its versions holds the
 * document's row, so two changes to one document run one after the other.
 */
import { randomBytes } from 'node:crypto';
import canonicalize from 'canonicalize';
import { structuredPatch } from 'diff';
import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict, forbidden, invalidField, resourceNotFound } from '../../platform/errors.js';
import { contentHashOf } from '../../shared/content-hash.js';
import type { Actor } from '../auth/scopes.js';
import { currentLibrary } from '../cte/library.service.js';
import { addEvidence } from '../evidence/evidence.service.js';
import {
  type CreateDocumentBody,
  type CreateVersionBody,
  type DocumentListQuery,
  type DocumentSchema,
  MAX_CONTENT_BYTES,
  type UpdateDocumentBody,
  type UpdateVersionBody,
  type VersionDiffSchema,
  type VersionSchema,
  type VersionSummarySchema,
} from './documents.schemas.js';
import {
  type ActorRef,
  appendEvidence,
  type DocumentRow,
  deleteDocumentRow,
  type EvidenceRef,
  insertDocument,
  insertDraft,
  markPublished,
  type RequirementRef,
  selectCurrentVersions,
  selectDocument,
  selectDocumentPage,
  selectVersion,
  selectVersions,
  setNextReview,
  supersedePublished,
  updateDocumentRow,
  updateDraftRow,
  type VersionRow,
  type VersionSummaryRow,
  wasPublished,
} from './documents.store.js';
import { addCadence, type Cadence, parseCadence } from './review-cadence.js';

export type DocumentView = Static<typeof DocumentSchema>;
export type VersionView = Static<typeof VersionSchema>;
export type VersionSummaryView = Static<typeof VersionSummarySchema>;
export type VersionDiff = Static<typeof VersionDiffSchema>;

/**
 * The most lines a diff may add and remove together, and how long it may run (ms): the line diff costs about
 * the square of the changes (4,000 changed lines take about a second) and runs on the event loop.
 */
const MAX_DIFF_EDITS = 4_000;
const DIFF_TIMEOUT_MS = 1_000;

const newId = (prefix: string) => `${prefix}_${randomBytes(9).toString('base64url')}`;
const actorRef = (actor: Actor): ActorRef => ({ type: actor.type, id: actor.id, name: actor.name });
const sameActor = (a: ActorRef, b: ActorRef) => a.type === b.type && a.id === b.id;

/** The approving person, as a signed-in principal describes them. */
export interface Approver {
  actor: Actor;
  email: string;
}

/** A published version's own API URL (its evidence links there), from its id. */
export type VersionUrl = (versionId: string) => string;

// ---- views -----------------------------------------------------------------------------------------------

const summaryOf = (row: VersionSummaryRow): VersionSummaryView => ({
  versionId: row.versionId,
  documentId: row.documentId,
  version: row.version,
  state: row.state,
  fileUrl: row.fileUrl,
  changelog: row.changelog,
  author: row.author,
  editors: row.editors,
  contentHash: row.contentHash,
  approvedBy: row.approvedBy,
  publishedAt: row.publishedAt,
  supersededAt: row.supersededAt,
  supersededBy: row.supersededBy,
  evidence: row.evidence,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const versionView = (row: VersionRow): VersionView => ({ ...summaryOf(row), content: row.content });

const isReviewDue = (nextReviewAt: string | null, now: Date) =>
  nextReviewAt !== null && Date.parse(nextReviewAt) <= now.getTime();

function documentView(row: DocumentRow, current: VersionSummaryRow[], now: Date): DocumentView {
  const published = current.find((v) => v.documentId === row.documentId && v.state === 'published');
  const draft = current.find((v) => v.documentId === row.documentId && v.state === 'draft');
  return {
    documentId: row.documentId,
    orgId: row.orgId,
    title: row.title,
    kind: row.kind,
    owner: row.owner,
    requirements: row.requirements,
    reviewEvery: row.reviewEvery,
    published: published ? summaryOf(published) : null,
    draft: draft ? summaryOf(draft) : null,
    nextReviewAt: row.nextReviewAt,
    reviewDue: isReviewDue(row.nextReviewAt, now),
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

// ---- checks ----------------------------------------------------------------------------------------------

/** `400` naming the requirements the framework library does not have. */
async function checkRequirements(em: Em, requirements: RequirementRef[]): Promise<void> {
  if (!requirements.length) return;
  const { library } = await currentLibrary(em);
  const unknown = requirements.filter(
    ({ frameworkId, requirementId }) => !library.requirement(frameworkId, requirementId),
  );
  if (unknown.length) {
    throw badRequest(
      `Unknown requirement(s): ${unknown.map((ref) => `${ref.frameworkId} ${ref.requirementId}`).join(', ')}`,
      {
        unknownRequirements: unknown,
        fields: unknown.map((ref) => ({
          field: `body.requirements.${requirements.indexOf(ref)}`,
          message: 'names no requirement of the framework library',
        })),
      },
    );
  }
}

function cadenceOf(reviewEvery: string, field = 'body.reviewEvery'): Cadence {
  const cadence = parseCadence(reviewEvery);
  if (typeof cadence === 'string') throw invalidField(field, cadence);
  return cadence;
}

/** When a document whose version was published at `publishedAt` is next reviewed, if it has a cadence. */
const nextReviewOf = (publishedAt: string | null, reviewEvery: string | null): Date | null =>
  publishedAt && reviewEvery ? addCadence(new Date(publishedAt), cadenceOf(reviewEvery)) : null;

function checkFileUrl(fileUrl: string): void {
  const url = URL.parse(fileUrl);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw invalidField('body.fileUrl', 'must be an absolute http(s) URL with a host');
  }
  // A user name or password in the URL would be shown to everyone who reads the document or its evidence.
  if (url.username || url.password) {
    throw invalidField('body.fileUrl', 'must not carry a user name or password (user information)');
  }
}

function checkContent(content: string): void {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_CONTENT_BYTES) {
    throw invalidField('body.content', `is ${bytes} bytes of UTF-8; a version holds at most 1 MiB`, {
      maxBytes: MAX_CONTENT_BYTES,
    });
  }
}

/** Exactly one of content and fileUrl (`required`), or at most one; each checked. */
function checkBody(body: { content?: string; fileUrl?: string }, required: boolean): void {
  const given = (body.content !== undefined ? 1 : 0) + (body.fileUrl !== undefined ? 1 : 0);
  if (given > 1 || (required && given === 0)) {
    throw badRequest(
      given > 1
        ? 'Give either content or fileUrl, not both'
        : 'Give the version as content (Markdown) or as a fileUrl',
      { fields: [{ field: 'body', message: 'must have exactly one of content and fileUrl' }] },
    );
  }
  if (body.content !== undefined) checkContent(body.content);
  if (body.fileUrl !== undefined) checkFileUrl(body.fileUrl);
}

// ---- loading ---------------------------------------------------------------------------------------------

async function loadDocument(em: Em, orgId: string, documentId: string, lock = false): Promise<DocumentRow> {
  const row = await selectDocument(em, orgId, documentId, { lock });
  if (!row) throw resourceNotFound('Document', { documentId });
  return row;
}

async function loadVersion(em: Em, documentId: string, versionId: string): Promise<VersionRow> {
  const row = await selectVersion(em, documentId, versionId);
  if (!row) throw resourceNotFound('Document version', { documentId, versionId });
  return row;
}

const refuseState = (row: VersionSummaryRow, action: string, why: string) =>
  conflict(`Cannot ${action} a version that is ${row.state}: ${why}`, {
    versionId: row.versionId,
    version: row.version,
    state: row.state,
  });

// ---- documents -------------------------------------------------------------------------------------------

export async function createDocument(
  em: Em,
  orgId: string,
  body: Static<typeof CreateDocumentBody>,
  actor: Actor,
  now = new Date(),
): Promise<DocumentView> {
  if (body.reviewEvery !== undefined) cadenceOf(body.reviewEvery);
  await checkRequirements(em, body.requirements);
  const documentId = newId('doc');
  await insertDocument(
    em,
    {
      documentId,
      orgId,
      title: body.title,
      kind: body.kind,
      owner: body.owner ?? null,
      requirements: body.requirements,
      reviewEvery: body.reviewEvery ?? null,
      createdBy: actorRef(actor),
    },
    now,
  );
  return getDocument(em, orgId, documentId, now);
}

export async function getDocument(
  em: Em,
  orgId: string,
  documentId: string,
  now = new Date(),
): Promise<DocumentView> {
  const row = await loadDocument(em, orgId, documentId);
  return documentView(row, await selectCurrentVersions(em, [documentId]), now);
}

export async function listDocuments(
  em: Em,
  orgId: string,
  query: Static<typeof DocumentListQuery>,
  now = new Date(),
): Promise<{ documents: DocumentView[]; total: number; limit: number; offset: number }> {
  const limit = query.limit ?? 50;
  const offset = query.offset ?? 0;
  const page = await selectDocumentPage(em, orgId, { kind: query.kind, owner: query.owner, limit, offset });
  const current = await selectCurrentVersions(
    em,
    page.documents.map((row) => row.documentId),
  );
  return {
    documents: page.documents.map((row) => documentView(row, current, now)),
    total: page.total,
    limit,
    offset,
  };
}

/** Adds a published version as evidence on requirements; the refs of the items added. */
async function addVersionEvidence(
  tx: Em,
  document: DocumentRow,
  version: { versionId: string; version: number; publishedAt: Date; approvedBy: string },
  requirements: RequirementRef[],
  selfUrl: string,
  createdBy: string,
  now: Date,
): Promise<EvidenceRef[]> {
  const evidence: EvidenceRef[] = [];
  for (const { frameworkId, requirementId } of requirements) {
    const item = await addEvidence(
      tx,
      {
        orgId: document.orgId,
        frameworkId,
        requirementId,
        evidence: {
          type: 'document',
          title: `${document.title}, version ${version.version}`,
          description: `The ${document.kind} in force: version ${version.version}, published on ${version.publishedAt.toISOString().slice(0, 10)}, approved by ${version.approvedBy}.`,
          fileUrl: selfUrl,
          effectiveDate: version.publishedAt.toISOString(),
        },
        createdBy,
      },
      now,
    );
    evidence.push({ frameworkId, requirementId, evidenceId: item.evidenceId });
  }
  return evidence;
}

const refKey = (ref: RequirementRef) => `${ref.frameworkId}\u0000${ref.requirementId}`;

/**
 * Changes a document's title, owner, requirements or review cadence. A new cadence moves the next review
 * (from the published version's publication); requirements added while a version is published get it as
 * evidence at once.
 */
export async function updateDocument(
  em: Em,
  orgId: string,
  documentId: string,
  changes: Static<typeof UpdateDocumentBody>,
  actor: Actor,
  urlOf: VersionUrl,
  now = new Date(),
): Promise<DocumentView> {
  if (changes.reviewEvery) cadenceOf(changes.reviewEvery);
  if (changes.requirements) await checkRequirements(em, changes.requirements);
  await em.transactional(async (tx) => {
    const row = await loadDocument(tx, orgId, documentId, true);
    const published = (await selectCurrentVersions(tx, [documentId])).find((v) => v.state === 'published');
    const reviewEvery = changes.reviewEvery === undefined ? row.reviewEvery : changes.reviewEvery;
    const requirements = changes.requirements ?? row.requirements;
    const nextReviewAt =
      changes.reviewEvery === undefined
        ? row.nextReviewAt === null
          ? null
          : new Date(row.nextReviewAt)
        : nextReviewOf(published?.publishedAt ?? null, reviewEvery);
    await updateDocumentRow(
      tx,
      documentId,
      {
        title: changes.title ?? row.title,
        owner: changes.owner === undefined ? row.owner : changes.owner,
        requirements,
        reviewEvery,
        nextReviewAt,
      },
      now,
    );
    if (published?.publishedAt && changes.requirements) {
      const covered = new Set(published.evidence.map(refKey));
      const added = requirements.filter((ref) => !covered.has(refKey(ref)));
      if (added.length) {
        const evidence = await addVersionEvidence(
          tx,
          { ...row, title: changes.title ?? row.title },
          {
            versionId: published.versionId,
            version: published.version,
            publishedAt: new Date(published.publishedAt),
            approvedBy: published.approvedBy?.name ?? 'its approver',
          },
          added,
          urlOf(published.versionId),
          actor.id,
          now,
        );
        await appendEvidence(tx, published.versionId, evidence);
      }
    }
  });
  return getDocument(em, orgId, documentId, now);
}

/** Deletes a document and its draft, while none of its versions was ever published (else 409). */
export async function deleteDocument(em: Em, orgId: string, documentId: string): Promise<void> {
  await em.transactional(async (tx) => {
    await loadDocument(tx, orgId, documentId, true);
    if (await wasPublished(tx, documentId)) {
      throw conflict(
        'A document with a published version cannot be deleted: it is, or was, evidence of the org’s management system',
        { documentId },
      );
    }
    await deleteDocumentRow(tx, documentId);
  });
}

// ---- versions --------------------------------------------------------------------------------------------

/** A new draft, one past the newest version: one draft at a time (else 409 naming it). */
export async function createVersion(
  em: Em,
  orgId: string,
  documentId: string,
  body: Static<typeof CreateVersionBody>,
  actor: Actor,
  now = new Date(),
): Promise<VersionView> {
  checkBody(body, true);
  const versionId = newId('ver');
  await em.transactional(async (tx) => {
    await loadDocument(tx, orgId, documentId, true);
    const inserted = await insertDraft(
      tx,
      {
        versionId,
        orgId,
        documentId,
        content: body.content ?? null,
        fileUrl: body.fileUrl ?? null,
        changelog: body.changelog,
        author: actorRef(actor),
      },
      now,
    );
    if (!inserted) {
      const draft = (await selectCurrentVersions(tx, [documentId])).find((v) => v.state === 'draft');
      throw conflict('This document has a draft already: edit or approve it before starting another', {
        documentId,
        ...(draft ? { draft: { versionId: draft.versionId, version: draft.version } } : {}),
      });
    }
  });
  return versionView(await loadVersion(em, documentId, versionId));
}

/**
 * Edits a draft: content or fileUrl (either replaces the other) and the changelog. Whoever edits it, other
 * than its author, joins its editors, who may not approve it either.
 */
export async function updateVersion(
  em: Em,
  orgId: string,
  documentId: string,
  versionId: string,
  changes: Static<typeof UpdateVersionBody>,
  actor: Actor,
  now = new Date(),
): Promise<VersionView> {
  checkBody(changes, false);
  await em.transactional(async (tx) => {
    await loadDocument(tx, orgId, documentId, true);
    const row = await loadVersion(tx, documentId, versionId);
    if (row.state !== 'draft') {
      throw refuseState(row, 'edit', 'only a draft can be edited; start a new draft to change the document');
    }
    const editor = actorRef(actor);
    const editors =
      sameActor(row.author, editor) || row.editors.some((e) => sameActor(e, editor))
        ? row.editors
        : [...row.editors, editor];
    const replaced = changes.content !== undefined || changes.fileUrl !== undefined;
    await updateDraftRow(
      tx,
      versionId,
      {
        content: replaced ? (changes.content ?? null) : row.content,
        fileUrl: replaced ? (changes.fileUrl ?? null) : row.fileUrl,
        changelog: changes.changelog ?? row.changelog,
        editors,
      },
      now,
    );
  });
  return versionView(await loadVersion(em, documentId, versionId));
}

export async function listVersions(em: Em, orgId: string, documentId: string): Promise<VersionSummaryView[]> {
  await loadDocument(em, orgId, documentId);
  return (await selectVersions(em, documentId)).map(summaryOf);
}

export async function getVersion(
  em: Em,
  orgId: string,
  documentId: string,
  versionId: string,
): Promise<VersionView> {
  await loadDocument(em, orgId, documentId);
  return versionView(await loadVersion(em, documentId, versionId));
}

/** What a version's hash covers: its document, number, text (or file URL) and changelog. */
const hashedContent = (row: VersionRow) => ({
  documentId: row.documentId,
  version: row.version,
  ...(row.content !== null ? { content: row.content } : { fileUrl: row.fileUrl }),
  changelog: row.changelog,
});

/**
 * Publishes a draft, approved by a signed-in person who neither wrote nor edited it. In one transaction: the
 * version published before becomes superseded, this one is frozen under its content hash, becomes evidence
 * (a document linking to `selfUrl`) on each of the document's requirements, and the document's next review
 * is set one cadence after now.
 */
export async function approveVersion(
  em: Em,
  orgId: string,
  documentId: string,
  versionId: string,
  approver: Approver,
  selfUrl: string,
  now = new Date(),
): Promise<VersionView> {
  await em.transactional(async (tx) => {
    const document = await loadDocument(tx, orgId, documentId, true);
    const row = await loadVersion(tx, documentId, versionId);
    if (row.state !== 'draft') throw refuseState(row, 'approve', 'only a draft can be approved');
    const { actor } = approver;
    const person: ActorRef = { type: 'user', id: actor.id, name: actor.name };
    const writers = [row.author, ...row.editors];
    if (writers.some((writer) => sameActor(writer, person))) {
      throw forbidden('A version must be approved by someone other than the people who wrote it', {
        reason: 'second_person_required',
        author: row.author,
        editors: row.editors,
      });
    }
    const approvedBy = { userId: actor.id, email: approver.email, name: actor.name };
    await supersedePublished(tx, documentId, versionId, now);
    const evidence = await addVersionEvidence(
      tx,
      document,
      { versionId, version: row.version, publishedAt: now, approvedBy: actor.name },
      document.requirements,
      selfUrl,
      actor.id,
      now,
    );
    await markPublished(tx, versionId, {
      approvedBy,
      publishedAt: now,
      contentHash: contentHashOf(canonicalize(hashedContent(row)) as string),
      evidence,
    });
    await setNextReview(tx, documentId, nextReviewOf(now.toISOString(), document.reviewEvery), now);
  });
  return versionView(await loadVersion(em, documentId, versionId));
}

/** The text a version's diff compares: its Markdown, or its file URL as one line. */
const textOf = (row: VersionRow) => (row.content !== null ? row.content : `${row.fileUrl}\n`);

/** The line-based unified diff from the version `against` to `versionId`. */
export async function diffVersions(
  em: Em,
  orgId: string,
  documentId: string,
  versionId: string,
  against: string,
): Promise<VersionDiff> {
  await loadDocument(em, orgId, documentId);
  const to = await loadVersion(em, documentId, versionId);
  const from = await selectVersion(em, documentId, against);
  if (!from) {
    throw resourceNotFound('Document version', {
      documentId,
      versionId: against,
      field: 'querystring.against',
    });
  }
  const patch = structuredPatch(
    `version ${from.version}`,
    `version ${to.version}`,
    textOf(from),
    textOf(to),
    undefined,
    undefined,
    { context: 3, maxEditLength: MAX_DIFF_EDITS, timeout: DIFF_TIMEOUT_MS },
  );
  if (!patch) {
    throw badRequest(
      `The two versions differ in too many lines to show as a diff (at most ${MAX_DIFF_EDITS} lines added ` +
        `and removed, computed within ${DIFF_TIMEOUT_MS / 1000} s)`,
      { reason: 'diff_too_large', maxEdits: MAX_DIFF_EDITS },
    );
  }
  const ref = (row: VersionRow) => ({ versionId: row.versionId, version: row.version, state: row.state });
  return {
    orgId,
    documentId,
    from: ref(from),
    to: ref(to),
    changes: patch.hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({
      oldStart,
      oldLines,
      newStart,
      newLines,
      lines,
    })),
  };
}
