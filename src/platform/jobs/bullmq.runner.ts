import { randomUUID } from 'node:crypto';
import { type JobsOptions, Queue, QueueEvents } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { AppError } from '../errors.js';
import { InProcessJobRunner } from './in-process.runner.js';
import type { JobDefinition, JobRunner, RepeatOptions } from './jobs.js';
import { createRedis, REDIS_COMMAND_TIMEOUT_MS } from './redis.js';

export const DEFAULT_QUEUE_PREFIX = 'comply';

/** Completed jobs are trimmed; failed ones stay for a month so that someone can look at why. */
const KEEP_COMPLETED = { age: 24 * 3600, count: 1000 };
const KEEP_FAILED = { age: 30 * 24 * 3600 };
/** Jobs that could not be queued while Redis was down wait in memory, up to this many. */
const MAX_PARKED = 10_000;

export interface BullmqRunnerOptions {
  url: string;
  log: FastifyBaseLogger;
  /** Runs `run()` in this process when Redis is unreachable, so requests that wait on a job still work. */
  db?: Database | null;
  /** What handlers run in this process see (the defaults when not given). */
  config?: Readonly<Config>;
  /** Namespaces every queue key; workers must use the same one. */
  prefix?: string;
  /** Upper bound for `run()` when the caller gives none. */
  waitMs?: number;
  /** Bound on every single Redis call. */
  callTimeoutMs?: number;
  /** How often parked jobs and schedules are retried while Redis is down. */
  retryEveryMs?: number;
}

interface ParkedJob {
  job: JobDefinition;
  payload: unknown;
  jobId: string;
}

interface Schedule {
  job: JobDefinition;
  payload: unknown;
  options: RepeatOptions;
}

export class QueueUnavailableError extends AppError {
  constructor(reason: string) {
    super('SERVICE_UNAVAILABLE', 'The job queue is unreachable', { reason });
  }
}

/** What to do when no worker serves a queue, in the words of the one who runs the daemon. */
export const START_WORKER_HINT = 'start `comply worker` with the same REDIS_URL and COMPLY_QUEUE_PREFIX';

/** `the queue "export"`, `the queues "export", "webhook-delivery"`. */
export function queuesText(names: readonly string[]): string {
  const quoted = names.map((name) => `"${name}"`).join(', ');
  return names.length === 1 ? `the queue ${quoted}` : `the queues ${quoted}`;
}

/** A job a request waits for, on a queue no worker serves: it would only time out, so it is refused at once. */
export class NoWorkerError extends AppError {
  constructor(queue: string, prefix: string) {
    super(
      'SERVICE_UNAVAILABLE',
      `No job worker is running for ${queuesText([queue])}: ${START_WORKER_HINT}`,
      {
        queue,
        prefix,
        hint: START_WORKER_HINT,
      },
    );
  }
}

/** BullMQ's options for one job of a definition: its retry policy and what is kept afterwards. */
export function jobOptions(job: JobDefinition, jobId: string): JobsOptions {
  return {
    jobId,
    attempts: 1 + (job.attempts ?? 2),
    backoff: { type: 'exponential', delay: job.backoffMs ?? 500 },
    removeOnComplete: KEEP_COMPLETED,
    removeOnFail: KEEP_FAILED,
  };
}

/**
 * Producer side of the BullMQ queues (one per job name); `comply worker` processes run the handlers.
 * Every Redis call is bounded, so a Redis outage never holds up a request: `enqueue` parks the job in
 * memory and queues it when Redis returns, `repeat` applies its schedule then, and `run` falls back to
 * running the handler in this process.
 */
export class BullmqJobRunner implements JobRunner {
  readonly kind = 'bullmq' as const;
  readonly prefix: string;
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly events = new Map<string, { events: QueueEvents; connection: Redis }>();
  private readonly parked = new Map<string, ParkedJob>();
  private readonly schedules = new Map<string, Schedule>();
  /** Every schedule ever asked for: asserted again whenever the connection comes back. */
  private readonly registered = new Map<string, Schedule>();
  private readonly local: InProcessJobRunner | null;
  private readonly retryTimer: NodeJS.Timeout;
  private readonly callTimeoutMs: number;
  private flushing: Promise<void> | null = null;
  private connectedOnce = false;
  private closed = false;

