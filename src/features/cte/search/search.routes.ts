import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../../context.js';
import { sendSerialized } from '../../../platform/cache/org-read-cache.js';
import { type Ready, whenReady } from '../../../platform/ready.js';
import { errorResponses } from '../../../shared/schemas.js';
import { SearchBody, SearchResultSchema } from '../cte.schemas.js';
import { heldLibrary } from '../library.service.js';
import { type ReadySearch, readySearch } from './search.service.js';
import { KeptAnswers } from './search-answers.js';

export const searchRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Ranking is a pure function of the index, the query and the limit, and an index never changes once
  // built: the same question (a search box typed into again, an assistant asking twice, a CI job) is
  // answered from its serialized answer. A new index (an import) starts with none. Keyed by the query as
  // parsed, then the limit, so that a hit builds no key.
  const answers = new WeakMap<ReadySearch, KeptAnswers>();
  const answer = (ready: ReadySearch, query: string, limit: number, reply: FastifyReply): Ready<string> => {
    let kept = answers.get(ready);
    if (!kept) {
      kept = new KeptAnswers();
      answers.set(ready, kept);
    }
    const body = kept.get(query, limit);
    if (body !== undefined) return body;
    const keep = kept;
    return ready.search.search(query, limit).then((result) => {
      const text = reply.serialize(result) as string;
      keep.set(query, limit, text);
      return text;
    });
  };

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
          'over requirement texts expanded with plain-language phrases, with a share of the similarity to the ' +
          'best hits. The response names the model: the local sentence-embedding model when COMPLY_MODEL_DIR ' +
          'holds it, else the built-in embedder. For a given library and model the answer to a question is ' +
          'always the same, and a question asked again is answered from memory.',
        body: SearchBody,
        response: { 200: SearchResultSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { query, limit } = request.body;
      const em = ctx.db.em();
      const body = whenReady(heldLibrary(ctx, em), (current) =>
        whenReady(readySearch(em, current, ctx.config.embeddings, ctx.log), (ready) =>
          answer(ready, query, limit, reply),
        ),
      );
      return sendSerialized(reply, body);
    },
  );
};
