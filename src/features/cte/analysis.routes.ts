import type { FeatureRoutes } from '../../context.js';
import { whenReady } from '../../platform/ready.js';
import { errorResponses } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import { isPlatform } from '../auth/scopes.js';
import {
  analysisOf,
  coverageOf,
  explainRequirement,
  frameworkCoverageOf,
  gapsOf,
} from './analysis.service.js';
import {
  ConflictListSchema,
  ConflictQuery,
  CoverageSchema,
  FrameworkCoverageSchema,
  FrameworkParams,
  GapQuery,
  GapReportSchema,
  OrgQuery,
  RequirementCoverageSchema,
  RequirementParams,
} from './cte.schemas.js';
import { analysedOrg } from './cte-org.js';
import { listConflicts } from './frameworks.service.js';
import { heldLibrary } from './library.service.js';
import { sendReport } from './report-cache.js';

const ORG_NOTE = 'With a tenant key the key’s organization; a platform key names it with `orgId`.';

export const analysisRoutes: FeatureRoutes = async function analysisRoutes(app, { ctx }) {
  app.get(
    '/gaps/:frameworkId',
    {
      schema: {
        tags: ['cte'],
        summary: 'Gap analysis of one framework for an organization',
        description: `Every unmet requirement with its priority and a specific recommendation. ${ORG_NOTE}`,
        params: FrameworkParams,
        querystring: GapQuery,
        response: { 200: GapReportSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { frameworkId } = request.params;
      const { include } = request.query;
      // The two variants are serialized apart: each has its own name in the org read cache.
      const name = include ? `gaps/${frameworkId}?include=${include}` : `gaps/${frameworkId}`;
      return whenReady(analysedOrg(ctx, request, request.query.orgId), (orgId) =>
        sendReport(ctx, reply, orgId, name, (analysis) => gapsOf(analysis, frameworkId, { include })),
      );
    },
  );

  app.get(
    '/coverage',
    {
      schema: {
        tags: ['cte'],
        summary: 'Coverage of every framework for an organization, and pairwise through the crosswalk',
        description: `Statuses of the org's ISO/IEC 42001 controls propagate along crosswalk edges. ${ORG_NOTE}`,
        querystring: OrgQuery,
        response: { 200: CoverageSchema, ...errorResponses },
      },
    },
    (request, reply) =>
      whenReady(analysedOrg(ctx, request, request.query.orgId), (orgId) =>
        sendReport(ctx, reply, orgId, 'coverage', coverageOf),
      ),
  );

  app.get(
    '/coverage/:frameworkId',
    {
      schema: {
        tags: ['cte'],
        summary: "One framework's coverage for an organization, requirement by requirement",
        params: FrameworkParams,
        querystring: OrgQuery,
        response: { 200: FrameworkCoverageSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { frameworkId } = request.params;
      return whenReady(analysedOrg(ctx, request, request.query.orgId), (orgId) =>
        sendReport(ctx, reply, orgId, `coverage/${frameworkId}`, (analysis) =>
          frameworkCoverageOf(analysis, frameworkId),
        ),
      );
    },
  );

  app.get(
    '/coverage/:frameworkId/:requirementId',
    {
      schema: {
        tags: ['cte'],
        summary: 'Why a requirement is covered or not: the controls and crosswalk edges behind it',
        params: RequirementParams,
        querystring: OrgQuery,
        response: { 200: RequirementCoverageSchema, ...errorResponses },
      },
    },
    async (request) => {
      const em = ctx.db.em();
      const orgId = await analysedOrg(ctx, request, request.query.orgId);
      return explainRequirement(em, orgId, request.params.frameworkId, request.params.requirementId);
    },
  );

  app.get(
    '/conflicts',
    {
      schema: {
        tags: ['cte'],
        summary: 'Conflicting requirements across frameworks, curated and computed from parameters',
        querystring: ConflictQuery,
        response: { 200: ConflictListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { orgId, ...filter } = request.query;
      const em = ctx.db.em();
      if (orgId === undefined && isPlatform(principalOf(request))) {
        return listConflicts((await heldLibrary(ctx, em)).library, filter);
      }
      const analysis = await analysisOf(em, await analysedOrg(ctx, request, orgId));
      return listConflicts(
        analysis.library,
        filter,
        (ref) => analysis.coverage.get(ref.frameworkId, ref.requirementId)?.applicable !== false,
      );
    },
  );
};
