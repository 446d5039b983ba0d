/**
 * The CTE API on real PostgreSQL: gaps, coverage and search top-10 over HTTP against a bare Fastify route,
 * then the same work in process (service functions with their per-request queries), before and after the
 * NIST SP 800-53 rev5 catalog is imported. Run: npx tsx bench/cte-api.bench.ts
 * Targets: gaps + coverage over all frameworks < 20 ms, search top-10 < 10 ms (built-in embedder).
 */
import { readFileSync } from 'node:fs';
import { pino } from 'pino';
import { orgCoverage, orgGaps } from '../src/features/cte/analysis.service.js';
import { coverageReport } from '../src/features/cte/coverage.js';
import { importCatalog } from '../src/features/cte/frameworks.service.js';
import { computeGaps } from '../src/features/cte/gaps.js';
import { propagateRecords } from '../src/features/cte/graph.js';
import { currentLibrary } from '../src/features/cte/library.service.js';
import { similarRequirements, suggestMappings } from '../src/features/cte/mappings.service.js';
import { loadOrgState } from '../src/features/cte/org-state.service.js';
import { searchRequirements } from '../src/features/cte/search/search.service.js';
import { loadConfig } from '../src/platform/config.js';
import { openDatabase } from '../src/platform/db/database.js';
import { ADMIN_KEY, createBenchDatabase, load, report, startBareRoute, startDaemon } from './support.js';

const ORG = 'bench';
const SP_800_53 = 'nist-special-publication-800-53-revision-5';
/** Suggestions from the imported catalog once it is there, from the EU AI Act before. */
let suggestFrom = 'eu-ai-act';
const SUGGEST_FROM = () => suggestFrom;
const QUERY = 'keep logs of AI system events';
const STATUSES = ['implemented', 'in_progress', 'not_started'] as const;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(run: () => Promise<unknown>, iterations: number) {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return `median ${percentile(samples, 50).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms`;
}

