import { Worker } from 'bullmq';
import { timedJob } from '../metrics/events.js';
import { DEFAULT_QUEUE_PREFIX } from './bullmq.runner.js';
import { createRedis } from './redis.js';
/** One BullMQ worker per job definition, each on its own blocking connection. */
export function startBullmqWorkers(options) {
    const { db, log } = options;
    const entries = options.jobs.map((job) => {
        const connection = createRedis(options.url, 'blocking', log, `worker-${job.name}`);
        const worker = new Worker(job.name, async (queued) => {
            const attempt = queued.attemptsMade + 1;
            return timedJob(job.name, () => job.handle(queued.data, {
                db,
                log: log.child({ job: job.name, jobId: queued.id, attempt }),
                progress: (percent) => queued.updateProgress(percent),
                attempt,
            }));
        }, { connection, prefix: options.prefix ?? DEFAULT_QUEUE_PREFIX, concurrency: options.concurrency ?? 2 });
        worker.on('active', (queued) => log.info({ job: job.name, jobId: queued.id, attempt: queued.attemptsMade + 1 }, 'job started'));
        worker.on('completed', (queued) => log.info({
            job: job.name,
            jobId: queued.id,
            ms: (queued.finishedOn ?? Date.now()) - (queued.processedOn ?? 0),
        }, 'job done'));
        worker.on('failed', (queued, error) => log.warn({ err: error, job: job.name, jobId: queued?.id, attempt: queued?.attemptsMade }, 'job failed'));
        worker.on('error', (error) => log.debug({ err: error, job: job.name }, 'worker error'));
        return { worker, connection };
    });
    return {
        workers: entries.map((entry) => entry.worker),
        async close() {
            await Promise.allSettled(entries.map((entry) => entry.worker.close()));
            for (const entry of entries)
                entry.connection.disconnect();
        },
    };
}
//# sourceMappingURL=bullmq.worker.js.map