import type { FeatureRoutes } from '../../context.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import {
  AuditListSchema,
  AuditParams,
  AuditSchema,
  CloseFindingBody,
  CreateAuditBody,
  CreateFindingBody,
  FindingListSchema,
  FindingParams,
  FindingQuery,
  FindingSchema,
  OrgFindingParams,
  UpdateAuditBody,
  UpdateFindingBody,
} from './audits.schemas.js';
import {
  changeAudit,
  changeFinding,
  checkFinding,
  createAudit,
  getAudit,
  getFinding,
  listAudits,
  listFindings,
  openFinding,
} from './audits.service.js';

const TAG = 'audits';

/** Internal audits (ISO/IEC 42001 9.2) and their findings (10.2), under the org scope. */
export const auditRoutes: FeatureRoutes = async function auditRoutes(app, { ctx }) {
  const location = (orgId: string, path: string) => `/api/v1/orgs/${encodeURIComponent(orgId)}${path}`;

  app.post(
    '/orgs/:orgId/audits',
    {
      schema: {
        tags: [TAG],
        summary: 'Plan an internal audit over chosen frameworks',
        params: OrgIdParam,
        body: CreateAuditBody,
        response: { 201: AuditSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const audit = await createAudit(ctx.db.em(), request.params.orgId, request.body);
      return reply
        .status(201)
        .header('location', location(request.params.orgId, `/audits/${audit.auditId}`))
        .send(audit);
    },
  );

  app.get(
    '/orgs/:orgId/audits',
    {
      schema: {
        tags: [TAG],
        summary: 'The internal audits, latest planned first, with their findings counted',
        params: OrgIdParam,
        response: { 200: AuditListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orgId: request.params.orgId,
      audits: await listAudits(ctx.db.em(), request.params.orgId),
    }),
  );

  app.get(
    '/orgs/:orgId/audits/:auditId',
    {
      schema: {
        tags: [TAG],
        summary: 'One internal audit',
        params: AuditParams,
        response: { 200: AuditSchema, ...errorResponses },
      },
    },
    async (request) => getAudit(ctx.db.em(), request.params.orgId, request.params.auditId),
  );

  app.put(
    '/orgs/:orgId/audits/:auditId',
    {
      schema: {
        tags: [TAG],
        summary:
          'Change the plan, or move the audit on: planned → in_progress → completed (with a conclusion)',
        description: 'A completed audit cannot change (`409`); a step out of order is `409`.',
        params: AuditParams,
        body: UpdateAuditBody,
        response: { 200: AuditSchema, ...errorResponses },
      },
    },
    async (request) => changeAudit(ctx.db.em(), request.params.orgId, request.params.auditId, request.body),
  );

  app.post(
    '/orgs/:orgId/audits/:auditId/findings',
    {
      schema: {
        tags: [TAG],
        summary: 'Record a finding on requirements (a completed audit takes none)',
        description:
          'While a major nonconformity is open, each of its requirements counts at most as `in_progress` in ' +
          'scores, gaps and coverage, and lists it under `findings`.',
        params: AuditParams,
        body: CreateFindingBody,
        response: { 201: FindingSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId, auditId } = request.params;
      const finding = await openFinding(ctx.db.em(), orgId, auditId, request.body);
      return reply
        .status(201)
        .header('location', location(orgId, `/audits/${auditId}/findings/${finding.findingId}`))
        .send(finding);
    },
  );

  app.get(
    '/orgs/:orgId/audits/:auditId/findings',
    {
      schema: {
        tags: [TAG],
        summary: "An audit's findings",
        params: AuditParams,
        querystring: FindingQuery,
        response: { 200: FindingListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orgId: request.params.orgId,
      findings: await listFindings(ctx.db.em(), request.params.orgId, {
        auditId: request.params.auditId,
        ...request.query,
      }),
    }),
  );

  app.get(
    '/orgs/:orgId/findings',
    {
      schema: {
        tags: [TAG],
        summary: 'Every finding of the org, oldest first',
        params: OrgIdParam,
        querystring: FindingQuery,
        response: { 200: FindingListSchema, ...errorResponses },
      },
    },
    async (request) => ({
      orgId: request.params.orgId,
      findings: await listFindings(ctx.db.em(), request.params.orgId, request.query),
    }),
  );

  app.get(
    '/orgs/:orgId/findings/:findingId',
    {
      schema: {
        tags: [TAG],
        summary: 'One finding',
        params: OrgFindingParams,
        response: { 200: FindingSchema, ...errorResponses },
      },
    },
    async (request) => getFinding(ctx.db.em(), request.params.orgId, request.params.findingId),
  );

  app.put(
    '/orgs/:orgId/audits/:auditId/findings/:findingId',
    {
      schema: {
        tags: [TAG],
        summary: 'Set the root cause, corrective action, owner and due date of an open finding',
        params: FindingParams,
        body: UpdateFindingBody,
        response: { 200: FindingSchema, ...errorResponses },
      },
    },
    async (request) =>
      changeFinding(ctx.db.em(), request.params.orgId, request.params.findingId, request.body),
  );

  app.post(
    '/orgs/:orgId/audits/:auditId/findings/:findingId/close',
    {
      config: { scope: 'approve', person: true },
      schema: {
        tags: [TAG],
        summary:
          'Check the corrective action’s effectiveness (a signed-in approver or owner); only an effective check closes',
        description:
          'Every check is kept. `effective: false` records it and the finding stays open; `true` closes it and ' +
          'releases the cap of a major nonconformity.',
        params: FindingParams,
        body: CloseFindingBody,
        response: { 200: FindingSchema, ...errorResponses },
      },
    },
    async (request) => {
      const person = principalOf(request).session as NonNullable<ReturnType<typeof principalOf>['session']>;
      return checkFinding(ctx.db.em(), request.params.orgId, request.params.findingId, request.body, {
        userId: person.userId,
        email: person.email,
        name: person.name,
      });
    },
  );
};
