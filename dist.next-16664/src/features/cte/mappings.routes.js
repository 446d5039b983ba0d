import { Type } from 'typebox';
import { errorResponses } from '../../shared/schemas.js';
import { principalOf } from '../auth/auth.plugin.js';
import { EdgeParams, EdgeSchema, NewEdgeBody, RequirementParams, SimilarQuery, SimilarResultSchema, SuggestionListSchema, SuggestionQuery, } from './cte.schemas.js';
import { addAnalystEdge, removeAnalystEdge, similarRequirements, suggestMappings, } from './mappings.service.js';
/** Analyst crosswalk edges, and the similar requirements and suggestions an analyst maps from. */
export const mappingRoutes = async function mappingRoutes(app, { ctx }) {
    const deps = { settings: ctx.config.embeddings, log: ctx.log };
    app.get('/frameworks/:frameworkId/requirements/:requirementId/similar', {
        schema: {
            tags: ['cte'],
            summary: 'The requirements of other frameworks nearest in meaning to one requirement',
            description: 'Sorted by cosine distance between the requirements’ vectors (the ones search ranks with); ' +
                '`mapped` says whether a crosswalk edge already joins the two. `frameworkId` keeps one framework.',
            params: RequirementParams,
            querystring: SimilarQuery,
            response: { 200: SimilarResultSchema, ...errorResponses },
        },
    }, async (request) => similarRequirements(ctx.db.em(), deps, request.params, request.query));
    app.get('/mappings/suggestions', {
        schema: {
            tags: ['cte'],
            summary: 'Candidate crosswalk edges between two frameworks that no edge covers yet',
            description: 'For each requirement of `from`, its nearest requirements of `to` not joined to it by an edge, ' +
                'best score first, each with a proposed relationship and the terms and concepts the two share. ' +
                'Meant for mapping a newly imported catalog: accept the good ones with POST /cte/mappings.',
            querystring: SuggestionQuery,
            response: { 200: SuggestionListSchema, ...errorResponses },
        },
    }, async (request) => suggestMappings(ctx.db.em(), deps, request.query));
    app.post('/mappings', {
        config: { scope: 'admin' },
        schema: {
            tags: ['cte'],
            summary: 'Add a crosswalk edge (admin)',
            description: 'The edge (origin `analyst`, with its author and time) takes part in propagation, gaps, coverage ' +
                'and the OSCAL mapping export at once. At most one edge joins two requirements, in either ' +
                'direction: another one → 409 naming it. Edges join different frameworks.',
            body: NewEdgeBody,
            response: { 201: EdgeSchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const edge = await addAnalystEdge(ctx.db.em(), request.body, principalOf(request).actor.id);
        ctx.readCache.libraryChanged();
        request.log.info({ edgeId: edge.edgeId }, 'crosswalk edge added');
        return reply.status(201).send(edge);
    });
    app.delete('/mappings/:edgeId', {
        config: { scope: 'admin' },
        schema: {
            tags: ['cte'],
            summary: 'Delete an added crosswalk edge (admin)',
            description: 'Only edges added through the API: a shipped edge → 409. Coverage and gaps revert at once.',
            params: EdgeParams,
            response: { 204: Type.Null(), ...errorResponses },
        },
    }, async (request, reply) => {
        await removeAnalystEdge(ctx.db.em(), request.params.edgeId);
        ctx.readCache.libraryChanged();
        request.log.info({ edgeId: request.params.edgeId }, 'crosswalk edge deleted');
        return reply.status(204).send(null);
    });
};
//# sourceMappingURL=mappings.routes.js.map