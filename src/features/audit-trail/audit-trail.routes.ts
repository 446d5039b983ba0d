import type { FeatureRoutes } from '../../context.js';
import { type AuditFilter, PLATFORM_CHAIN, selectEvents } from '../../platform/audit/audit.store.js';
import { verifyChain } from '../../platform/audit/chain.js';
import type { Em } from '../../platform/db/database.js';
import { badRequest } from '../../platform/errors.js';
import { parseInstant } from '../../platform/time.js';
import { errorResponses } from '../../shared/schemas.js';
import {
  AuditLogSchema,
  AuditOrgParams,
  AuditQuery,
  AuditVerificationSchema,
} from './audit-trail.schemas.js';

const TAG = 'audit';

type Query = {
  from?: string;
  to?: string;
  actorId?: string;
  action?: string;
  resourceType?: string;
  limit?: number;
  cursor?: string;
};

async function readLog(em: Em, orgId: string | null, query: Query) {
  const filter: AuditFilter = {
    from: query.from ? parseInstant(query.from, 'querystring.from') : undefined,
    to: query.to ? parseInstant(query.to, 'querystring.to') : undefined,
    actorId: query.actorId,
    action: query.action,
    resourceType: query.resourceType,
    beforeSeq: query.cursor === undefined ? undefined : Number(query.cursor),
    limit: query.limit ?? 50,
  };
  if (filter.from && filter.to && filter.from > filter.to) {
    throw badRequest('from must not be after to', {
      fields: [{ field: 'querystring.from', message: 'after to' }],
    });
  }
  const events = await selectEvents(em, orgId ?? PLATFORM_CHAIN, filter);
  const page = events.slice(0, filter.limit);
  return {
    orgId,
    events: page,
    nextCursor: events.length > filter.limit ? String(page[page.length - 1].seq) : null,
  };
}

const LOG_DESCRIPTION =
  'Every successful change, by a key or a person, appended in the same transaction as the change and hash-chained: ' +
  '`hash` is SHA-256 (hex) of `prevHash` followed by the RFC 8785 JSON of the event without `hash`. Newest first; ' +
  '`nextCursor` pages on. `action` filters one action (`requirement.updated`) or, ending in a dot, a family (`member.`).';

/** An org's audit trail (under the org scope): owners, auditors and platform administrators read it. */
export const auditTrailRoutes: FeatureRoutes = async function auditTrailRoutes(app, { ctx }) {
  app.get(
    '/orgs/:orgId/audit-log',
    {
      config: { scope: 'audit' },
      schema: {
        tags: [TAG],
        summary: "The organization's audit trail",
        description: LOG_DESCRIPTION,
        params: AuditOrgParams,
        querystring: AuditQuery,
        response: { 200: AuditLogSchema, ...errorResponses },
      },
    },
    async (request) => readLog(ctx.db.em(), request.params.orgId, request.query),
  );

  app.get(
    '/orgs/:orgId/audit-log/verify',
    {
      config: { scope: 'audit' },
      schema: {
        tags: [TAG],
        summary: 'Walk the organization’s chain: valid, or the first event that was altered or removed',
        params: AuditOrgParams,
        response: { 200: AuditVerificationSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orgId: request.params.orgId,
      ...(await verifyChain(ctx.db.em(), request.params.orgId)),
    }),
  );
};

/** The platform's log: sign-ins, failed sign-ins, sign-outs, people, shared frameworks and edges (admin). */
export const platformAuditTrailRoutes: FeatureRoutes = async function platformAuditTrailRoutes(app, { ctx }) {
  app.get(
    '/audit-log',
    {
      config: { scope: 'admin' },
      schema: {
        tags: [TAG],
        summary: 'The platform log: sign-ins and sign-outs, people, imported frameworks and analyst edges',
        description: LOG_DESCRIPTION,
        querystring: AuditQuery,
        response: { 200: AuditLogSchema, ...errorResponses },
      },
    },
    async (request) => readLog(ctx.db.em(), null, request.query),
  );

  app.get(
    '/audit-log/verify',
    {
      config: { scope: 'admin' },
      schema: {
        tags: [TAG],
        summary: 'Walk the platform log’s chain',
        response: { 200: AuditVerificationSchema, ...errorResponses },
      },
    },
    async () => ({ orgId: null, ...(await verifyChain(ctx.db.em(), PLATFORM_CHAIN)) }),
  );
};
