import { errorResponses } from '../schemas.js';
import { explainRequirement, orgCoverage, orgFrameworkCoverage, orgGaps } from './analysis.service.js';
import { ConflictListSchema, ConflictQuery, CoverageSchema, FrameworkCoverageSchema, FrameworkParams, GapReportSchema, OrgQuery, RequirementCoverageSchema, RequirementParams, } from './cte.schemas.js';
import { analysedOrg } from './cte-org.js';
import { listConflicts } from './frameworks.service.js';
import { currentLibrary } from './library.service.js';
const ORG_NOTE = 'With a tenant key the key’s organization; a platform key names it with `orgId`.';
export const analysisRoutes = async (app, { ctx }) => {
    app.get('/gaps/:frameworkId', {
        schema: {
            tags: ['cte'],
            summary: 'Gap analysis of one framework for an organization',
            description: `Every unmet requirement with its priority and a specific recommendation. ${ORG_NOTE}`,
            params: FrameworkParams,
            querystring: OrgQuery,
            response: { 200: GapReportSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        const orgId = await analysedOrg(em, request, request.query.orgId);
        return orgGaps(em, orgId, request.params.frameworkId);
    });
    app.get('/coverage', {
        schema: {
            tags: ['cte'],
            summary: 'Coverage of every framework for an organization, and pairwise through the crosswalk',
            description: `Statuses of the org's ISO/IEC 42001 controls propagate along crosswalk edges. ${ORG_NOTE}`,
            querystring: OrgQuery,
            response: { 200: CoverageSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return orgCoverage(em, await analysedOrg(em, request, request.query.orgId));
    });
    app.get('/coverage/:frameworkId', {
        schema: {
            tags: ['cte'],
            summary: "One framework's coverage for an organization, requirement by requirement",
            params: FrameworkParams,
            querystring: OrgQuery,
            response: { 200: FrameworkCoverageSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        const orgId = await analysedOrg(em, request, request.query.orgId);
        return orgFrameworkCoverage(em, orgId, request.params.frameworkId);
    });
    app.get('/coverage/:frameworkId/:requirementId', {
        schema: {
            tags: ['cte'],
            summary: 'Why a requirement is covered or not: the controls and crosswalk edges behind it',
            params: RequirementParams,
            querystring: OrgQuery,
            response: { 200: RequirementCoverageSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        const orgId = await analysedOrg(em, request, request.query.orgId);
        return explainRequirement(em, orgId, request.params.frameworkId, request.params.requirementId);
    });
    app.get('/conflicts', {
        schema: {
            tags: ['cte'],
            summary: 'Conflicting requirements across frameworks, curated and computed from parameters',
            querystring: ConflictQuery,
            response: { 200: ConflictListSchema, ...errorResponses },
        },
    }, async (request) => listConflicts((await currentLibrary(ctx.db.em())).library, request.query));
};
//# sourceMappingURL=analysis.routes.js.map