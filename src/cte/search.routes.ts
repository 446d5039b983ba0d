import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context.js';
import { errorResponses } from '../schemas.js';
import { SearchBody, SearchResultSchema } from './cte.schemas.js';
import { heldLibrary } from './library.service.js';
import { searchRequirements } from './search.service.js';

export const searchRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/embeddings/distance',
    {
      // A search, not a change: POST only because the query travels in the body.
      config: { scope: 'read' },
      schema: {
        tags: ['cte'],
        summary: 'Requirements of every framework nearest in meaning to a text',
        description:
          'Sorted by distance: 1 − a blend of the cosine similarity of the embeddings and a BM25 word match ' +
          'over requirement texts expanded with plain-language phrases, with a share of the similarity to the best ' +
          'hits. The response names the model: the ' +
          'local sentence-embedding model when COMPLY_MODEL_DIR holds it, else the built-in embedder.',
        body: SearchBody,
        response: { 200: SearchResultSchema, ...errorResponses },
      },
    },
    async (request) =>
      searchRequirements(
        ctx.db.em(),
        ctx.config.embeddings,
        ctx.log,
        request.body.query,
        request.body.limit,
        await heldLibrary(ctx, ctx.db.em()),
      ),
  );
};
