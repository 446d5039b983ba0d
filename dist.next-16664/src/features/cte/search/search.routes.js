import { sendSerialized } from '../../../platform/cache/org-read-cache.js';
import { errorResponses } from '../../../shared/schemas.js';
import { SearchBody, SearchResultSchema } from '../cte.schemas.js';
import { searchAnswer } from './search.service.js';
export const searchRoutes = async function searchRoutes(app, { ctx }) {
    app.post('/embeddings/distance', {
        // A search, not a change: POST only because the query travels in the body.
        config: { scope: 'read' },
        schema: {
            tags: ['cte'],
            summary: 'Requirements of every framework nearest in meaning to a text',
            description: 'Sorted by distance: 1 − a blend of the cosine similarity of the embeddings and a BM25 word match ' +
                'over requirement texts expanded with plain-language phrases, with a share of the similarity to the ' +
                'best hits. The response names the model: the local sentence-embedding model when COMPLY_MODEL_DIR ' +
                'holds it, else the built-in embedder. For a given library and model the answer to a question is ' +
                'always the same, and a question asked again is answered from memory.',
            body: SearchBody,
            response: { 200: SearchResultSchema, ...errorResponses },
        },
    }, (request, reply) => sendSerialized(reply, searchAnswer(ctx, request.body.query, request.body.limit, (response) => reply.serialize(response))));
};
//# sourceMappingURL=search.routes.js.map