import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { CreateOrgBody, OrgListSchema, OrgSchema } from './orgs.schemas.js';
import { createOrg, getOrg, listOrgs } from './orgs.service.js';
/** Creating and listing orgs (platform keys). */
export const orgRoutes = async function orgRoutes(app, { ctx }) {
    app.post('/orgs', {
        config: { scope: 'admin' },
        schema: {
            tags: ['organizations'],
            summary: 'Create an organization with every library control (not started, applicable)',
            body: CreateOrgBody,
            response: { 201: OrgSchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const org = await createOrg(ctx.db.em(), request.body);
        return reply
            .status(201)
            .header('location', `/api/v1/orgs/${encodeURIComponent(org.orgId)}`)
            .send(org);
    });
    app.get('/orgs', {
        config: { scope: 'admin' },
        schema: {
            tags: ['organizations'],
            summary: 'List organizations',
            response: { 200: OrgListSchema, ...errorResponses },
        },
    }, async () => ({ orgs: await listOrgs(ctx.db.em()) }));
};
/** One org (under the org scope). */
export const orgSummaryRoutes = async function orgSummaryRoutes(app, { ctx }) {
    app.get('/orgs/:orgId', {
        schema: {
            tags: ['organizations'],
            summary: 'An organization with a compact compliance summary',
            params: OrgIdParam,
            response: { 200: OrgSchema, ...errorResponses },
        },
    }, async (request) => getOrg(ctx.db.em(), request.params.orgId));
};
//# sourceMappingURL=orgs.routes.js.map