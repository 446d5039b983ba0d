import { Type } from 'typebox';
import type { FeatureRoutes } from '../../context.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import { sendRecordReport } from '../cte/report-cache.js';
import {
  AcceptanceSchema,
  AcceptRiskBody,
  CreateRiskBody,
  RiskCriteriaBody,
  RiskCriteriaSchema,
  RiskListSchema,
  RiskParams,
  RiskQuery,
  RiskSchema,
  RiskSummarySchema,
  UpdateRiskBody,
} from './risks.schemas.js';
import {
  acceptRisk,
  changeRisk,
  createRisk,
  criteriaOf,
  criteriaView,
  filterRisks,
  getRisk,
  registerOf,
  removeRisk,
  setCriteria,
  summarize,
  withdrawAcceptance,
} from './risks.service.js';

const TAG = 'risks';

/** The AI risk register (under the org scope). */
export const riskRoutes: FeatureRoutes = async function riskRoutes(app, { ctx }) {
  const resolveSystem = (orgId: string, value: string) => ctx.aiSystems.resolve(orgId, value);

  app.get(
    '/orgs/:orgId/risk-criteria',
    {
      schema: {
        tags: [TAG],
        summary:
          'How the org rates AI risks: likelihood × impact (1–5 each), levels by score, what it accepts',
        params: OrgIdParam,
        response: { 200: RiskCriteriaSchema, ...errorResponses },
      },
    },
    async (request) =>
      criteriaView(request.params.orgId, await criteriaOf(ctx.db.em(), request.params.orgId)),
  );

  app.put(
    '/orgs/:orgId/risk-criteria',
    {
      schema: {
        tags: [TAG],
        summary: 'Set the score bands of the levels and the acceptable level',
        description:
          'Levels run low → critical, ascending without overlap, and every score a likelihood and an impact of ' +
          '1–5 can make has one. Residual risk above `acceptableLevel` needs an acceptance.',
        params: OrgIdParam,
        body: RiskCriteriaBody,
        response: { 200: RiskCriteriaSchema, ...errorResponses },
      },
    },
    async (request) =>
      criteriaView(request.params.orgId, await setCriteria(ctx.db.em(), request.params.orgId, request.body)),
  );

  app.post(
    '/orgs/:orgId/risks',
    {
      schema: {
        tags: [TAG],
        summary:
          'Add an AI risk: its systems, inherent rating, treatment (requirements of any framework), residual rating',
        description:
          'Residual equals inherent until given. Unknown AI systems (ids or unique names) or requirements → `400` ' +
          'naming them. `state` is derived: see the schema.',
        params: OrgIdParam,
        body: CreateRiskBody,
        response: { 201: RiskSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId } = request.params;
      const risk = await createRisk(
        ctx.db.em(),
        orgId,
        request.body,
        principalOf(request).actor.id,
        resolveSystem,
      );
      return reply
        .status(201)
        .header('location', `/api/v1/orgs/${encodeURIComponent(orgId)}/risks/${risk.riskId}`)
        .send(risk);
    },
  );

  app.get(
    '/orgs/:orgId/risks',
    {
      schema: {
        tags: [TAG],
        summary: 'The risk register, oldest first',
        description:
          '`level` filters by residual level; `requirement=<frameworkId>:<requirementId>` lists the risks whose ' +
          'treatment names that requirement.',
        params: OrgIdParam,
        querystring: RiskQuery,
        response: { 200: RiskListSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { orgId } = request.params;
      const { limit = 100, offset = 0, ...filter } = request.query;
      const key = `risks?${new URLSearchParams(request.query as Record<string, string>)}`;
      return sendRecordReport(ctx, reply, orgId, key, async (analysis) => {
        const { risks, validUntil } = await registerOf(ctx.db.em(), orgId, analysis);
        const matching = filterRisks(risks, filter);
        const page = {
          orgId,
          risks: matching.slice(offset, offset + limit),
          total: matching.length,
          limit,
          offset,
        };
        return { value: page, validUntil };
      });
    },
  );

  app.get(
    '/orgs/:orgId/risks/summary',
    {
      schema: {
        tags: [TAG],
        summary: 'Counts by level and state, the 5 × 5 matrices, overdue treatments, acceptances by state',
        params: OrgIdParam,
        response: { 200: RiskSummarySchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { orgId } = request.params;
      return sendRecordReport(ctx, reply, orgId, 'risks/summary', async (analysis) => {
        const { risks, validUntil } = await registerOf(ctx.db.em(), orgId, analysis);
        return { value: summarize(orgId, risks), validUntil };
      });
    },
  );

  app.get(
    '/orgs/:orgId/risks/:riskId',
    {
      schema: {
        tags: [TAG],
        summary: 'One risk, assessed',
        params: RiskParams,
        response: { 200: RiskSchema, ...errorResponses },
      },
    },
    async (request) => getRisk(ctx.db.em(), request.params.orgId, request.params.riskId),
  );

  app.put(
    '/orgs/:orgId/risks/:riskId',
    {
      schema: {
        tags: [TAG],
        summary: 'Change a risk; a change of its assessed fields makes its acceptance stale',
        params: RiskParams,
        body: UpdateRiskBody,
        response: { 200: RiskSchema, ...errorResponses },
      },
    },
    async (request) =>
      changeRisk(ctx.db.em(), request.params.orgId, request.params.riskId, request.body, resolveSystem),
  );

  app.delete(
    '/orgs/:orgId/risks/:riskId',
    {
      schema: {
        tags: [TAG],
        summary: 'Remove a risk',
        params: RiskParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await removeRisk(ctx.db.em(), request.params.orgId, request.params.riskId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/orgs/:orgId/risks/:riskId/acceptance',
    {
      config: { scope: 'approve', person: true },
      schema: {
        tags: [TAG],
        summary: 'Accept the residual risk as it stands (a signed-in approver or owner), until a date',
        description:
          'Bound to `stateHash`, the hash of the risk’s assessed fields: when they change the acceptance turns ' +
          '`stale`, after `expiresAt` `expired`, and the risk needs accepting again. A key gets `403` ' +
          '(`person_required`).',
        params: RiskParams,
        body: AcceptRiskBody,
        response: { 201: AcceptanceSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { session } = principalOf(request);
      const person = session as NonNullable<typeof session>;
      const acceptance = await acceptRisk(
        ctx.db.em(),
        request.params.orgId,
        request.params.riskId,
        request.body,
        {
          userId: person.userId,
          email: person.email,
          name: person.name,
        },
      );
      return reply.status(201).send(acceptance);
    },
  );

  app.delete(
    '/orgs/:orgId/risks/:riskId/acceptance',
    {
      config: { scope: 'approve', person: true },
      schema: {
        tags: [TAG],
        summary: 'Withdraw the risk’s acceptance',
        params: RiskParams,
        response: { 204: Type.Null(), ...errorResponses },
      },
    },
    async (request, reply) => {
      await withdrawAcceptance(ctx.db.em(), request.params.orgId, request.params.riskId);
      return reply.status(204).send(null);
    },
  );
};
