import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { FeatureRoutes } from '../../context.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import { publicBase } from '../auth/auth.routes.js';
import {
  CreateDocumentBody,
  CreateVersionBody,
  DiffQuery,
  DocumentListQuery,
  DocumentPageSchema,
  DocumentParams,
  DocumentSchema,
  MAX_CONTENT_BYTES,
  UpdateDocumentBody,
  UpdateVersionBody,
  VersionDiffSchema,
  VersionListSchema,
  VersionParams,
  VersionSchema,
} from './documents.schemas.js';
import {
  approveVersion,
  createDocument,
  createVersion,
  deleteDocument,
  diffVersions,
  getDocument,
  getVersion,
  listDocuments,
  listVersions,
  updateDocument,
  updateVersion,
} from './documents.service.js';

const TAG = 'documents';

/** A document's API path, or one of its versions', relative to the daemon's origin. */
const documentPath = (orgId: string, documentId: string, versionId?: string) =>
  `/api/v1/orgs/${encodeURIComponent(orgId)}/documents/${encodeURIComponent(documentId)}${
    versionId === undefined ? '' : `/versions/${encodeURIComponent(versionId)}`
  }`;

/**
 * A version's body holds up to 1 MiB of Markdown, which JSON escaping can grow (a newline is two bytes, a
 * control character six): its routes take up to seven.
 */
const VERSION_BODY_LIMIT = 7 * MAX_CONTENT_BYTES;

