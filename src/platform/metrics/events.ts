import { channel } from 'node:diagnostics_channel';

/**
 * What the code reports for operators' metrics, as diagnostics channels: publishing costs nothing while
 * no one listens (tests, the CLI), and the parts that measure need no handle on the metrics registry.
 * src/metrics/metrics.ts subscribes.
 */
export interface IngestBatchEvent {
  rows: number;
  seconds: number;
}
export interface JobRunEvent {
  job: string;
  seconds: number;
  outcome: 'completed' | 'failed';
}
export interface CacheEvent {
  cache: 'api-keys' | 'sessions' | 'sidecar-keys' | 'org-reads' | 'ai-systems';
  hit: boolean;
}

export const channels = {
  ingestBatch: channel('comply.ingest.batch'),
  jobRun: channel('comply.job.run'),
  cache: channel('comply.cache'),
} as const;

export function reportIngestBatch(event: IngestBatchEvent): void {
  if (channels.ingestBatch.hasSubscribers) channels.ingestBatch.publish(event);
}

export function reportCache(cache: CacheEvent['cache'], hit: boolean): void {
  if (channels.cache.hasSubscribers) channels.cache.publish({ cache, hit } satisfies CacheEvent);
}

/** Runs a job handler and reports how long it took and how it ended. */
export async function timedJob<R>(job: string, run: () => Promise<R>): Promise<R> {
  const started = performance.now();
  let outcome: JobRunEvent['outcome'] = 'failed';
  try {
    const result = await run();
    outcome = 'completed';
    return result;
  } finally {
    if (channels.jobRun.hasSubscribers) {
      channels.jobRun.publish({
        job,
        seconds: (performance.now() - started) / 1000,
        outcome,
      } satisfies JobRunEvent);
    }
  }
}
