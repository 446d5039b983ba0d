import type { FastifyReply } from 'fastify';
import { sendSerialized } from '../cache/org-read-cache.js';
import type { AppContext } from '../context.js';
import { analysisOf, type CachedAnalysis } from './analysis.service.js';
import { currentLibrary } from './library.service.js';

/**
 * An org's report, serialized once and kept in the org read cache until a write to the org, another library
 * revision (an import or an analyst edge: part of the key) or the next evidence expiry that changes the
 * org's state, whichever comes first.
 */
export async function sendReport<T>(
  ctx: AppContext,
  reply: FastifyReply,
  orgId: string,
  name: string,
  build: (analysis: CachedAnalysis) => T,
): Promise<FastifyReply> {
  const em = ctx.db.em();
  const { revision } = await currentLibrary(em);
  const body = await ctx.readCache.get(
    orgId,
    `cte/${name}@${revision}`,
    async () => {
      const analysis = await analysisOf(em, orgId);
      return { value: build(analysis), validUntil: analysis.state.validUntil };
    },
    (value) => reply.serialize(value) as string,
  );
  return sendSerialized(reply, body);
}
