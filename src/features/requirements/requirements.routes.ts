import type { Static } from 'typebox';
import type { FeatureRoutes } from '../../context.js';
import { badRequest } from '../../platform/errors.js';
import { INVALID_UTF8, isUtf8 } from '../../platform/text.js';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { principalOf, reviewerOf } from '../auth/auth.plugin.js';
import { heldLibrary } from '../cte/library.service.js';
import { sendRecordReport, sendReport } from '../cte/report-cache.js';
import { evidenceRoutesFor } from '../evidence/evidence.routes.js';
import { ScoreHistory } from '../scores/history.service.js';
import { HistorySchema } from '../scores/scores.schemas.js';
import { frameworkComplianceOf, orgFrameworksOf } from '../scores/scores.service.js';
import {
  FrameworkComplianceSchema,
  FrameworkHistoryQuery,
  ImportBody,
  ImportCsvBody,
  ImportQuery,
  ImportResultSchema,
  OrgFrameworkListSchema,
  OrgFrameworkParams,
  OrgRequirementEvidenceItemParams,
  OrgRequirementParams,
  RequirementApplicabilityBody,
  RequirementEvidenceListSchema,
  RequirementEvidenceSchema,
  RequirementItemSchema,
  RequirementListQuery,
  RequirementListSchema,
  RequirementStatusBody,
} from './requirements.schemas.js';
import {
  getRequirement,
  requirementsOf,
  requireRequirement,
  setRequirementApplicability,
  setRequirementStatus,
  withdrawAssessment,
} from './requirements.service.js';
import { importRequirementRecords } from './requirements-import.service.js';

const TAG = 'assessments';

/** A whole framework's rows with notes fit (5,000 rows of a few hundred bytes), over the default limit. */
const IMPORT_BODY_LIMIT = 8 * 1_048_576;
const requirementPath = (orgId: string, frameworkId: string, requirementId: string) =>
  `/api/v1/orgs/${encodeURIComponent(orgId)}/frameworks/${encodeURIComponent(frameworkId)}/requirements/${encodeURIComponent(requirementId)}`;

