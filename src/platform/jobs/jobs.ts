import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';

/** What a job handler gets: its own entity manager per run, a logger and a progress reporter. */
export interface JobContext {
  db: Database;
  log: FastifyBaseLogger;
  progress(percent: number): Promise<void> | void;
  attempt: number;
  /** The process's configuration (a worker's is its own environment's). */
  config: Readonly<Config>;
  /** Queues follow-up work: where the job runs, on the same queues (a dispatcher queues deliveries). */
  jobs: JobRunner;
}

/**
 * One kind of background work. Handlers must be idempotent: BullMQ may run a job more than once
 * (retries, a worker dying mid-job).
 */
export interface JobDefinition<Payload = unknown, Result = unknown> {
  name: string;
  /** Retries after the first attempt, with exponential backoff starting at `backoffMs`. */
  attempts?: number;
  backoffMs?: number;
  /**
   * Attempts of this kind one process runs at once (a worker's pool, or the daemon's in-process runner);
   * else the pool's default, and unbounded in-process.
   */
  concurrency?: number;
  handle(payload: Payload, ctx: JobContext): Promise<Result>;
}

export interface RepeatOptions {
  /** Stable id so that restarts do not stack duplicate schedules. */
  jobId: string;
  everyMs: number;
}

/** Runs jobs either through BullMQ (when Redis is configured) or in this process. */
export interface JobRunner {
  readonly kind: 'bullmq' | 'in-process';
  /** Fire and forget; resolves once the job is queued (or scheduled in-process). */
  enqueue<P>(job: JobDefinition<P>, payload: P, options?: { jobId?: string }): Promise<void>;
  /** Runs a job and waits for its result, at most `timeoutMs`. */
  run<P, R>(job: JobDefinition<P, R>, payload: P, options?: { timeoutMs?: number }): Promise<R>;
  repeat<P>(job: JobDefinition<P>, payload: P, options: RepeatOptions): Promise<void>;
  /** Jobs per job name and state, for metrics (bounded; may reject when the queue is unreachable). */
  depth?(): Promise<Record<string, Record<string, number>>>;
  /** Queue health for readiness checks. */
  ready(): Promise<boolean>;
  /**
   * Of the queues named, those no worker serves (BullMQ lists each queue's workers); absent where this process
   * runs every job itself. Rejects when the queue is unreachable.
   */
  unserved?(names: readonly string[]): Promise<string[]>;
  close(): Promise<void>;
}
