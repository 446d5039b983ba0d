/**
 * L2 attestation ingest against real PostgreSQL, measured against a bare Fastify POST route in the same
 * run. Both servers run in their own process; autocannon drives them from this one, with every L2 body
 * signed beforehand so that the load generator spends nothing on crypto.
 *
 *   npx tsx bench/attestations.bench.ts [--requests 40000] [--connections 64]
 *
 * After the measured run it checks that the rows stored equal the 201s received, then replays every
 * request and checks that the replay yields only 200s and no new rows.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { buildAttestation, signAttestation } from '../src/attestations/client.js';

const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
const PG_ADMIN_URL = process.env.COMPLY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ORG = 'bench';
const CONTROLS = ['A.6.2.6', 'A.6.2.8'];

// ---------------------------------------------------------------------------------------------------
// Child roles: the daemon (the same entry as `comply serve`) and the bare route.

async function runDaemon(): Promise<void> {
  const { loadConfig } = await import('../src/config.js');
  const { startServer } = await import('../src/server.js');
  const server = await startServer(loadConfig());
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
}

async function runBare(): Promise<void> {
  const app = Fastify({ logger: false });
  app.post('/bare', async (_request, reply) => reply.status(201).send({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

// ---------------------------------------------------------------------------------------------------

interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function spawnRole(role: 'daemon' | 'bare', env: Record<string, string>): Promise<Server> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, role], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const probe = role === 'daemon' ? `${url}/healthz` : `${url}/bare`;
  for (let attempt = 0; ; attempt += 1) {
    const up = await fetch(probe, role === 'bare' ? { method: 'POST' } : {}).then(
      () => true,
      () => false,
    );
    if (up) break;
    if (attempt > 300 || child.exitCode !== null) throw new Error(`${role} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    pid: child.pid ?? 0,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `comply_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Record<string, string>> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, string>;
}

function signedBodies(
  count: number,
  signer: { keyId: string; privateKey: KeyObject },
  epochId: string,
): string[] {
  return Array.from({ length: count }, (_, index) =>
    JSON.stringify(
      signAttestation(
        buildAttestation({
          level: 'L2',
          epochId,
          systemId: 'bench-model',
          controlIds: CONTROLS,
          claims: { sequence: index, checks: { bias: 'pass', drift: 0.012 }, model: 'bench-model@1' },
        }),
        signer,
      ),
    ),
  );
}

interface LoadResult {
  requestsPerSec: number;
  p50: number;
  p99: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /**
   * CPU time per request, in µs: the server process (all threads), the PostgreSQL backends serving its
   * database (background writers and backends that closed during the run not included) and the load
   * generator.
   */
  cpu: { server: number; postgres: number; loadGenerator: number };
}

/** CPU seconds (user + system, all threads) of a process, from /proc; 0 where /proc is missing. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL backends serving a database: the daemon's pooled connections. */
async function backendPids(databaseUrl: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
  );
  await client.end();
  return rows.map((row) => row.pid);
}

const ownCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** Sends `amount` requests cycling through the bodies in order, over `connections` keep-alive connections. */
async function load(
  target: { url: string; pid: number; databaseUrl?: string },
  bodies: string[],
  options: { connections: number; apiKey?: string; amount?: number },
): Promise<LoadResult> {
  let next = 0;
  const amount = options.amount ?? bodies.length;
  // Per backend, since the pool may open and close connections during the run.
  const postgresCpu = async () =>
    new Map(
      (target.databaseUrl ? await backendPids(target.databaseUrl) : []).map((pid) => [pid, cpuSeconds(pid)]),
    );
  const postgresBefore = await postgresCpu();
  const before = { server: cpuSeconds(target.pid), own: ownCpuSeconds() };
  const started = performance.now();
  const result = await autocannon({
    url: target.url,
    connections: options.connections,
    amount,
    timeout: 30,
    requests: [
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
        },
        setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }),
      },
    ],
  });
  const seconds = (performance.now() - started) / 1000;
  const after = { server: cpuSeconds(target.pid), own: ownCpuSeconds() };
  let postgres = 0;
  for (const [pid, cpu] of await postgresCpu()) postgres += cpu - (postgresBefore.get(pid) ?? 0);
  const perRequest = (cpu: number) => Math.round((cpu * 1e6) / amount);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = (stats as { count: number }).count;
  }
  return {
    // autocannon's own duration is in whole seconds: too coarse for short runs.
    requestsPerSec: Math.round(result.requests.total / seconds),
    p50: result.latency.p50,
    p99: result.latency.p99,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    cpu: {
      server: perRequest(after.server - before.server),
      postgres: perRequest(postgres),
      loadGenerator: perRequest(after.own - before.own),
    },
  };
}

