import type { FeatureRoutes } from '../../context.js';
import { sendSerialized } from '../../platform/cache/org-read-cache.js';
import { ErrorEnvelopeSchema, errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import { AttestationIngest } from './attestations.ingest.js';
import { attestationPageBody, getAttestation } from './attestations.query.js';
import {
  AttestationBodySchema,
  AttestationListQuery,
  AttestationListSchema,
  AttestationParams,
  AttestationSchema,
  EpochParams,
  EpochSchema,
} from './attestations.schemas.js';

export const attestationRoutes: FeatureRoutes = async function attestationRoutes(app, { ctx }) {
  const ingest = new AttestationIngest(ctx.db, {
    caches: ctx.caches,
    systems: ctx.aiSystems,
    freshnessDays: ctx.config.attestationFreshnessDays,
  });
  app.addHook('onClose', () => ingest.close());

  app.post(
    '/orgs/:orgId/attestations',
    {
      // The hot path skips the NUL scan: ids are pattern-checked, control ids are matched against the
      // library in memory, and the content is stored as JSON text.
      config: { scope: 'attest', bodyMayHoldNul: true, outsideAuditTrail: true },
      schema: {
        tags: ['attestations'],
        summary: 'Ingest an attestation from a sidecar (idempotent by attestationId)',
        description:
          '201 once the attestation and its evidence (type `attestation`, one per listed control) are ' +
          'committed. A re-post of the same attestationId with the same content answers 200 with the ' +
          'stored record; with different content, 409. L2 bodies are signed: Ed25519 over the RFC 8785 ' +
          'canonical JSON of the body without `signature`, by a sidecar key registered for the org; a ' +
          'missing, malformed, unknown, revoked or wrong signature answers 400 with `details.reason`. ' +
          '503: the database stayed unreachable; retry with the same attestationId.',
        params: OrgIdParam,
        body: AttestationBodySchema,
        response: {
          200: AttestationSchema,
          201: AttestationSchema,
          ...errorResponses,
          503: ErrorEnvelopeSchema,
        },
      },
    },
    (request, reply) => {
      const { orgId } = request.params;
      const postedBy = principalOf(request).actor.id;
      return ingest.ingest(orgId, request.body, postedBy).then(({ created, record }) => {
        if (created) {
          reply
            .status(201)
            .header('location', `${request.url.split('?')[0]}/${encodeURIComponent(record.attestationId)}`);
        }
        return record;
      });
    },
  );

  app.get(
    '/orgs/:orgId/attestations',
    {
      schema: {
        tags: ['attestations'],
        summary: "An organization's attestations, newest first",
        description:
          'Filters: level, epochId, systemId (the AI system an attestation is about), from/to (inclusive, on the ' +
          'attestation timestamp). Page with ' +
          "`cursor` (the previous page's `nextCursor`, O(page) at any depth) or `offset`.",
        params: OrgIdParam,
        querystring: AttestationListQuery,
        response: { 200: AttestationListSchema, ...errorResponses },
      },
    },
    (request, reply) =>
      sendSerialized(
        reply,
        attestationPageBody(
          ctx,
          request.params.orgId,
          request.query,
          (page) => reply.serialize(page) as string,
        ),
      ),
  );

  app.get(
    '/orgs/:orgId/attestations/epochs/:epochId',
    {
      schema: {
        tags: ['attestations'],
        summary:
          "An epoch's count, time span and Merkle root, for checking an export is complete and unaltered",
        params: EpochParams,
        response: { 200: EpochSchema, ...errorResponses },
      },
    },
    async (request) =>
      ctx.caches.epochSummaries.read(ctx.db.em(), request.params.orgId, request.params.epochId),
  );

  app.get(
    '/orgs/:orgId/attestations/:attestationId',
    {
      schema: {
        tags: ['attestations'],
        summary: 'One attestation',
        params: AttestationParams,
        response: { 200: AttestationSchema, ...errorResponses },
      },
    },
    async (request) => getAttestation(ctx.db.em(), request.params.orgId, request.params.attestationId),
  );
};
