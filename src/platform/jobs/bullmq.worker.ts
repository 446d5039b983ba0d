import { Worker } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { timedJob } from '../metrics/events.js';
import { BullmqJobRunner, DEFAULT_QUEUE_PREFIX } from './bullmq.runner.js';
import type { JobDefinition, JobRunner } from './jobs.js';
import { createRedis } from './redis.js';

export interface WorkerPoolOptions {
  url: string;
  db: Database;
  log: FastifyBaseLogger;
  jobs: readonly JobDefinition[];
  prefix?: string;
  /** Jobs of one kind processed at once by this process. */
  concurrency?: number;
  /** What the handlers see (the defaults when not given). */
  config?: Readonly<Config>;
}

export interface WorkerPool {
  readonly workers: readonly Worker[];
  /**
   * Resolves once every worker is connected, and so listed among its queue's workers (what the daemon's
   * readiness and its requests that wait on a job ask for). Waits as long as Redis is away.
   */
  ready(): Promise<void>;
  /** Stops taking jobs and waits for the running ones to finish. */
  close(): Promise<void>;
}

/** One BullMQ worker per job definition, each on its own blocking connection. */
export function startBullmqWorkers(options: WorkerPoolOptions): WorkerPool {
  const { db, log } = options;
  const config = options.config ?? loadConfig({});
  const prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;
  // Follow-up jobs go to the same queues; the producer connects when a handler first queues one.
  let producer: BullmqJobRunner | null = null;
  const producerOf = () => {
    producer ??= new BullmqJobRunner({ url: options.url, log, prefix });
    return producer;
  };
  const followUps: JobRunner = {
    kind: 'bullmq',
    enqueue: (job, payload, jobOptions) => producerOf().enqueue(job, payload, jobOptions),
    run: (job, payload, runOptions) => producerOf().run(job, payload, runOptions),
    repeat: (job, payload, repeatOptions) => producerOf().repeat(job, payload, repeatOptions),
    ready: () => producerOf().ready(),
    close: async () => {},
  };
  const entries: { worker: Worker; connection: Redis }[] = options.jobs.map((job) => {
    const connection = createRedis(options.url, 'blocking', log, `worker-${job.name}`);
    const worker = new Worker(
      job.name,
      async (queued) => {
        const attempt = queued.attemptsMade + 1;
        return timedJob(job.name, () =>
          job.handle(queued.data, {
            db,
            log: log.child({ job: job.name, jobId: queued.id, attempt }),
            progress: (percent) => queued.updateProgress(percent),
            attempt,
            config,
            jobs: followUps,
          }),
        );
      },
      { connection, prefix, concurrency: job.concurrency ?? options.concurrency ?? 2 },
    );
    worker.on('active', (queued) =>
      log.info({ job: job.name, jobId: queued.id, attempt: queued.attemptsMade + 1 }, 'job started'),
    );
    worker.on('completed', (queued) =>
      log.info(
        {
          job: job.name,
          jobId: queued.id,
          ms: (queued.finishedOn ?? Date.now()) - (queued.processedOn ?? 0),
        },
        'job done',
      ),
    );
    worker.on('failed', (queued, error) =>
      log.warn({ err: error, job: job.name, jobId: queued?.id, attempt: queued?.attemptsMade }, 'job failed'),
    );
    worker.on('error', (error) => log.debug({ err: error, job: job.name }, 'worker error'));
    return { worker, connection };
  });
  return {
    workers: entries.map((entry) => entry.worker),
    async ready() {
      await Promise.all(entries.map((entry) => entry.worker.waitUntilReady()));
    },
    async close() {
      await Promise.allSettled(entries.map((entry) => entry.worker.close()));
      await producer?.close();
      for (const entry of entries) entry.connection.disconnect();
    },
  };
}
