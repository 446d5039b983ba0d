import type { AppContext, FeatureRoutes } from '../../context.js';
import { analysisRoutes } from './analysis.routes.js';
import { frameworkRoutes } from './frameworks.routes.js';
import { currentLibrary } from './library.service.js';
import { mappingRoutes } from './mappings.routes.js';
import { enqueueEmbeddings } from './search/embeddings.job.js';
import { searchRoutes } from './search/search.routes.js';
import { embeddingsStale, readySearch } from './search/search.service.js';

/**
 * Gets search ready once the daemon listens: queues the embeddings job when the stored vectors are stale
 * and builds this process's index (the embedder is needed here for queries in any case).
 */
async function prepareSearch(ctx: AppContext): Promise<void> {
  const em = ctx.db.em();
  const current = await currentLibrary(em);
  if (await embeddingsStale(em, ctx.config.embeddings)) {
    await enqueueEmbeddings(ctx.jobs, ctx.config.embeddings, current.revision);
  }
  await readySearch(em, current, ctx.config.embeddings, ctx.log);
}

const WARM_UP_DELAY_MS = 1000;

/** The Compliance Topology Engine under /api/v1/cte. */
export const cteRoutes: FeatureRoutes = async function cteRoutes(app, { ctx }) {
  await app.register(frameworkRoutes, { ctx });
  await app.register(analysisRoutes, { ctx });
  await app.register(searchRoutes, { ctx });
  await app.register(mappingRoutes, { ctx });
  // Only a listening daemon warms up, a moment after it starts answering (fitting the built-in embedder
  // holds the event loop for about a second); apps driven by inject (tests) build on first use.
  let warmUp: NodeJS.Timeout | undefined;
  app.addHook('onListen', async () => {
    if (!ctx.config.warmUp) return;
    warmUp = setTimeout(() => {
      prepareSearch(ctx).catch((error) => ctx.log.warn({ err: error }, 'could not prepare the CTE search'));
    }, WARM_UP_DELAY_MS);
    warmUp.unref();
  });
  app.addHook('onClose', async () => clearTimeout(warmUp));
};
