import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { sendSerialized } from '../cache/org-read-cache.js';
import type { AppContext } from '../context.js';
import { type Ready, whenReady } from '../ready.js';
import { errorResponses } from '../schemas.js';
import { SearchBody, SearchResultSchema } from './cte.schemas.js';
import { heldLibrary } from './library.service.js';
import { type ReadySearch, readySearch } from './search.service.js';

/** Questions whose answers are kept per search index; the oldest goes first (a full answer is about 15 kB). */
const QUESTIONS_PER_INDEX = 512;

export const searchRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Ranking is a pure function of the index, the query and the limit, and an index never changes once
  // built: the same question (a search box typed into again, an assistant asking twice, a CI job) is
  // answered from its serialized answer. A new index (an import) starts with none. Keyed by the query as
  // parsed, then the limit, so that a hit builds no key.
  const answers = new WeakMap<ReadySearch, Map<string, Map<number, string>>>();
  const answer = (ready: ReadySearch, query: string, limit: number, reply: FastifyReply): Ready<string> => {
    let questions = answers.get(ready);
    if (!questions) {
      questions = new Map();
      answers.set(ready, questions);
    }
    const body = questions.get(query)?.get(limit);
    if (body !== undefined) return body;
    const kept = questions;
    return ready.search.search(query, limit).then((result) => {
      const text = reply.serialize(result) as string;
      let byLimit = kept.get(query);
      if (!byLimit) {
        if (kept.size >= QUESTIONS_PER_INDEX) kept.delete(kept.keys().next().value as string);
        byLimit = new Map();
        kept.set(query, byLimit);
      }
      byLimit.set(limit, text);
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