async function countRows(databaseUrl: string): Promise<{ attestations: number; evidence: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const {
    rows: [row],
  } = await client.query<{ attestations: number; evidence: number }>(
    `select (select count(*)::int from attestations where org_id = $1) as attestations,
            (select count(*)::int from evidence where org_id = $1 and type = 'attestation') as evidence`,
    [ORG],
  );
  await client.end();
  return row;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      requests: { type: 'string', default: '40000' },
      connections: { type: 'string', default: '64' },
    },
  });
  const requests = Number(values.requests);
  const connections = Number(values.connections);
  const warmup = Math.min(5000, Math.ceil(requests / 4));

  const database = await createDatabase();
  const servers: Server[] = [];
  try {
    const daemon = await spawnRole('daemon', {
      DATABASE_URL: database.url,
      COMPLY_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'warn',
      COMPLY_RATE_LIMIT_MAX: '10000000',
    });
    servers.push(daemon);
    const bare = await spawnRole('bare', {});
    servers.push(bare);
    await api(daemon.url, 'POST', '/orgs', { orgId: ORG, name: 'Bench' });
    const { key: attestKey } = await api(daemon.url, 'POST', `/orgs/${ORG}/keys`, { scopes: ['attest'] });
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    await api(daemon.url, 'POST', `/orgs/${ORG}/sidecar-keys`, {
      keyId: 'bench-sidecar',
      publicKey: publicKey.export({ format: 'pem', type: 'spki' }),
    });
    const signer = { keyId: 'bench-sidecar', privateKey };

    process.stdout.write(`signing ${warmup + requests} L2 attestations…\n`);
    const warmupBodies = signedBodies(warmup, signer, 'bench-warmup');
    const bodies = signedBodies(requests, signer, 'bench-run');
    const bareTarget = { url: `${bare.url}/bare`, pid: bare.pid };
    const ingestTarget = {
      url: `${daemon.url}/api/v1/orgs/${ORG}/attestations`,
      pid: daemon.pid,
      databaseUrl: database.url,
    };
    await load(bareTarget, warmupBodies, { connections });
    const warm = await load(ingestTarget, warmupBodies, { connections, apiKey: attestKey });

    // The bare route is fast: three passes over the bodies give it a run about as long as the ingest's.
    const bareResult = await load(bareTarget, bodies, { connections, amount: bodies.length * 3 });
    const ingest = await load(ingestTarget, bodies, { connections, apiKey: attestKey });
    const afterRun = await countRows(database.url);
    const replay = await load(ingestTarget, bodies, { connections, apiKey: attestKey });
    const afterReplay = await countRows(database.url);

    const created = (warm.statusCodes['201'] ?? 0) + (ingest.statusCodes['201'] ?? 0);
    const ratio = ingest.requestsPerSec / bareResult.requestsPerSec;
    const row = (route: string, result: LoadResult) => ({
      route,
      'req/s': result.requestsPerSec,
      'vs bare': `${((100 * result.requestsPerSec) / bareResult.requestsPerSec).toFixed(1)} %`,
      'p50 ms': result.p50,
      'p99 ms': result.p99,
      statuses: JSON.stringify(result.statusCodes),
      'CPU µs/req server': result.cpu.server,
      postgres: result.cpu.postgres,
      autocannon: result.cpu.loadGenerator,
    });
    process.stdout.write(
      `${connections} connections, ${requests} L2 attestations (${CONTROLS.length} controls each)\n`,
    );
    console.table([row('bare Fastify POST', bareResult), row('L2 ingest', ingest), row('L2 replay', replay)]);
    const checks = [
      [`throughput ≥ 40 % of bare (${(100 * ratio).toFixed(1)} %)`, ratio >= 0.4],
      [`p99 < 50 ms (${ingest.p99} ms)`, ingest.p99 < 50],
      [
        `every request answered 201 (${ingest.statusCodes['201'] ?? 0}/${requests})`,
        ingest.statusCodes['201'] === requests,
      ],
      [
        `rows stored = 201s received (${afterRun.attestations} = ${created})`,
        afterRun.attestations === created,
      ],
      [
        `evidence rows = 201s × controls (${afterRun.evidence})`,
        afterRun.evidence === created * CONTROLS.length,
      ],
      [
        `replay answered only 200 (${JSON.stringify(replay.statusCodes)})`,
        replay.statusCodes['200'] === requests && Object.keys(replay.statusCodes).length === 1,
      ],
      [
        `replay added no rows (${afterReplay.attestations})`,
        afterReplay.attestations === afterRun.attestations && afterReplay.evidence === afterRun.evidence,
      ],
      [
        `no socket errors or timeouts`,
        ingest.errors + ingest.timeouts + replay.errors + replay.timeouts === 0,
      ],
    ] as const;
    for (const [label, passed] of checks) process.stdout.write(`${passed ? 'PASS' : 'FAIL'}  ${label}\n`);
    process.exitCode = checks.every(([, passed]) => passed) ? 0 : 1;
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
  }
}

const role = process.argv[2];
if (role === 'daemon') await runDaemon();
else if (role === 'bare') await runBare();
else await main();