/** An org's controlled documents (policies, procedures, plans, records) and their versions. */
export const documentRoutes: FeatureRoutes = async function documentRoutes(app, { ctx }) {
  const versionUrl = (request: FastifyRequest, orgId: string, documentId: string) => (versionId: string) =>
    `${publicBase(request, ctx.config.publicUrl)}${documentPath(orgId, documentId, versionId)}`;
  const bodyLimit = Math.max(ctx.config.bodyLimitBytes, VERSION_BODY_LIMIT);

  app.post(
    '/orgs/:orgId/documents',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Create a controlled document: a policy, procedure, plan or record, with no version yet',
        description:
          'Each of `requirements` must be a requirement of the framework library (else 400 naming them); a ' +
          'published version becomes evidence on each. `reviewEvery` is an ISO 8601 duration (P1Y, P6M, P90D): ' +
          'the next review falls that long after each publication.',
        params: OrgIdParam,
        body: CreateDocumentBody,
        response: { 201: DocumentSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const document = await createDocument(ctx.db.em(), orgId, request.body, principalOf(request).actor);
      return reply.status(201).header('location', documentPath(orgId, document.documentId)).send(document);
    },
  );

  app.get(
    '/orgs/:orgId/documents',
    {
      schema: {
        tags: [TAG],
        summary: "A page of the org's documents, the next review soonest first",
        description:
          'Each with its published version and its draft (without their content). Filter by `kind` and ' +
          '`owner`. Documents without a next review come last, then by title.',
        params: OrgIdParam,
        querystring: DocumentListQuery,
        response: { 200: DocumentPageSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orgId: request.params.orgId,
      ...(await listDocuments(ctx.db.em(), request.params.orgId, request.query)),
    }),
  );

  app.get(
    '/orgs/:orgId/documents/:documentId',
    {
      schema: {
        tags: [TAG],
        summary: 'One document, with its published version and its draft',
        params: DocumentParams,
        response: { 200: DocumentSchema, ...errorResponses },
      },
    },
    async (request) => getDocument(ctx.db.em(), request.params.orgId, request.params.documentId),
  );

  app.put(
    '/orgs/:orgId/documents/:documentId',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: "Change a document's title, owner, requirements or review cadence",
        description:
          '`owner` or `reviewEvery` null removes it. A new `reviewEvery` moves the next review to one cadence ' +
          'after the published version’s publication. Requirements added while a version is published get it ' +
          'as evidence at once; those removed keep the evidence they had.',
        params: DocumentParams,
        body: UpdateDocumentBody,
        response: { 200: DocumentSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, documentId } = request.params;
      return updateDocument(
        ctx.db.em(),
        orgId,
        documentId,
        request.body,
        principalOf(request).actor,
        versionUrl(request, orgId, documentId),
      );
    },
  );

  app.delete(
    '/orgs/:orgId/documents/:documentId',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Delete a document that was never published, with its draft',
        description: 'A document with a published (or superseded) version → 409: it is evidence.',
        params: DocumentParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await deleteDocument(ctx.db.em(), request.params.orgId, request.params.documentId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/orgs/:orgId/documents/:documentId/versions',
    {
      bodyLimit,
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Start a draft: the next version, as Markdown content or a file URL, with a changelog',
        description:
          'Exactly one of `content` (Markdown, at most 1 MiB of UTF-8) and `fileUrl` (http or https, no user ' +
          'name or password), else 400. One draft at a time: a second → 409 naming the draft. The published ' +
          'version stays in force until the draft is approved.',
        params: DocumentParams,
        body: CreateVersionBody,
        response: { 201: VersionSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId, documentId } = request.params;
      const version = await createVersion(
        ctx.db.em(),
        orgId,
        documentId,
        request.body,
        principalOf(request).actor,
      );
      return reply
        .status(201)
        .header('location', documentPath(orgId, documentId, version.versionId))
        .send(version);
    },
  );

  app.get(
    '/orgs/:orgId/documents/:documentId/versions',
    {
      schema: {
        tags: [TAG],
        summary: "A document's versions, newest first, without their content",
        params: DocumentParams,
        response: { 200: VersionListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, documentId } = request.params;
      return { orgId, documentId, versions: await listVersions(ctx.db.em(), orgId, documentId) };
    },
  );

  app.get(
    '/orgs/:orgId/documents/:documentId/versions/:versionId',
    {
      schema: {
        tags: [TAG],
        summary: 'One version, with its content; a superseded version stays readable',
        params: VersionParams,
        response: { 200: VersionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, documentId, versionId } = request.params;
      return getVersion(ctx.db.em(), orgId, documentId, versionId);
    },
  );

  app.put(
    '/orgs/:orgId/documents/:documentId/versions/:versionId',
    {
      bodyLimit,
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Edit a draft: its content or file URL (either replaces the other) and its changelog',
        description:
          'Only a draft can be edited (else 409). Whoever edits it, other than its author, may not approve it.',
        params: VersionParams,
        body: UpdateVersionBody,
        response: { 200: VersionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, documentId, versionId } = request.params;
      return updateVersion(
        ctx.db.em(),
        orgId,
        documentId,
        versionId,
        request.body,
        principalOf(request).actor,
      );
    },
  );

  app.post(
    '/orgs/:orgId/documents/:documentId/versions/:versionId/approve',
    {
      config: { scope: 'approve', person: true },
      schema: {
        tags: [TAG],
        summary: 'Approve a draft and publish it (a signed-in approver or owner who did not write it)',
        description:
          'An API key → 403 `person_required`; its author or an editor → 403 `second_person_required`; not a ' +
          'draft → 409. The version is then published and immutable with its `contentHash`; the version ' +
          'published before becomes superseded (still readable); it becomes evidence (a document linking to ' +
          'this version) on each of the document’s requirements; and the document’s `nextReviewAt` is set one ' +
          '`reviewEvery` later.',
        params: VersionParams,
        response: { 200: VersionSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, documentId, versionId } = request.params;
      const principal = principalOf(request);
      return approveVersion(
        ctx.db.em(),
        orgId,
        documentId,
        versionId,
        { actor: principal.actor, email: principal.session?.email ?? '' },
        versionUrl(request, orgId, documentId)(versionId),
      );
    },
  );

  app.get(
    '/orgs/:orgId/documents/:documentId/versions/:versionId/diff',
    {
      schema: {
        tags: [TAG],
        summary: 'What changed between two versions: a line-based unified diff from `against` to this one',
        description:
          'Compares the Markdown of each (a version kept as a file URL counts as that one line). Versions ' +
          'that differ in more than 4,000 lines added and removed (or whose diff takes over a second) → 400 ' +
          '`diff_too_large`.',
        params: VersionParams,
        querystring: DiffQuery,
        response: { 200: VersionDiffSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, documentId, versionId } = request.params;
      return diffVersions(ctx.db.em(), orgId, documentId, versionId, request.query.against);
    },
  );
};
