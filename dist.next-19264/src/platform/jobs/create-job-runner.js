import { BullmqJobRunner } from './bullmq.runner.js';
import { InProcessJobRunner } from './in-process.runner.js';
/**
 * BullMQ when REDIS_URL is set, in-process otherwise. The embedded PGlite database cannot be opened by a
 * worker process, so with PGlite jobs stay in-process even when Redis is configured.
 */
export function createJobRunner(config, db, log) {
    if (!config.redisUrl)
        return new InProcessJobRunner(db, log);
    if (db.kind === 'pglite') {
        log.warn('REDIS_URL is set but the database is the embedded PGlite, which no worker can open: jobs run in-process');
        return new InProcessJobRunner(db, log);
    }
    return new BullmqJobRunner({
        url: config.redisUrl,
        db,
        log,
        prefix: config.queuePrefix,
        waitMs: config.jobWaitMs,
    });
}
//# sourceMappingURL=create-job-runner.js.map