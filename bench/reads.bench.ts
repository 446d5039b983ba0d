/**
 * Every read route against the least work it needs: a bare Fastify route, in its own process, returning the
 * route's own body pre-serialised (same bytes, same content type), measured right before the route in the
 * same run. Real PostgreSQL; an org assessed on every framework (NIST SP 800-53 imported), evidence rows
 * with and without expiry, and attestations posted through the API.
 *
 *   npx tsx bench/reads.bench.ts [--connections 32] [--duration 3] [--evidence 5000] [--attestations 2000]
 *     [--rounds 3] [--only <regular expression matching route names>]
 *
 * Each route is measured in `--rounds` pairs (its bare route, then the route itself); the table shows the
 * median of the pairs' ratios, so that one pair disturbed by the rest of the machine does not decide it.
 *
 * Target: every route ≥ 50 % of its same-size bare route.
 *
 * The bare route sends its body as a string, as a plain Fastify handler would, and pays for encoding it to
 * UTF-8 on every response. Routes that answer from a cache send the bytes they kept (`SerializedBody`), so a
 * route that does little besides can come near or past 100 %: compare the CPU µs per request too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { buildAttestation } from '../src/clients/sidecar/client.js';
import { importCatalog } from '../src/features/cte/frameworks.service.js';
import { insertEvidence, type NewEvidence } from '../src/features/evidence/evidence.store.js';
import { loadConfig } from '../src/platform/config.js';
import { openDatabase } from '../src/platform/db/database.js';
import { EVIDENCE_TYPES } from '../src/shared/vocabulary.js';
import { freePort } from '../test/support/free-port.js';
import {
  ADMIN_KEY,
  assessEveryRequirement,
  createBenchDatabase,
  inParallel,
  type LoadResult,
  load,
  startDaemon,
} from './support.js';

interface BareRoute {
  method: 'GET' | 'POST';
  contentType: string;
  body: string;
}

// The bare server runs in a child process of its own, like the daemon, so that neither shares an event loop
// with the load generator.
if (process.argv[2] === 'bare') {
  const routes = JSON.parse(readFileSync(process.argv[3], 'utf8')) as BareRoute[];
  const app = Fastify({ logger: false });
  routes.forEach((route, index) => {
    const handler = async (_request: unknown, reply: import('fastify').FastifyReply) =>
      reply.type(route.contentType).send(route.body);
    if (route.method === 'POST') app.post(`/bare/${index}`, handler);
    else app.get(`/bare/${index}`, handler);
  });
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  await main();
}

async function main() {
  const { values: args } = parseArgs({
    options: {
      connections: { type: 'string', default: '32' },
      duration: { type: 'string', default: '3' },
      evidence: { type: 'string', default: '5000' },
      attestations: { type: 'string', default: '2000' },
      rounds: { type: 'string', default: '3' },
      only: { type: 'string' },
    },
  });
  const connections = Number(args.connections);
  const duration = Number(args.duration);
  const ORG = 'bench';
  const HOT_CONTROL = 'A.6.2.8';
  const DAY = 86_400_000;
  const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };

  const databaseUrl = await createBenchDatabase('comply_bench_reads');
  const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
  const db = await openDatabase(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
  let bare: { url: string; pid: number; stop: () => Promise<void> } | undefined;

  async function api<T = unknown>(route: string, init: RequestInit = {}, auth = headers): Promise<T> {
    const res = await fetch(`${daemon.url}/api/v1${route}`, { ...init, headers: auth });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  }

  try {
    // --- Seed -------------------------------------------------------------------------------------
    let begin = performance.now();
    await api('/orgs', { method: 'POST', body: JSON.stringify({ orgId: ORG, name: 'Bench' }) });
    // The AI system the attestations below name (an attestation must name one of the org's systems).
    await api(`/orgs/${ORG}/ai-systems`, {
      method: 'POST',
      body: JSON.stringify({
        name: 'bench-model',
        owner: 'bench',
        purpose: 'benchmark',
        riskLevel: 'limited',
      }),
    });
    const catalog = JSON.parse(
      readFileSync(
        new URL('../test/fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
        'utf8',
      ),
    );
    await importCatalog(db.em(), catalog, { frameworkId: 'nist-sp-800-53' });
    const { frameworks } = await api<{ frameworks: { frameworkId: string }[] }>(`/orgs/${ORG}/frameworks`);
    const assessed = await assessEveryRequirement(api, ORG, 16);
    console.log(
      `${assessed} requirements of ${frameworks.length} frameworks assessed in ` +
        `${((performance.now() - begin) / 1000).toFixed(1)} s`,
    );

    // Evidence: half on one control, a quarter expiring in the future (so that reports carry a validUntil).
    begin = performance.now();
    const controls = (await api<{ controls: { controlId: string }[] }>('/controls')).controls.map(
      (control) => control.controlId,
    );
    const evidenceRows = Number(args.evidence);
    const now = Date.now();
    const rows: NewEvidence[] = [];
    for (let index = 0; index < evidenceRows; index += 1) {
      const createdAt = new Date(now - (index % 300) * DAY);
      const type = EVIDENCE_TYPES[index % 3];
      rows.push({
        orgId: ORG,
        frameworkId: 'iso-42001',
        requirementId: index % 2 === 0 ? HOT_CONTROL : controls[index % controls.length],
        type,
        title: `evidence ${index}`,
        fileUrl: type === 'attestation' ? null : `https://files.example.com/${index}`,
        expiresAt: index % 4 === 0 ? new Date(now + (30 + (index % 200)) * DAY) : null,
        createdAt,
      });
    }
    for (let offset = 0; offset < rows.length; offset += 2000) {
      const chunk = rows.slice(offset, offset + 2000);
      await db.em().transactional((tx) => insertEvidence(tx, chunk));
    }
    // Attestations through the API (L0: unsigned), each on two controls.
    const { key: attestKey } = await api<{ key: string }>(`/orgs/${ORG}/keys`, {
      method: 'POST',
      body: JSON.stringify({ scopes: ['attest'] }),
    });
    const attestHeaders = { authorization: `Bearer ${attestKey}`, 'content-type': 'application/json' };
    const attestationCount = Number(args.attestations);
    await inParallel(Array.from({ length: attestationCount }), 16, async (_, index) => {
      const body = buildAttestation({
        level: 'L0',
        epochId: `bench-${Math.floor(index / 500)}`,
        systemId: 'bench-model',
        controlIds: [...new Set([controls[index % controls.length], HOT_CONTROL])],
        claims: { sequence: index, checks: { bias: 'pass' } },
      });
      await api(`/orgs/${ORG}/attestations`, { method: 'POST', body: JSON.stringify(body) }, attestHeaders);
    });
    await db.em().execute('vacuum analyze');
    console.log(
      `${evidenceRows} evidence rows and ${attestationCount} attestations loaded in ` +
        `${((performance.now() - begin) / 1000).toFixed(1)} s`,
    );

    // --- Routes and their bodies ------------------------------------------------------------------
    const org = `/orgs/${ORG}`;
    const search = JSON.stringify({ query: 'human oversight of high-risk AI systems', limit: 10 });
    // A question asked for the first time: the search ranks it (a repeated one is answered from memory).
    let asked = 0;
    const newQuestion = () => {
      asked += 1;
      return JSON.stringify({ query: `human oversight of high-risk AI systems, case ${asked}`, limit: 10 });
    };
    const routes: {
      name: string;
      path: string;
      method?: 'POST';
      body?: string;
      nextBody?: () => string;
    }[] = [
      { name: 'GET /controls', path: '/controls' },
      { name: 'GET /orgs/{org}/controls', path: `${org}/controls` },
      { name: 'GET /orgs/{org}/compliance', path: `${org}/compliance` },
      { name: 'GET /orgs/{org}/frameworks', path: `${org}/frameworks` },
      {
        name: 'GET /orgs/{org}/frameworks/nist-sp-800-53/requirements',
        path: `${org}/frameworks/nist-sp-800-53/requirements`,
      },
      {
        name: 'GET /orgs/{org}/frameworks/eu-ai-act/requirements',
        path: `${org}/frameworks/eu-ai-act/requirements`,
      },
      {
        name: 'GET /orgs/{org}/frameworks/nist-sp-800-53/compliance',
        path: `${org}/frameworks/nist-sp-800-53/compliance`,
      },
      { name: 'GET /cte/gaps/nist-sp-800-53?orgId', path: `/cte/gaps/nist-sp-800-53?orgId=${ORG}` },
      { name: 'GET /cte/gaps/eu-ai-act?orgId', path: `/cte/gaps/eu-ai-act?orgId=${ORG}` },
      { name: 'GET /cte/coverage?orgId', path: `/cte/coverage?orgId=${ORG}` },
      { name: 'GET /cte/coverage/nist-sp-800-53?orgId', path: `/cte/coverage/nist-sp-800-53?orgId=${ORG}` },
      {
        name: 'POST /cte/embeddings/distance',
        path: '/cte/embeddings/distance',
        method: 'POST',
        body: search,
      },
      {
        name: 'POST /cte/embeddings/distance (a new question each time)',
        path: '/cte/embeddings/distance',
        method: 'POST',
        body: search,
        nextBody: newQuestion,
      },
      { name: 'GET /orgs/{org}/attestations (page of 50)', path: `${org}/attestations?limit=50` },
      {
        name: `GET /orgs/{org}/controls/${HOT_CONTROL}/evidence (page of 50)`,
        path: `${org}/controls/${HOT_CONTROL}/evidence?limit=50`,
      },
      {
        name: `GET .../frameworks/iso-42001/requirements/${HOT_CONTROL}/evidence (page of 50)`,
        path: `${org}/frameworks/iso-42001/requirements/${HOT_CONTROL}/evidence?limit=50`,
      },
    ];
    const bareRoutes: BareRoute[] = [];
    for (const route of routes) {
      const res = await fetch(`${daemon.url}/api/v1${route.path}`, {
        method: route.method ?? 'GET',
        headers,
        body: route.body,
      });
      if (!res.ok) throw new Error(`${route.name}: ${res.status} ${await res.text()}`);
      bareRoutes.push({
        method: route.method ?? 'GET',
        contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8',
        body: await res.text(),
      });
    }
    const file = path.join(tmpdir(), `comply-reads-bench-${process.pid}.json`);
    writeFileSync(file, JSON.stringify(bareRoutes));
    bare = await startBare(file);

    // --- Load: each route right after its own bare route ------------------------------------------
    const table = [];
    for (const [index, route] of routes.entries()) {
      if (args.only && !new RegExp(args.only).test(route.name)) continue;
      const common = { connections, duration, method: route.method, body: route.body };
      const routeBodies = route.nextBody && { nextBody: route.nextBody };
      await load('warm-up', { ...common, url: `${daemon.url}/api/v1${route.path}`, headers, duration: 1 });
      const pairs: { bare: LoadResult; route: LoadResult; ratio: number }[] = [];
      for (let round = 0; round < Number(args.rounds); round += 1) {
        const bareRun = await load('bare', {
          ...common,
          url: `${bare.url}/bare/${index}`,
          headers,
          serverPid: bare.pid,
        });
        const routeRun = await load(route.name, {
          ...common,
          url: `${daemon.url}/api/v1${route.path}`,
          headers,
          serverPid: daemon.process.pid,
          ...routeBodies,
        });
        pairs.push({
          bare: bareRun,
          route: routeRun,
          ratio: routeRun.requestsPerSec / bareRun.requestsPerSec,
        });
      }
      pairs.sort((a, b) => a.ratio - b.ratio);
      const { bare: bareResult, route: result, ratio } = pairs[Math.floor(pairs.length / 2)];
      table.push({
        route: route.name,
        bytes: Buffer.byteLength(bareRoutes[index].body),
        'req/s': result.requestsPerSec,
        'bare req/s': bareResult.requestsPerSec,
        ratio: `${(100 * ratio).toFixed(1)} %`,
        'ratios of the rounds': pairs.map((pair) => (100 * pair.ratio).toFixed(1)).join(' '),
        'CPU µs/req': result.cpuMicrosPerRequest,
        'bare CPU µs/req': bareResult.cpuMicrosPerRequest,
        'p99 ms': result.p99,
        'bare p99 ms': bareResult.p99,
        '≥ 50 %': ratio >= 0.5 ? 'yes' : 'NO',
        'non-2xx': pairs.reduce((sum, pair) => sum + pair.route.non2xx + pair.bare.non2xx, 0),
        errors: pairs.reduce((sum, pair) => sum + pair.route.errors + pair.bare.errors, 0),
      });
    }
    console.log(
      `\n${connections} connections, ${duration} s each, ${args.rounds} rounds of the bare route then the ` +
        'route (median pair shown):',
    );
    console.table(table);
  } finally {
    await db.close();
    await bare?.stop();
    await daemon.stop();
  }
}

async function startBare(file: string): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', import.meta.filename, 'bare', file],
    {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt += 1) {
    if (
      await fetch(`${url}/bare/0`)
        .then((res) => res.ok)
        .catch(() => false)
    )
      break;
    if (attempt > 300 || child.exitCode !== null) throw new Error('the bare server did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