const databaseUrl = await createBenchDatabase('comply_bench_cte');
const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
const bare = await startBareRoute();
const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
async function api<T = unknown>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${daemon.url}/api/v1${path}`, { ...init, headers });
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const db = await openDatabase(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
const settings = loadConfig().embeddings;
const log = pino({ level: 'silent' });

async function frameworkIds(): Promise<string[]> {
  const { frameworks } = await api<{ frameworks: { id: string }[] }>('/cte/frameworks');
  return frameworks.map((framework) => framework.id);
}

/** Every framework's gaps plus the coverage report, as a client would fetch them: one request each. */
async function allOverHttp(ids: string[]) {
  for (const id of ids) await api(`/cte/gaps/${id}?orgId=${ORG}`);
  await api(`/cte/coverage?orgId=${ORG}`);
}

async function inProcess(label: string) {
  const ids = (await currentLibrary(db.em())).library.frameworks.map((framework) => framework.id);
  const all = async () => {
    const em = db.em();
    for (const id of ids) await orgGaps(em, ORG, id);
    await orgCoverage(em, ORG);
  };
  const { library } = await currentLibrary(db.em());
  const state = await loadOrgState(db.em(), ORG);
  console.log(`\nin process, ${label} (${ids.length} frameworks):`);
  console.log(`  gaps + coverage over all frameworks, cached:        ${await time(all, 200)}`);
  console.log(
    `  the same, recomputed (propagation + every report):  ${await time(async () => {
      const coverage = propagateRecords(library, state.records);
      for (const id of ids) computeGaps(library, coverage, id, state);
      coverageReport(library, coverage);
    }, 50)}`,
  );
  console.log(
    `  the two per-request queries (library, org state):   ${await time(async () => {
      const em = db.em();
      await currentLibrary(em);
      await loadOrgState(em, ORG);
    }, 200)}`,
  );
  await searchRequirements(db.em(), settings, log, QUERY, 10);
  let n = 0;
  console.log(
    `  search top-10, new query each time:                 ${await time(
      () => searchRequirements(db.em(), settings, log, `${QUERY} ${n++}`, 10),
      200,
    )}`,
  );
  console.log(
    `  search top-10, repeated query (cached embedding):   ${await time(
      () => searchRequirements(db.em(), settings, log, QUERY, 10),
      200,
    )}`,
  );
  const suggest = () =>
    suggestMappings(
      db.em(),
      { settings, log },
      { from: suggestFrom, to: 'iso-42001', limit: 50, minScore: 0 },
    );
  const start = performance.now();
  await suggest();
  console.log(
    `  suggestions ${suggestFrom} → iso-42001, first (all pairs): ${(performance.now() - start).toFixed(1)} ms`,
  );
  const art12 = { frameworkId: 'eu-ai-act', requirementId: 'Art. 12' };
  console.log(
    `  similar requirements, top 10:                       ${await time(
      () => similarRequirements(db.em(), { settings, log }, art12, { limit: 10 }),
      200,
    )}`,
  );
  console.log(`  suggestions, again (cached per library):           ${await time(suggest, 200)}`);
}

async function overHttp(label: string) {
  const ids = await frameworkIds();
  await allOverHttp(ids);
  console.log(`\nover HTTP, ${label}: gaps of ${ids.length} frameworks + coverage, one client, sequential`);
  console.log(`  ${ids.length + 1} requests: ${await time(() => allOverHttp(ids), 50)}`);
  await load('warm-up', { url: `${daemon.url}/api/v1/cte/coverage?orgId=${ORG}`, headers, duration: 2 });
  const bareResult = await load('bare Fastify route', { url: bare.url });
  const body = JSON.stringify({ query: QUERY, limit: 10 });
  report(bareResult, [
    await load('GET /cte/frameworks', { url: `${daemon.url}/api/v1/cte/frameworks`, headers }),
    await load('GET /cte/gaps/eu-ai-act', {
      url: `${daemon.url}/api/v1/cte/gaps/eu-ai-act?orgId=${ORG}`,
      headers,
    }),
    await load('GET /cte/gaps/iso-27001', {
      url: `${daemon.url}/api/v1/cte/gaps/iso-27001?orgId=${ORG}`,
      headers,
    }),
    await load('GET /cte/coverage', { url: `${daemon.url}/api/v1/cte/coverage?orgId=${ORG}`, headers }),
    await load('POST /cte/embeddings/distance', {
      url: `${daemon.url}/api/v1/cte/embeddings/distance`,
      headers,
      method: 'POST',
      body,
    }),
    await load('GET /cte/…/Art. 12/similar', {
      url: `${daemon.url}/api/v1/cte/frameworks/eu-ai-act/requirements/Art.%2012/similar?limit=10`,
      headers,
    }),
    await load('GET /cte/mappings/suggestions', {
      url: `${daemon.url}/api/v1/cte/mappings/suggestions?from=${SUGGEST_FROM()}&to=iso-42001&limit=50`,
      headers,
    }),
  ]);
}

try {
  await api('/orgs', { method: 'POST', body: JSON.stringify({ orgId: ORG, name: 'Bench' }) });
  await api(`/orgs/${ORG}/ai-systems`, {
    method: 'POST',
    body: JSON.stringify({ name: 'Screening', owner: 'hr', purpose: 'CV screening', riskLevel: 'high' }),
  });
  const iso = await api<{ controls: { controlId: string }[] }>('/cte/frameworks/iso-42001');
  for (const [i, control] of iso.controls.entries()) {
    await api(`/orgs/${ORG}/controls/${control.controlId}/status`, {
      method: 'PUT',
      body: JSON.stringify({ status: STATUSES[i % 3], reviewer: 'bench' }),
    });
  }
  await api('/cte/embeddings/distance', { method: 'POST', body: JSON.stringify({ query: QUERY }) });

  await overHttp('built-in frameworks');
  await inProcess('built-in frameworks');

  const catalog = JSON.parse(
    readFileSync(
      new URL('../test/fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
      'utf8',
    ),
  );
  let start = performance.now();
  await importCatalog(db.em(), catalog);
  console.log(
    `\nimported SP 800-53 rev5 (1007 requirements) in ${(performance.now() - start).toFixed(0)} ms`,
  );
  start = performance.now();
  await searchRequirements(db.em(), settings, log, QUERY, 10);
  console.log(`built the search index for 1306 requirements in ${(performance.now() - start).toFixed(0)} ms`);
  await api('/cte/embeddings/distance', { method: 'POST', body: JSON.stringify({ query: QUERY }) });
  suggestFrom = SP_800_53;
  await overHttp('with SP 800-53 imported');
  await inProcess('with SP 800-53 imported');
} finally {
  await db.close();
  await bare.close();
  await daemon.stop();
}
