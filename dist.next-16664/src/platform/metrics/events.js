import { channel } from 'node:diagnostics_channel';
export const channels = {
    ingestBatch: channel('comply.ingest.batch'),
    jobRun: channel('comply.job.run'),
    cache: channel('comply.cache'),
};
export function reportIngestBatch(event) {
    if (channels.ingestBatch.hasSubscribers)
        channels.ingestBatch.publish(event);
}
export function reportCache(cache, hit) {
    if (channels.cache.hasSubscribers)
        channels.cache.publish({ cache, hit });
}
/** Runs a job handler and reports how long it took and how it ended. */
export async function timedJob(job, run) {
    const started = performance.now();
    let outcome = 'failed';
    try {
        const result = await run();
        outcome = 'completed';
        return result;
    }
    finally {
        if (channels.jobRun.hasSubscribers) {
            channels.jobRun.publish({
                job,
                seconds: (performance.now() - started) / 1000,
                outcome,
            });
        }
    }
}
//# sourceMappingURL=events.js.map