export const requirementRoutes: FeatureRoutes = async function requirementRoutes(app, { ctx }) {
  const scoreHistory = new ScoreHistory(ctx.jobs, ctx.log);
  app.get(
    '/orgs/:orgId/frameworks',
    {
      schema: {
        tags: [TAG],
        summary: "Every framework with the org's score and coverage",
        description:
          'Built-in frameworks, the ISO management-system clauses and imported catalogs. `score` counts effective statuses (direct records, else what the crosswalk infers); `directScore` counts direct records only; `coverage` is the CTE coverage.',
        params: OrgIdParam,
        response: { 200: OrgFrameworkListSchema, ...errorResponses },
      },
    },
    (request, reply) => sendReport(ctx, reply, request.params.orgId, 'frameworks', orgFrameworksOf),
  );

  app.get(
    '/orgs/:orgId/frameworks/:frameworkId/requirements',
    {
      schema: {
        tags: [TAG],
        summary: "Every requirement of a framework with the org's record and what the crosswalk infers",
        params: OrgFrameworkParams,
        querystring: RequirementListQuery,
        response: { 200: RequirementListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { orgId, frameworkId } = request.params;
      const { status, applicable, assessment } = request.query;
      // The filters' values are closed sets, so the keys an org can hold stay few.
      return sendRecordReport(
        ctx,
        reply,
        orgId,
        `requirements/${frameworkId}?${status ?? ''}&${applicable ?? ''}&${assessment ?? ''}`,
        async (analysis) => {
          const { requirements, validUntil } = await requirementsOf(
            ctx.db.em(),
            analysis,
            frameworkId,
            request.query,
          );
          return { value: { orgId, frameworkId, requirements }, validUntil };
        },
      );
    },
  );

  app.get(
    '/orgs/:orgId/frameworks/:frameworkId/requirements/:requirementId',
    {
      schema: {
        tags: [TAG],
        summary: 'One requirement, with the full crosswalk reasoning behind its inferred status',
        params: OrgRequirementParams,
        response: { 200: RequirementItemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, frameworkId, requirementId } = request.params;
      return {
        orgId,
        frameworkId,
        ...(await getRequirement(ctx.db.em(), orgId, frameworkId, requirementId)),
      };
    },
  );

  app.put(
    '/orgs/:orgId/frameworks/:frameworkId/requirements/:requirementId/status',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Record the status of a requirement (a direct record always wins over inference)',
        params: OrgRequirementParams,
        body: RequirementStatusBody,
        response: { 200: RequirementItemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, frameworkId, requirementId } = request.params;
      const entry = await setRequirementStatus(
        ctx.db.em(),
        { orgId, frameworkId, requirementId },
        {
          ...request.body,
          reviewer: reviewerOf(request, request.body.reviewer),
          keyId: principalOf(request).actor.id,
        },
      );
      return { orgId, frameworkId, ...entry };
    },
  );

  app.put(
    '/orgs/:orgId/frameworks/:frameworkId/requirements/:requirementId/applicability',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Record whether a requirement applies, with the justification and reviewer',
        params: OrgRequirementParams,
        body: RequirementApplicabilityBody,
        response: { 200: RequirementItemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, frameworkId, requirementId } = request.params;
      const entry = await setRequirementApplicability(
        ctx.db.em(),
        { orgId, frameworkId, requirementId },
        {
          ...request.body,
          reviewer: reviewerOf(request, request.body.reviewer),
          keyId: principalOf(request).actor.id,
        },
      );
      return { orgId, frameworkId, ...entry };
    },
  );

  app.delete(
    '/orgs/:orgId/frameworks/:frameworkId/requirements/:requirementId/assessment',
    {
      config: { scope: 'write' },
      schema: {
        tags: [TAG],
        summary: 'Withdraw the direct status and applicability: fall back to what the crosswalk infers',
        description:
          'Evidence, owner and note stay; the withdrawal is logged (actor: the API key). ISO/IEC 42001 controls always keep their record: `409`.',
        params: OrgRequirementParams,
        response: { 200: RequirementItemSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, frameworkId, requirementId } = request.params;
      const keyId = principalOf(request).actor.id;
      const entry = await withdrawAssessment(
        ctx.db.em(),
        { orgId, frameworkId, requirementId },
        { actor: reviewerOf(request, keyId), keyId },
      );
      return { orgId, frameworkId, ...entry };
    },
  );

  // Its own context, so that the CSV parser serves this route only.
  await app.register(async (scoped) => {
    scoped.addContentTypeParser('text/csv', { parseAs: 'buffer' }, (_request, raw, done) => {
      const bytes = raw as Buffer;
      if (!isUtf8(bytes)) return done(badRequest(`The file ${INVALID_UTF8}`, { reason: 'invalid_utf8' }));
      done(null, bytes.toString('utf8'));
    });
    // Two bodies, one per content type: the route states the type its schemas validate.
    scoped.post<{
      Params: Static<typeof OrgFrameworkParams>;
      Querystring: Static<typeof ImportQuery>;
      Body: Static<typeof ImportBody> | Static<typeof ImportCsvBody>;
    }>(
      '/orgs/:orgId/frameworks/:frameworkId/requirements/import',
      {
        bodyLimit: Math.max(ctx.config.bodyLimitBytes, IMPORT_BODY_LIMIT),
        // JSON strings are pattern-checked by the schema, and the import checks every CSV cell itself, so
        // that a NUL is refused with the line and column it is on.
        config: { scope: 'write', bodyMayHoldNul: true },
        schema: {
          tags: [TAG],
          summary:
            'Import statuses, applicability, notes and owners of many requirements at once (all or none)',
          description:
            'A JSON list of rows, or a CSV file (`Content-Type: text/csv`) with a header row. Every row is checked ' +
            'before anything is written: an unknown requirement (with the nearest id), an unknown status, an ' +
            'exclusion without a justification, a requirement on two rows, an empty file or more than 5,000 rows → ' +
            '`400` whose `details.rows` lists every bad row as `{row, column, message}`, and nothing is written. ' +
            'Otherwise every row is written in one transaction: an empty cell leaves its column as it is, a row ' +
            'equal to the record is `unchanged` (nothing written or logged), and each status or applicability ' +
            'that changes is logged as a single change would be. `dryRun` (body or query) answers the same and ' +
            'writes nothing. A signed-in person is the reviewer; an API key names one (`reviewer`).',
          params: OrgFrameworkParams,
          querystring: ImportQuery,
          body: {
            content: {
              'application/json': { schema: ImportBody },
              'text/csv': { schema: ImportCsvBody },
            },
          },
          response: { 200: ImportResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const { orgId, frameworkId } = request.params;
        const { body, query } = request;
        const options: { dryRun?: boolean; reviewer?: string } = typeof body === 'string' ? {} : body;
        return importRequirementRecords(
          ctx.db.em(),
          { orgId, frameworkId },
          typeof body === 'string' ? { csv: body } : { rows: body.rows },
          {
            dryRun: query.dryRun ?? options.dryRun ?? false,
            reviewer: reviewerOf(request, query.reviewer ?? options.reviewer ?? ''),
            keyId: principalOf(request).actor.id,
          },
        );
      },
    );
  });

  app.get(
    '/orgs/:orgId/frameworks/:frameworkId/compliance',
    {
      schema: {
        tags: [TAG],
        summary: 'The score of one framework, with how much of it rests on inference',
        params: OrgFrameworkParams,
        response: { 200: FrameworkComplianceSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { orgId, frameworkId } = request.params;
      return sendReport(ctx, reply, orgId, `compliance/${frameworkId}`, (analysis) =>
        frameworkComplianceOf(analysis, frameworkId),
      );
    },
  );

  app.get(
    '/orgs/:orgId/frameworks/:frameworkId/compliance/history',
    {
      schema: {
        tags: [TAG],
        summary: 'The score history of one framework, rebuilt exactly from the change log',
        description:
          'As `GET /orgs/{orgId}/compliance/history`, for any framework (the same engine answers both). ISO/IEC 42001 reads its daily roll-ups; other frameworks replay the change log of every framework (inference depends on all of them) over the current crosswalk.',
        params: OrgFrameworkParams,
        querystring: FrameworkHistoryQuery,
        response: { 200: HistorySchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, frameworkId } = request.params;
      return scoreHistory.read(ctx.db.em(), orgId, frameworkId, request.query);
    },
  );

  await app.register(
    evidenceRoutesFor({
      path: '/orgs/:orgId/frameworks/:frameworkId/requirements/:requirementId/evidence',
      tag: TAG,
      params: OrgRequirementParams,
      itemParams: OrgRequirementEvidenceItemParams,
      item: RequirementEvidenceSchema,
      list: RequirementEvidenceListSchema,
      keyOf: async (em, { orgId, frameworkId, requirementId }) => {
        requireRequirement((await heldLibrary(ctx, em)).library, frameworkId, requirementId);
        return { orgId, frameworkId, requirementId };
      },
      decorate: ({ frameworkId, requirementId }) => ({ frameworkId, requirementId }),
      location: ({ orgId, frameworkId, requirementId }) =>
        `${requirementPath(orgId, frameworkId, requirementId)}/evidence`,
    }),
    { ctx },
  );
};
