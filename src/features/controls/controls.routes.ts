import type { FeatureRoutes } from '../../context.js';
import { type SerializedBody, sendSerialized, serializedBody } from '../../platform/cache/org-read-cache.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf, reviewerOf } from '../auth/auth.plugin.js';
import {
  ApplicabilityBody,
  ControlIdParams,
  ControlListQuery,
  ControlListSchema,
  ControlSchema,
  OrgControlListQuery,
  OrgControlListSchema,
  OrgControlParams,
  OrgControlSchema,
  StatusBody,
} from './controls.schemas.js';
import {
  getControl,
  getOrgControl,
  listControls,
  listOrgControls,
  setApplicability,
  setStatus,
} from './controls.service.js';

/** Distinct library queries whose responses are kept; searches beyond it are answered uncached. */
const LIBRARY_RESPONSES_MAX = 1000;

/** The control library, the same for every org. */
export const controlLibraryRoutes: FeatureRoutes = async function controlLibraryRoutes(app, { ctx }) {
  // The library changes only when a release seeds it at start, so its responses are kept serialized.
  const libraryResponses = new Map<string, SerializedBody>();
  app.get(
    '/controls',
    {
      schema: {
        tags: ['controls'],
        summary: 'The ISO/IEC 42001 Annex A control library',
        description:
          'Filter by `domain`; `search` is ranked full-text search over id, title and description.',
        querystring: ControlListQuery,
        response: { 200: ControlListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const key = `${request.query.domain ?? ''}\u0000${request.query.search ?? ''}`;
      let body = libraryResponses.get(key);
      if (body === undefined) {
        const controls = await listControls(ctx.db.em(), request.query);
        body = serializedBody(reply.serialize({ controls, total: controls.length }) as string);
        if (libraryResponses.size < LIBRARY_RESPONSES_MAX) libraryResponses.set(key, body);
      }
      return sendSerialized(reply, body);
    },
  );

  app.get(
    '/controls/:controlId',
    {
      schema: {
        tags: ['controls'],
        summary: 'One library control',
        params: ControlIdParams,
        response: { 200: ControlSchema, ...errorResponses },
      },
    },
    async (request) => getControl(ctx.db.em(), request.params.controlId),
  );
};

/** An org's controls (under the org scope). */
export const controlRoutes: FeatureRoutes = async function controlRoutes(app, { ctx }) {
  app.get(
    '/orgs/:orgId/controls',
    {
      schema: {
        tags: ['controls'],
        summary: "An organization's controls with status, applicability and latest evidence",
        params: OrgIdParam,
        querystring: OrgControlListQuery,
        response: { 200: OrgControlListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const em = ctx.db.em();
      const { orgId } = request.params;
      const body = await ctx.readCache.get(
        orgId,
        `controls?${new URLSearchParams(request.query as Record<string, string>)}`,
        async () => {
          const { controls, validUntil } = await listOrgControls(em, orgId, request.query);
          return { value: { orgId, controls }, validUntil };
        },
        (value) => reply.serialize(value) as string,
      );
      return sendSerialized(reply, body);
    },
  );

  app.get(
    '/orgs/:orgId/controls/:controlId',
    {
      schema: {
        tags: ['controls'],
        summary: "An organization's state of one control",
        params: OrgControlParams,
        response: { 200: OrgControlSchema, ...errorResponses },
      },
    },
    async (request) => {
      const em = ctx.db.em();
      return getOrgControl(em, request.params.orgId, request.params.controlId);
    },
  );

  app.put(
    '/orgs/:orgId/controls/:controlId/applicability',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['controls'],
        summary: 'Set whether a control applies, with the justification and reviewer an auditor needs',
        params: OrgControlParams,
        body: ApplicabilityBody,
        response: { 200: OrgControlSchema, ...errorResponses },
      },
    },
    async (request) => {
      const em = ctx.db.em();
      const { orgId, controlId } = request.params;
      return setApplicability(em, {
        orgId,
        controlId,
        applicable: request.body.applicable,
        justification: request.body.justification,
        actor: reviewerOf(request, request.body.reviewer),
        keyId: principalOf(request).actor.id,
      });
    },
  );

  app.put(
    '/orgs/:orgId/controls/:controlId/status',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['controls'],
        summary: 'Set the implementation status of a control',
        params: OrgControlParams,
        body: StatusBody,
        response: { 200: OrgControlSchema, ...errorResponses },
      },
    },
    async (request) => {
      const em = ctx.db.em();
      const { orgId, controlId } = request.params;
      return setStatus(em, {
        orgId,
        controlId,
        status: request.body.status,
        note: request.body.note,
        actor: reviewerOf(request, request.body.reviewer),
        keyId: principalOf(request).actor.id,
      });
    },
  );
};