  constructor(private readonly options: BullmqRunnerOptions) {
    this.prefix = options.prefix ?? DEFAULT_QUEUE_PREFIX;
    this.callTimeoutMs = options.callTimeoutMs ?? REDIS_COMMAND_TIMEOUT_MS;
    this.connection = createRedis(options.url, 'command', options.log, 'queue');
    this.connection.on('ready', () => {
      // Redis may have come back without its data (a restart without persistence, a failover): the
      // schedules live in Redis, so each reconnect asserts them again. Upserting is idempotent.
      if (this.connectedOnce) for (const [id, schedule] of this.registered) this.schedules.set(id, schedule);
      this.connectedOnce = true;
      void this.flush();
    });
    this.local = options.db
      ? new InProcessJobRunner(options.db, options.log, { config: options.config, jobs: this })
      : null;
    this.retryTimer = setInterval(() => void this.flush(), options.retryEveryMs ?? 5000);
    this.retryTimer.unref();
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: this.prefix });
      // Outages are logged once by the connection; without a listener an 'error' event would crash.
      queue.on('error', (error) => this.options.log.debug({ err: error, queue: name }, 'queue error'));
      this.queues.set(name, queue);
    }
    return queue;
  }

  private async queueEvents(name: string): Promise<QueueEvents> {
    let entry = this.events.get(name);
    if (!entry) {
      const connection = createRedis(this.options.url, 'blocking', this.options.log, `events-${name}`);
      const events = new QueueEvents(name, { connection, prefix: this.prefix });
      events.on('error', (error) =>
        this.options.log.debug({ err: error, queue: name }, 'queue events error'),
      );
      entry = { events, connection };
      this.events.set(name, entry);
    }
    await this.bounded(entry.events.waitUntilReady(), 'queue events');
    return entry.events;
  }

  /** Rejects with QueueUnavailableError when Redis does not answer in time. */
  private bounded<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new QueueUnavailableError(`${what}: no answer within ${this.callTimeoutMs} ms`)),
        this.callTimeoutMs,
      );
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  private add(job: JobDefinition, payload: unknown, jobId: string) {
    return this.bounded(
      this.queue(job.name).add(job.name, payload, jobOptions(job, jobId)),
      `add ${job.name}`,
    );
  }

  async enqueue<P>(job: JobDefinition<P>, payload: P, options: { jobId?: string } = {}): Promise<void> {
    const jobId = options.jobId ?? randomUUID();
    try {
      await this.add(job as JobDefinition, payload, jobId);
    } catch (error) {
      this.park({ job: job as JobDefinition, payload, jobId });
      this.options.log.warn(
        { err: error, job: job.name, jobId },
        'could not queue the job; it is kept and queued when Redis answers again',
      );
    }
  }

  private park(parked: ParkedJob): void {
    if (this.parked.size >= MAX_PARKED && !this.parked.has(parked.jobId)) {
      const [oldest] = this.parked.values();
      this.parked.delete(oldest.jobId);
      this.options.log.error({ job: oldest.job.name, jobId: oldest.jobId }, 'dropped a parked job: too many');
    }
    this.parked.set(parked.jobId, parked);
  }

  /** How many workers serve a queue (BullMQ lists them from Redis's clients); bounded. */
  private workerCount(name: string): Promise<number> {
    return this.bounded(this.queue(name).getWorkersCount(), `workers of ${name}`);
  }

  async unserved(names: readonly string[]): Promise<string[]> {
    const counts = await Promise.all(names.map((name) => this.workerCount(name)));
    return names.filter((_, index) => counts[index] === 0);
  }

  /** Queues a job and hands back its outcome; null, queueing nothing, when no worker serves its queue. */
  private async submit<R>(
    job: JobDefinition,
    payload: unknown,
    timeoutMs: number,
  ): Promise<{ finished: Promise<R> } | null> {
    const events = await this.queueEvents(job.name);
    if ((await this.workerCount(job.name)) === 0) return null;
    const added = await this.add(job, payload, randomUUID());
    // BullMQ's own bound (a little later) only cleans up its listeners; ours decides.
    return { finished: added.waitUntilFinished(events, timeoutMs + 1000) as Promise<R> };
  }

  /**
   * Runs a job on a worker and waits for its result, at most `timeoutMs` (then 503). With no worker serving
   * its queue the job could only time out: it is refused at once (503, `NoWorkerError`), and not queued.
   */
  async run<P, R>(job: JobDefinition<P, R>, payload: P, options: { timeoutMs?: number } = {}): Promise<R> {
    const timeoutMs = options.timeoutMs ?? this.options.waitMs ?? 60_000;
    let submitted: { finished: Promise<R> } | null;
    try {
      submitted = await this.submit<R>(job as JobDefinition, payload, timeoutMs);
    } catch (error) {
      if (!this.local) throw error;
      this.options.log.warn(
        { err: error, job: job.name },
        'queue unreachable: running the job in this process',
      );
      return this.local.run(job, payload);
    }
    if (submitted === null) throw new NoWorkerError(job.name, this.prefix);
    const { finished } = submitted;
    finished.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new AppError('SERVICE_UNAVAILABLE', 'The job did not finish in time', {
              job: job.name,
              timeoutMs,
            }),
          ),
        timeoutMs,
      );
    });
    return Promise.race([finished, timeout]).finally(() => clearTimeout(timer));
  }

  async repeat<P>(job: JobDefinition<P>, payload: P, options: RepeatOptions): Promise<void> {
    const schedule = { job: job as JobDefinition, payload, options };
    this.registered.set(options.jobId, schedule);
    this.schedules.set(options.jobId, schedule);
    await this.flush();
  }

  private async applySchedule({ job, payload, options }: Schedule): Promise<void> {
    const { jobId: _ignored, ...template } = jobOptions(job, options.jobId);
    await this.bounded(
      this.queue(job.name).upsertJobScheduler(
        options.jobId,
        { every: options.everyMs },
        { name: job.name, data: payload, opts: template },
      ),
      `schedule ${options.jobId}`,
    );
  }

  /** Queues parked jobs and applies pending schedules; stops at the first failure (Redis still down). */
  private flush(): Promise<void> {
    if (this.closed || (this.parked.size === 0 && this.schedules.size === 0)) return Promise.resolve();
    this.flushing ??= (async () => {
      try {
        for (const [id, schedule] of this.schedules) {
          await this.applySchedule(schedule);
          this.schedules.delete(id);
        }
        for (const [jobId, parked] of this.parked) {
          await this.add(parked.job, parked.payload, jobId);
          this.parked.delete(jobId);
        }
      } catch (error) {
        this.options.log.debug({ err: error }, 'queue still unreachable; will retry');
      } finally {
        this.flushing = null;
      }
    })();
    return this.flushing;
  }

  /** Jobs per state in every queue this daemon has used (metrics); bounded like every Redis call. */
  async depth(): Promise<Record<string, Record<string, number>>> {
    const entries = await Promise.all(
      [...this.queues].map(async ([name, queue]) => {
        const counts = await this.bounded(
          queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'failed'),
          `count ${name}`,
        );
        return [
          name,
          { ...counts, parked: [...this.parked.values()].filter((p) => p.job.name === name).length },
        ];
      }),
    );
    return Object.fromEntries(entries);
  }

  /** Jobs and schedules waiting for Redis (for health output and tests). */
  pending(): { jobs: number; schedules: number } {
    return { jobs: this.parked.size, schedules: this.schedules.size };
  }

  /** At start-up, waits (bounded) for the first connection; later, a lost connection answers at once. */
  private async firstConnection(): Promise<void> {
    if (this.connectedOnce || this.connection.status === 'ready') return;
    let onReady = () => {};
    const connected = new Promise<void>((resolve) => {
      onReady = resolve;
      this.connection.once('ready', onReady);
    });
    await this.bounded(connected, 'connect').finally(() => this.connection.off('ready', onReady));
  }

  async ready(): Promise<boolean> {
    if (this.closed) return false;
    try {
      await this.firstConnection();
      return (await this.bounded(this.connection.ping(), 'ping')) === 'PONG';
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.retryTimer);
    await this.flushing;
    if (this.parked.size > 0) {
      this.options.log.warn({ jobs: this.parked.size }, 'closing with jobs that never reached the queue');
    }
    await this.local?.close();
    // Bounded too: closing must not wait for a Redis that is gone.
    await Promise.allSettled([
      ...[...this.queues.values()].map((queue) => this.bounded(queue.close(), 'close queue')),
      ...[...this.events.values()].map(({ events }) => this.bounded(events.close(), 'close events')),
    ]);
    for (const { connection } of this.events.values()) connection.disconnect();
    this.connection.disconnect();
  }
}
