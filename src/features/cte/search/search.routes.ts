import type { FeatureRoutes } from '../../../context.js';
import { sendSerialized } from '../../../platform/cache/org-read-cache.js';
import { whenReady } from '../../../platform/ready.js';
import { errorResponses } from '../../../shared/schemas.js';
import { principalOf } from '../../auth/auth.plugin.js';
import { isPlatform } from '../../auth/scopes.js';
import { OrgQuery, SearchBody, SearchResultSchema } from '../cte.schemas.js';
import { analysedOrg } from '../cte-org.js';
import { searchAnswer, sendOrgSearch } from './search.service.js';

export const searchRoutes: FeatureRoutes = async function searchRoutes(app, { ctx }) {
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
          'always the same, and a question asked again is answered from memory. `frameworkId` searches one ' +
          'framework. When the caller is an organization (a tenant key or a person, or a platform key naming ' +
          '`orgId`), the response names it and each result carries its effective status of the requirement ' +
          '(`orgStatus`, `applicable`, `assessment`: direct, inferred or none), as its requirement list does; a ' +
          'platform key without `orgId` gets the ranking alone.',
        querystring: OrgQuery,
        body: SearchBody,
        response: { 200: SearchResultSchema, ...errorResponses },
      },
    },
    (request, reply) => {
      const { query, limit, frameworkId } = request.body;
      const question = { query, limit, frameworkId };
      const principal = principalOf(request);
      const orgId = request.query.orgId;
      // A platform key naming no org asks the library alone: one answer for every caller, kept per index.
      if (isPlatform(principal) && orgId === undefined) {
        return sendSerialized(
          reply,
          searchAnswer(ctx, question, (response) => reply.serialize(response) as string),
        );
      }
      // A tenant key's own org (another one named → 403), or the known org a platform key names.
      const frameworkIds = principal.membership?.frameworkIds ?? null;
      return whenReady(analysedOrg(ctx, request, orgId), (analysed) =>
        sendOrgSearch(ctx, reply, { orgId: analysed, frameworkIds }, question),
      );
    },
  );
};
