import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { requireOrg } from '../orgs/orgs.service.js';
import { principalOf } from '../plugins/auth.js';
import { errorResponses } from '../schemas.js';
import {
  CreateEvidenceBody,
  EvidenceItemParams,
  EvidenceListQuery,
  EvidenceListSchema,
  EvidenceParams,
  EvidenceSchema,
} from './evidence.schemas.js';
import { addEvidence, getEvidence, listEvidence } from './evidence.service.js';

const evidencePath = (orgId: string, controlId: string) =>
  `/api/v1/orgs/${encodeURIComponent(orgId)}/controls/${encodeURIComponent(controlId)}/evidence`;

export const evidenceRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/orgs/:orgId/controls/:controlId/evidence',
    {
      config: { scope: 'write' },
      schema: {
        tags: ['evidence'],
        summary: 'Attach evidence (attestation, document or link) to a control',
        description:
          '`fileUrl` must be an absolute http(s) URL and is required for `document` and `link`. ' +
          'Optional `effectiveDate` and `expiresAt` bound when the evidence counts; expired evidence is ' +
          'flagged in lists, and a control whose evidence has all expired is flagged in the org controls.',
        params: EvidenceParams,
        body: CreateEvidenceBody,
        response: { 201: EvidenceSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const em = ctx.db.em();
      const { orgId, controlId } = request.params;
      await requireOrg(em, orgId);
      const evidence = await addEvidence(em, {
        orgId,
        controlId,
        evidence: request.body,
        createdBy: principalOf(request).keyId,
      });
      return reply
        .status(201)
        .header('location', `${evidencePath(orgId, controlId)}/${evidence.evidenceId}`)
        .send(evidence);
    },
  );

  app.get(
    '/orgs/:orgId/controls/:controlId/evidence',
    {
      schema: {
        tags: ['evidence'],
        summary: "A page of a control's evidence, newest first",
        params: EvidenceParams,
        querystring: EvidenceListQuery,
        response: { 200: EvidenceListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const em = ctx.db.em();
      const { orgId, controlId } = request.params;
      await requireOrg(em, orgId);
      return { orgId, controlId, ...(await listEvidence(em, orgId, controlId, request.query)) };
    },
  );

  app.get(
    '/orgs/:orgId/controls/:controlId/evidence/:evidenceId',
    {
      schema: {
        tags: ['evidence'],
        summary: 'One evidence item',
        params: EvidenceItemParams,
        response: { 200: EvidenceSchema, ...errorResponses },
      },
    },
    async (request) => {
      const em = ctx.db.em();
      const { orgId, controlId, evidenceId } = request.params;
      await requireOrg(em, orgId);
      return getEvidence(em, orgId, controlId, evidenceId);
    },
  );
};
