import { PostgreSqlConnection } from '@mikro-orm/postgresql';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { channels } from './events.js';
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];
/**
 * The process's metrics in the Prometheus text format: HTTP requests per route (rate, status, latency),
 * attestation ingest batches, queue depth and job durations per job, database pool usage, cache hit
 * ratios, and Node's own (event-loop lag, heap, GC) under `nodejs_` and `process_`. One registry per
 * instance, so that several apps in one process (tests) never mix their counts.
 */
export class Metrics {
    registry = new Registry();
    requests;
    latency;
    unsubscribe = [];
    sources = {};
    constructor() {
        const registers = [this.registry];
        collectDefaultMetrics({ register: this.registry });
        this.requests = new Counter({
            name: 'comply_http_requests_total',
            help: 'HTTP requests answered, by method, route template and status code',
            labelNames: ['method', 'route', 'status'],
            registers,
        });
        this.latency = new Histogram({
            name: 'comply_http_request_duration_seconds',
            help: 'Time from receiving a request to sending its response, by method and route template',
            labelNames: ['method', 'route'],
            buckets: LATENCY_BUCKETS,
            registers,
        });
        const batchSize = new Histogram({
            name: 'comply_ingest_batch_rows',
            help: 'Attestations written per ingest batch (one multi-row statement, one transaction)',
            buckets: BATCH_BUCKETS,
            registers,
        });
        const commit = new Histogram({
            name: 'comply_ingest_commit_duration_seconds',
            help: 'Time to write and commit one ingest batch (a failed one included)',
            buckets: LATENCY_BUCKETS,
            registers,
        });
        const jobDuration = new Histogram({
            name: 'comply_job_duration_seconds',
            help: 'Time a job handler ran in this process, by job and outcome',
            labelNames: ['job', 'outcome'],
            buckets: LATENCY_BUCKETS,
            registers,
        });
        const cache = new Counter({
            name: 'comply_cache_requests_total',
            help: 'Cache lookups by cache and result (hit ratio = hit / (hit + miss))',
            labelNames: ['cache', 'result'],
            registers,
        });
        const sources = () => this.sources;
        new Gauge({
            name: 'comply_queue_jobs',
            help: 'Jobs per job name and state (BullMQ: waiting, active, delayed, failed; in-process: active)',
            labelNames: ['job', 'state'],
            registers,
            async collect() {
                this.reset();
                const depth = await sources()
                    .jobs?.depth?.()
                    .catch(() => null);
                for (const [job, states] of Object.entries(depth ?? {})) {
                    for (const [state, count] of Object.entries(states))
                        this.set({ job, state }, count);
                }
            },
        });
        new Gauge({
            name: 'comply_db_pool_connections',
            help: 'PostgreSQL pool connections: total open, idle, and requests waiting for one',
            labelNames: ['state'],
            registers,
            async collect() {
                const db = sources().db;
                const connection = db?.orm.em.getConnection();
                if (!(connection instanceof PostgreSqlConnection))
                    return;
                const pool = await connection.getNativeClient();
                this.set({ state: 'total' }, pool.totalCount);
                this.set({ state: 'idle' }, pool.idleCount);
                this.set({ state: 'waiting' }, pool.waitingCount);
            },
        });
        this.listen(channels.ingestBatch, (event) => {
            batchSize.observe(event.rows);
            commit.observe(event.seconds);
        });
        this.listen(channels.jobRun, (event) => jobDuration.observe({ job: event.job, outcome: event.outcome }, event.seconds));
        this.listen(channels.cache, (event) => cache.inc({ cache: event.cache, result: event.hit ? 'hit' : 'miss' }));
    }
    listen(channel, handler) {
        const listener = (message) => handler(message);
        channel.subscribe(listener);
        this.unsubscribe.push(() => channel.unsubscribe(listener));
    }
    /** Where queue depth and pool usage are read from at each scrape. */
    watch(sources) {
        this.sources = { ...this.sources, ...sources };
    }
    observeRequest(method, route, status, seconds) {
        this.requests.inc({ method, route, status: String(status) });
        this.latency.observe({ method, route }, seconds);
    }
    render() {
        return this.registry.metrics();
    }
    get contentType() {
        return this.registry.contentType;
    }
    close() {
        for (const stop of this.unsubscribe.splice(0))
            stop();
        this.registry.clear();
    }
}
//# sourceMappingURL=metrics.js.map