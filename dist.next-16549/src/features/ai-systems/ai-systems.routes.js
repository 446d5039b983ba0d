import { Type } from 'typebox';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { AiSystemListQuery, AiSystemListSchema, AiSystemParams, AiSystemSchema, CreateAiSystemBody, UpdateAiSystemBody, } from './ai-systems.schemas.js';
import { createAiSystem, deleteAiSystem, getAiSystem, listAiSystems, updateAiSystem, } from './ai-systems.service.js';
export const aiSystemRoutes = async function aiSystemRoutes(app, { ctx }) {
    app.get('/orgs/:orgId/ai-systems', {
        schema: {
            tags: ['ai-systems'],
            summary: "The org's AI system inventory, by name",
            params: OrgIdParam,
            querystring: AiSystemListQuery,
            response: { 200: AiSystemListSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return {
            orgId: request.params.orgId,
            systems: await listAiSystems(em, request.params.orgId, request.query),
        };
    });
    app.post('/orgs/:orgId/ai-systems', {
        config: { scope: 'write' },
        schema: {
            tags: ['ai-systems'],
            summary: 'Register an AI system (risk level per the EU AI Act tiers, lifecycle stage, owner, purpose)',
            description: 'A name already used in the org (ignoring case) → 409.',
            params: OrgIdParam,
            body: CreateAiSystemBody,
            response: { 201: AiSystemSchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const em = ctx.db.em();
        const { orgId } = request.params;
        const system = await createAiSystem(em, orgId, request.body);
        ctx.aiSystems.changed(orgId);
        return reply
            .status(201)
            .header('location', `/api/v1/orgs/${encodeURIComponent(orgId)}/ai-systems/${system.systemId}`)
            .send(system);
    });
    app.get('/orgs/:orgId/ai-systems/:systemId', {
        schema: {
            tags: ['ai-systems'],
            summary: 'One AI system',
            params: AiSystemParams,
            response: { 200: AiSystemSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        return getAiSystem(em, request.params.orgId, request.params.systemId);
    });
    app.put('/orgs/:orgId/ai-systems/:systemId', {
        config: { scope: 'write' },
        schema: {
            tags: ['ai-systems'],
            summary: 'Change any of the mutable fields; the others stay as they are',
            params: AiSystemParams,
            body: UpdateAiSystemBody,
            response: { 200: AiSystemSchema, ...errorResponses },
        },
    }, async (request) => {
        const em = ctx.db.em();
        const system = await updateAiSystem(em, request.params.orgId, request.params.systemId, request.body);
        ctx.aiSystems.changed(request.params.orgId);
        return system;
    });
    app.delete('/orgs/:orgId/ai-systems/:systemId', {
        config: { scope: 'write' },
        schema: {
            tags: ['ai-systems'],
            summary: 'Remove an AI system from the inventory',
            params: AiSystemParams,
            response: { 204: Type.Null(), ...errorResponses },
        },
    }, async (request, reply) => {
        const em = ctx.db.em();
        await deleteAiSystem(em, request.params.orgId, request.params.systemId);
        ctx.aiSystems.changed(request.params.orgId);
        return reply.status(204).send(null);
    });
};
//# sourceMappingURL=ai-systems.routes.js.map