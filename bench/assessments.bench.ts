/**
 * Assessments of every framework on real PostgreSQL: NIST SP 800-53 rev5 imported beside the built-in
 * frameworks, and a direct record on every requirement of every framework (1,400+). Then, against a bare
 * Fastify route in the same run, the org's framework list, gaps and coverage of each framework and a full
 * requirement list, under load; and each route's latency for one client, against its target.
 *
 *   npx tsx bench/assessments.bench.ts [--connections 16] [--duration 5]
 *
 * Targets: gaps and coverage of any framework < 20 ms, the org's framework list < 50 ms.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { importCatalog } from '../src/features/cte/frameworks.service.js';
import { loadConfig } from '../src/platform/config.js';
import { openDatabase } from '../src/platform/db/database.js';
import {
  ADMIN_KEY,
  assessEveryRequirement,
  createBenchDatabase,
  type LoadResult,
  load,
  report,
  startBareRoute,
  startDaemon,
} from './support.js';

const { values: args } = parseArgs({
  options: { connections: { type: 'string', default: '16' }, duration: { type: 'string', default: '5' } },
});
const connections = Number(args.connections);
const duration = Number(args.duration);

const ORG = 'bench';
const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };

const databaseUrl = await createBenchDatabase('comply_bench_assessments');
const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
const bare = await startBareRoute();
const db = await openDatabase(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));

async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${daemon.url}/api/v1${path}`, { ...init, headers });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** One client, sequential requests: what a single user waits. */
async function latency(path: string, iterations = 100) {
  await api(path);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await api(path);
    samples.push(performance.now() - start);
  }
  return { median: percentile(samples, 50), p95: percentile(samples, 95) };
}

try {
  await api('/orgs', { method: 'POST', body: JSON.stringify({ orgId: ORG, name: 'Bench' }) });
  const catalog = JSON.parse(
    readFileSync(
      new URL('../test/fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
      'utf8',
    ),
  );
  const imported = await importCatalog(db.em(), catalog, { frameworkId: 'nist-sp-800-53' });
  console.log(`imported ${imported.id}`);

  // A direct record on every requirement of every framework: statuses in turn, every seventh not applicable.
  const { frameworks } = await api<{ frameworks: { frameworkId: string }[] }>(`/orgs/${ORG}/frameworks`);
  const start = performance.now();
  const count = await assessEveryRequirement(api, ORG, 8);
  const assessed = (performance.now() - start) / 1000;
  console.log(
    `${count} requirements of ${frameworks.length} frameworks assessed directly in ${assessed.toFixed(1)} s ` +
      `(${Math.round(count / assessed)} writes/s, 8 in flight)`,
  );
  // One client, sequential: the latency a user sees, against the targets.
  const ids = frameworks.map((framework) => framework.frameworkId);
  const routes: { path: string; target: number }[] = [
    { path: `/orgs/${ORG}/frameworks`, target: 50 },
    { path: `/cte/coverage?orgId=${ORG}`, target: 20 },
    ...ids.map((id) => ({ path: `/cte/gaps/${id}?orgId=${ORG}`, target: 20 })),
    ...ids.map((id) => ({ path: `/cte/coverage/${id}?orgId=${ORG}`, target: 20 })),
  ];
  const rows = [];
  for (const route of routes) {
    const { median, p95 } = await latency(route.path);
    rows.push({
      route: route.path,
      'median ms': median.toFixed(2),
      'p95 ms': p95.toFixed(2),
      target: `< ${route.target} ms`,
      met: p95 < route.target ? 'yes' : 'NO',
    });
  }
  console.log('\none client, sequential requests (100 each):');
  console.table(rows);

  // Under load, as ratios against the bare route measured in the same run.
  const loadOptions = (path: string) => ({
    url: `${daemon.url}/api/v1${path}`,
    headers,
    connections,
    duration,
  });
  await load('warm-up', { ...loadOptions(`/orgs/${ORG}/frameworks`), duration: 2 });
  const bareResult = await load('bare Fastify route', { url: bare.url, connections, duration });
  const results: LoadResult[] = [];
  for (const path of [
    `/orgs/${ORG}/frameworks`,
    `/cte/gaps/nist-sp-800-53?orgId=${ORG}`,
    `/cte/gaps/eu-ai-act?orgId=${ORG}`,
    `/cte/coverage?orgId=${ORG}`,
    `/orgs/${ORG}/frameworks/nist-sp-800-53/requirements`,
    `/orgs/${ORG}/frameworks/nist-sp-800-53/compliance`,
  ]) {
    results.push(
      await load(
        `GET ${path.replace(`=${ORG}`, '={org}').replace(`/${ORG}/`, '/{org}/')}`,
        loadOptions(path),
      ),
    );
  }
  console.log(`\nunder load (${connections} connections, ${duration} s each):`);
  report(bareResult, results);
} finally {
  await db.close();
  await bare.close();
  await daemon.stop();
}
