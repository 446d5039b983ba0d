import { timedJob } from '../metrics/events.js';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** The embedded default: the same handlers, run in the daemon's process with the same retry policy. */
export class InProcessJobRunner {
    db;
    log;
    kind = 'in-process';
    inFlight = new Set();
    timers = new Set();
    active = new Map();
    closed = false;
    constructor(db, log) {
        this.db = db;
        this.log = log;
    }
    async runWithRetries(job, payload) {
        const attempts = 1 + (job.attempts ?? 2);
        for (let attempt = 1;; attempt += 1) {
            const ctx = {
                db: this.db,
                log: this.log.child({ job: job.name, attempt }),
                progress: () => { },
                attempt,
            };
            try {
                this.active.set(job.name, (this.active.get(job.name) ?? 0) + 1);
                try {
                    return await timedJob(job.name, () => job.handle(payload, ctx));
                }
                finally {
                    this.active.set(job.name, (this.active.get(job.name) ?? 1) - 1);
                }
            }
            catch (error) {
                if (attempt >= attempts || this.closed)
                    throw error;
                ctx.log.warn({ err: error }, 'job failed, retrying');
                await sleep((job.backoffMs ?? 500) * 2 ** (attempt - 1));
            }
        }
    }
    track(promise) {
        this.inFlight.add(promise);
        promise.finally(() => this.inFlight.delete(promise)).catch(() => { });
        return promise;
    }
    async enqueue(job, payload) {
        const promise = this.track(this.runWithRetries(job, payload));
        promise.catch((error) => this.log.error({ err: error, job: job.name }, 'job failed'));
    }
    run(job, payload) {
        return this.track(this.runWithRetries(job, payload));
    }
    async repeat(job, payload, options) {
        const timer = setInterval(() => void this.enqueue(job, payload), options.everyMs);
        timer.unref();
        this.timers.add(timer);
    }
    async depth() {
        return Object.fromEntries([...this.active].map(([job, active]) => [job, { active }]));
    }
    async ready() {
        return !this.closed;
    }
    /** Stops schedules and waits for running jobs, so shutdown never cuts a job in half. */
    async close() {
        this.closed = true;
        for (const timer of this.timers)
            clearInterval(timer);
        await Promise.allSettled([...this.inFlight]);
    }
}
//# sourceMappingURL=in-process.runner.js.map