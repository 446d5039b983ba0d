import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/features/auth/keys.service.js';
import { createOrg } from '../../src/features/orgs/orgs.service.js';
import { complianceRollupJob } from '../../src/features/scores/rollup.job.js';
import { InProcessJobRunner } from '../../src/platform/jobs/in-process.runner.js';
import { Metrics } from '../../src/platform/metrics/metrics.js';
import { attestation } from '../attestations/helpers.js';
import { ADMIN_KEY, openTestDatabase, type TestDatabase } from '../support/app.js';
import { type Daemon, startDaemon } from '../support/daemon.js';
import { freePort } from '../support/free-port.js';

const ORG = 'metrics-org';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, sample lines only. */
function parse(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((label) => [label[1], label[2]]),
      );
      return { name: match[1], labels, value: Number(match[3]) };
    });
}

function value(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, wanted]) => sample.labels[key] === wanted),
  )?.value;
}

/** A known workload through the real app, then the exact figures /metrics must show for it. */
describe('metrics after a known workload', () => {
  let testDb: TestDatabase;
  let jobs: InProcessJobRunner;
  let app: FastifyInstance;
  const metrics = new Metrics();

  beforeAll(async () => {
    testDb = await openTestDatabase('postgres');
    jobs = new InProcessJobRunner(testDb.db, pino({ level: 'silent' }));
    app = await buildApp({ config: testDb.config, db: testDb.db, jobs, metrics });
    await app.ready();
    await createOrg(testDb.db.em(), { orgId: ORG, name: 'Metrics' });
  }, 60_000);
  afterAll(async () => {
    await app.close();
    await jobs.close();
    metrics.close();
    await testDb.close();
  });

  it('counts requests per route and status, latency, ingest batches, jobs, caches, pool and event loop', async () => {
    const key = (await createKey(testDb.db.em(), { orgId: ORG, scopes: ['read', 'attest'] })).key;
    const as = (authorization: string) => ({ authorization: `Bearer ${authorization}` });
    for (let index = 0; index < 5; index += 1) {
      const res = await app.inject({
        method: 'GET',
        url: `/api/v1/orgs/${ORG}/compliance`,
        headers: as(key),
      });
      expect(res.statusCode).toBe(200);
    }
    for (let index = 0; index < 3; index += 1) {
      expect((await app.inject({ method: 'GET', url: '/api/v1/nowhere' })).statusCode).toBe(404);
    }
    for (let index = 0; index < 2; index += 1) {
      const res = await app.inject({ method: 'GET', url: `/api/v1/orgs/${ORG}/compliance` });
      expect(res.statusCode).toBe(401);
    }
    // Sequential posts: each is a batch of one.
    for (let index = 0; index < 4; index += 1) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/v1/orgs/${ORG}/attestations`,
        headers: as(ADMIN_KEY),
        payload: attestation({ level: 'L0', epochId: 'metrics' }),
      });
      expect(res.statusCode).toBe(201);
    }
    await jobs.run(complianceRollupJob, {});

    const samples = parse(await metrics.render());
    const route = '/api/v1/orgs/:orgId/compliance';
    expect(value(samples, 'comply_http_requests_total', { method: 'GET', route, status: '200' })).toBe(5);
    expect(value(samples, 'comply_http_requests_total', { method: 'GET', route, status: '401' })).toBe(2);
    expect(value(samples, 'comply_http_requests_total', { route: 'unmatched', status: '404' })).toBe(3);
    expect(
      value(samples, 'comply_http_requests_total', {
        method: 'POST',
        route: '/api/v1/orgs/:orgId/attestations',
        status: '201',
      }),
    ).toBe(4);
    expect(value(samples, 'comply_http_request_duration_seconds_count', { method: 'GET', route })).toBe(7);
    expect(value(samples, 'comply_http_request_duration_seconds_bucket', { route, le: '+Inf' })).toBe(7);

    expect(value(samples, 'comply_ingest_batch_rows_count')).toBe(4);
    expect(value(samples, 'comply_ingest_batch_rows_sum')).toBe(4);
    expect(value(samples, 'comply_ingest_commit_duration_seconds_count')).toBe(4);

    expect(
      value(samples, 'comply_job_duration_seconds_count', { job: 'compliance-rollup', outcome: 'completed' }),
    ).toBe(1);
    expect(value(samples, 'comply_queue_jobs', { job: 'compliance-rollup', state: 'active' })).toBe(0);

    // The tenant key: looked up once, then served from the cache (the platform key is never cached).
    expect(value(samples, 'comply_cache_requests_total', { cache: 'api-keys', result: 'miss' })).toBe(1);
    expect(value(samples, 'comply_cache_requests_total', { cache: 'api-keys', result: 'hit' })).toBe(4);
    // The score: computed once, then served from the org's read cache.
    expect(value(samples, 'comply_cache_requests_total', { cache: 'org-reads', result: 'miss' })).toBe(1);
    expect(value(samples, 'comply_cache_requests_total', { cache: 'org-reads', result: 'hit' })).toBe(4);

    expect(value(samples, 'comply_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'comply_db_pool_connections', { state: 'waiting' })).toBe(0);
    expect(value(samples, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  }, 60_000);
});

/** The endpoint itself: its own port, no key, not on the API's port. */
describe('the metrics endpoint of a running daemon', () => {
  let daemon: Daemon;
  let metricsPort: number;
  beforeAll(async () => {
    metricsPort = await freePort();
    daemon = await startDaemon({ COMPLY_METRICS_PORT: String(metricsPort) });
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it('serves the Prometheus text format on COMPLY_METRICS_PORT only', async () => {
    expect((await fetch(`${daemon.url}/healthz`)).status).toBe(200);
    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parse(await res.text());
    expect(
      value(samples, 'comply_http_requests_total', { route: '/healthz', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
    expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    const onApi = await fetch(`${daemon.url}/metrics`);
    expect(onApi.status).toBe(404);
    expect(((await onApi.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });
});
