import { createHash } from 'node:crypto';
import { refreshEmbeddings } from './search.service.js';
/**
 * Embeds every requirement of the current library and stores the vectors, when the stored ones were made
 * for other texts or another model. Enqueued when the daemon starts listening (if the stored vectors are
 * stale) and after each import. Idempotent: a second run finds the fingerprint current and stops.
 * The payload names the model so that a worker embeds with what the daemon will search with.
 */
export const cteEmbeddingsJob = {
    name: 'cte-embeddings',
    attempts: 2,
    backoffMs: 2000,
    handle: async (settings, ctx) => {
        const result = await refreshEmbeddings(ctx.db.em(), settings, ctx.log);
        await ctx.progress(100);
        ctx.log.info(result, result.stored ? 'stored requirement embeddings' : 'requirement embeddings current');
        return result;
    },
};
/** Queues the job once per library content (the id dedupes it across daemon instances). */
export async function enqueueEmbeddings(jobs, settings, revision) {
    const id = createHash('sha256').update(`${revision}\u001f${settings.modelName}`).digest('hex').slice(0, 24);
    await jobs.enqueue(cteEmbeddingsJob, settings, { jobId: `cte-embeddings.${id}` });
}
//# sourceMappingURL=embeddings.job.js.map