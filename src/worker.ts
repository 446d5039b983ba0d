import type { FastifyBaseLogger } from 'fastify';
import { pino } from 'pino';
import { jobRegistry } from './job-registry.js';
import { type Config, ConfigError } from './platform/config.js';
import { openDatabase } from './platform/db/database.js';
import { startBullmqWorkers } from './platform/jobs/bullmq.worker.js';
import type { JobDefinition } from './platform/jobs/jobs.js';
import { Metrics } from './platform/metrics/metrics.js';
import { startMetricsServer } from './platform/metrics/metrics.server.js';
import { warmOscalValidators } from './platform/oscal/validation.js';
import { closeOnSignal } from './platform/shutdown.js';

export interface RunningWorker {
  /** Resolves once the worker serves every queue (its connections are up): see `WorkerPool.ready`. */
  ready(): Promise<void>;
  /** Stops taking jobs, finishes the running ones, closes the pool. Safe to call twice. */
  close(): Promise<void>;
}

export interface WorkerOptions {
  log?: FastifyBaseLogger;
  prefix?: string;
  jobs?: readonly JobDefinition[];
  concurrency?: number;
}

/** Checks the configuration a worker needs before touching anything. */
export function checkWorkerConfig(config: Pick<Config, 'redisUrl' | 'databaseUrl'>): { redisUrl: string } {
  if (!config.redisUrl) {
    throw new ConfigError(
      'comply worker needs REDIS_URL. Without Redis the daemon runs every job in its own process, so no worker is needed.',
    );
  }
  if (!config.databaseUrl) {
    throw new ConfigError(
      'comply worker needs PostgreSQL (DATABASE_URL). The embedded PGlite database can be opened by one ' +
        'process only, the daemon, which then runs the jobs itself.',
    );
  }
  return { redisUrl: config.redisUrl };
}

/** Opens PostgreSQL and serves every registered job from its BullMQ queue. */
export async function startWorker(
  config: Readonly<Config>,
  options: WorkerOptions = {},
): Promise<RunningWorker> {
  const { redisUrl } = checkWorkerConfig(config);
  const log = options.log ?? pino({ level: config.logLevel });
  const db = await openDatabase(config);
  const jobs = options.jobs ?? jobRegistry;
  const pool = startBullmqWorkers({
    url: redisUrl,
    db,
    log,
    jobs,
    prefix: options.prefix ?? config.queuePrefix,
    concurrency: options.concurrency,
    config,
  });
  // The worker's own job durations, pool usage and event-loop lag, when a metrics port is configured.
  const metrics = config.metricsPort === null ? null : new Metrics();
  metrics?.watch({ db });
  const metricsServer = metrics
    ? await startMetricsServer(metrics, config.metricsHost, config.metricsPort as number)
    : null;
  // Said once every queue lists this worker among its workers: from then on the daemon counts it as running.
  // Not awaited: with Redis away that waits, and a signal meanwhile must still stop the worker.
  pool.ready().then(
    () => log.info({ jobs: jobs.map((job) => job.name), metrics: metricsServer?.url }, 'comply worker ready'),
    () => {},
  );
  let closing: Promise<void> | undefined;
  return {
    ready: () => pool.ready(),
    close: () => {
      closing ??= (async () => {
        await pool.close();
        await metricsServer?.close();
        metrics?.close();
        await db.close();
      })();
      return closing;
    },
  };
}

/** The `comply worker` process: runs until SIGTERM or SIGINT, then finishes running jobs and exits 0. */
export async function runWorkerProcess(config: Readonly<Config>): Promise<void> {
  const log = pino({ level: config.logLevel });
  // Compiling NIST's schemas takes about a second: pay it before taking jobs, not in the first export.
  if (config.warmUp) warmOscalValidators();
  const started = startWorker(config, { log });
  closeOnSignal(started, (_worker, signal) => log.info({ signal }, 'shutting down: finishing running jobs'));
  await started;
}
