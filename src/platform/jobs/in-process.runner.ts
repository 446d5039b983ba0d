import type { FastifyBaseLogger } from 'fastify';
import { type Config, loadConfig } from '../config.js';
import type { Database } from '../db/database.js';
import { timedJob } from '../metrics/events.js';
import type { JobContext, JobDefinition, JobRunner, RepeatOptions } from './jobs.js';

/** The embedded default: the same handlers, run in the daemon's process with the same retry policy. */
export class InProcessJobRunner implements JobRunner {
  readonly kind = 'in-process' as const;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly active = new Map<string, number>();
  private closed = false;
  private readonly config: Readonly<Config>;
  private readonly followUps: JobRunner;

  /**
   * `config` is what handlers see (the defaults when not given); `jobs` queues their follow-up work (this
   * runner when not given).
   */
  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
    options: { config?: Readonly<Config>; jobs?: JobRunner } = {},
  ) {
    this.config = options.config ?? loadConfig({});
    this.followUps = options.jobs ?? this;
  }

  /** Retries waiting out their backoff: closing wakes them (and they give up), so it never waits that long. */
  private readonly backingOff = new Set<() => void>();

  private backOff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.backingOff.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.backingOff.add(wake);
    });
  }

  /** Attempts waiting for a slot, per job name with a `concurrency`. */
  private readonly waiting = new Map<string, (() => void)[]>();

  /** Waits until fewer than `job.concurrency` attempts of its kind run (unbounded without one). */
  private async slot(job: JobDefinition): Promise<void> {
    if (job.concurrency === undefined) return;
    while ((this.active.get(job.name) ?? 0) >= job.concurrency) {
      await new Promise<void>((resolve) => {
        const queue = this.waiting.get(job.name) ?? [];
        queue.push(resolve);
        this.waiting.set(job.name, queue);
      });
    }
  }

  private async runWithRetries<P, R>(job: JobDefinition<P, R>, payload: P): Promise<R> {
    const attempts = 1 + (job.attempts ?? 2);
    for (let attempt = 1; ; attempt += 1) {
      const ctx: JobContext = {
        db: this.db,
        log: this.log.child({ job: job.name, attempt }),
        progress: () => {},
        attempt,
        config: this.config,
        jobs: this.followUps,
      };
      try {
        await this.slot(job as JobDefinition);
        this.active.set(job.name, (this.active.get(job.name) ?? 0) + 1);
        try {
          return await timedJob(job.name, () => job.handle(payload, ctx));
        } finally {
          this.active.set(job.name, (this.active.get(job.name) ?? 1) - 1);
          this.waiting.get(job.name)?.shift()?.();
        }
      } catch (error) {
        if (attempt >= attempts || this.closed) throw error;
        ctx.log.warn({ err: error }, 'job failed, retrying');
        await this.backOff((job.backoffMs ?? 500) * 2 ** (attempt - 1));
        if (this.closed) throw error;
      }
    }
  }

  private track<T>(promise: Promise<T>): Promise<T> {
    this.inFlight.add(promise);
    promise.finally(() => this.inFlight.delete(promise)).catch(() => {});
    return promise;
  }

  async enqueue<P>(job: JobDefinition<P>, payload: P): Promise<void> {
    const promise = this.track(this.runWithRetries(job, payload));
    promise.catch((error) => this.log.error({ err: error, job: job.name }, 'job failed'));
  }

  run<P, R>(job: JobDefinition<P, R>, payload: P): Promise<R> {
    return this.track(this.runWithRetries(job, payload));
  }

  async repeat<P>(job: JobDefinition<P>, payload: P, options: RepeatOptions): Promise<void> {
    const timer = setInterval(() => void this.enqueue(job, payload), options.everyMs);
    timer.unref();
    this.timers.add(timer);
  }

  async depth(): Promise<Record<string, Record<string, number>>> {
    return Object.fromEntries([...this.active].map(([job, active]) => [job, { active }]));
  }

  async ready(): Promise<boolean> {
    return !this.closed;
  }

  /** Stops schedules and waits for running jobs, so shutdown never cuts a job in half. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const wake of [...this.backingOff]) wake();
    await Promise.allSettled([...this.inFlight]);
  }
}
