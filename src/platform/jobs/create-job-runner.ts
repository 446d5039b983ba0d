import type { FastifyBaseLogger } from 'fastify';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { BullmqJobRunner } from './bullmq.runner.js';
import { InProcessJobRunner } from './in-process.runner.js';
import type { JobRunner } from './jobs.js';

/**
 * BullMQ when REDIS_URL is set, in-process otherwise. The embedded PGlite database cannot be opened by a
 * worker process, so with PGlite jobs stay in-process even when Redis is configured.
 */
export function createJobRunner(
  given: Pick<Config, 'redisUrl' | 'jobWaitMs' | 'queuePrefix'> & Partial<Config>,
  db: Database,
  log: FastifyBaseLogger,
): JobRunner {
  // Handlers see the whole configuration: what is not given keeps its default.
  const config: Readonly<Config> = { ...loadConfig({}), ...given };
  if (!config.redisUrl) return new InProcessJobRunner(db, log, { config });
  if (db.kind === 'pglite') {
    log.warn(
      'REDIS_URL is set but the database is the embedded PGlite, which no worker can open: jobs run in-process',
    );
    return new InProcessJobRunner(db, log, { config });
  }
  return new BullmqJobRunner({
    url: config.redisUrl,
    db,
    log,
    config,
    prefix: config.queuePrefix,
    waitMs: config.jobWaitMs,
  });
}
