/**
 * L2 attestation ingest against real PostgreSQL, measured in one run against the least work an ingest
 * needs (the minimal server below, whose statement updates the roll-up rows as the issue's reference
 * does), against the same server appending the roll-up as pieces as the daemon does, and against a bare
 * Fastify POST route. Each server runs in its own process (on databases of their own, migrated alike); autocannon
 * drives them from this one, with every L2 body signed beforehand so that the load generator spends
 * nothing on crypto.
 *
 *   npx tsx bench/attestations.bench.ts [--requests 40000] [--connections 64] [--runs 3]
 *   npm run bench -- attestations --runs 3
 *
 * COMPLY_BENCH_PROFILE_DIR=<dir> writes a CPU profile of each daemon and minimal server process into <dir>.
 *
 * After each measured run it checks that the daemon stored exactly the attestations it acknowledged,
 * with their evidence and its roll-up, then replays every request and checks that the replay yields only 200s and no new rows. With several
 * runs it prints each and the median of each figure; the ratios are taken inside one run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import canonicalize from 'canonicalize';
import Fastify from 'fastify';
import pg from 'pg';
import sodium from 'sodium-native';
import { buildAttestation, signAttestation } from '../src/clients/sidecar/client.js';
import { freePort } from '../test/support/free-port.js';
import { cpuSeconds, ROOT } from './support.js';

const ADMIN_KEY = `bench-admin-${randomBytes(12).toString('hex')}`;
const PG_ADMIN_URL = process.env.COMPLY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ORG = 'bench';
const CONTROLS = ['A.6.2.6', 'A.6.2.8'];

// ---------------------------------------------------------------------------------------------------
// Child roles: the bare route and the minimal server. The daemon is `bin/comply serve` itself: the compiled
// entry, with the Node flags it runs with in production.

async function runBare(): Promise<void> {
  const app = Fastify({ logger: false });
  app.post('/bare', async (_request, reply) => reply.status(201).send({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

/**
 * The least work an L2 ingest needs, as a reference: schema validation (the daemon's body schema), RFC
 * 8785 canonical JSON, SHA-256, Ed25519 (libsodium; the public key read once) and one batched statement
 * that inserts the attestations, their evidence and the roll-up of the evidence counts, on the daemon's
 * tables, committed before the answer. Concurrent requests coalesce as in the daemon (a batch per tick,
 * at most four in flight). No authentication, no replay comparison, no retries: what is left out is
 * what the daemon adds.
 */
async function runMinimal(statement: string): Promise<void> {
  const { AttestationBodySchema } = await import('../src/features/attestations/attestations.schemas.js');
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const keys = new Map<string, Promise<Buffer | null>>();
  const publicKey = (orgId: string, keyId: string) => {
    const cacheKey = `${orgId}\u0000${keyId}`;
    let key = keys.get(cacheKey);
    if (!key) {
      key = pool
        .query<{ public_key: string }>(
          'select public_key from sidecar_keys where org_id = $1 and key_id = $2 and revoked_at is null',
          [orgId, keyId],
        )
        .then(({ rows: [row] }) => (row ? Buffer.from(row.public_key, 'base64') : null));
      keys.set(cacheKey, key);
    }
    return key;
  };

  interface Item {
    orgId: string;
    body: Record<string, unknown> & {
      attestationId: string;
      level: string;
      epochId: string;
      controlIds: string[];
      timestamp: string;
      systemId?: string;
    };
    content: string;
    contentHash: string;
    resolve(created: boolean): void;
    reject(error: unknown): void;
  }
  let queue: Item[] = [];
  let inFlight = 0;
  let scheduled = false;
  const write = async (items: Item[]) => {
    const receivedAt = new Date();
    const column = <T>(pick: (item: Item) => T) => items.map(pick);
    const evidence = items.flatMap((item) =>
      item.body.controlIds.map((controlId) => [item, controlId] as const),
    );
    const { rows } = await pool.query<{ org_id: string; attestation_id: string }>({
      name: 'minimal-ingest',
      text: statement,
      values: [
        column((item) => item.orgId),
        column((item) => item.body.attestationId),
        column((item) => item.body.level),
        column((item) => item.body.epochId),
        column((item) => item.body.systemId ?? null),
        column((item) => item.body.timestamp),
        column((item) => item.content),
        column((item) => item.contentHash),
        column(() => false),
        column((item) => (item.body.signature as { keyId: string }).keyId),
        column((item) => (item.body.signature as { value: string }).value),
        column((item) => `${item.body.level} attestation ${item.body.attestationId}`),
        column(
          (item) =>
            `Epoch ${item.body.epochId}${item.body.systemId ? `, AI system ${item.body.systemId}` : ''}`,
        ),
        receivedAt,
        evidence.map(([item]) => item.orgId),
        evidence.map(([item]) => item.body.attestationId),
        evidence.map(([, controlId]) => controlId),
      ],
    });
    const created = new Set(rows.map((row) => row.attestation_id));
    for (const item of items) item.resolve(created.has(item.body.attestationId));
  };
  const drain = () => {
    while (inFlight < 4 && queue.length > 0) {
      const batch = queue.slice(0, 256);
      queue = queue.slice(batch.length);
      inFlight += 1;
      write(batch)
        .catch((error: unknown) => {
          for (const item of batch) item.reject(error);
        })
        .finally(() => {
          inFlight -= 1;
          drain();
        });
    }
  };

  const app = Fastify({ logger: false });
  app.post<{ Params: { orgId: string }; Body: Item['body'] }>(
    '/api/v1/orgs/:orgId/attestations',
    { schema: { body: AttestationBodySchema } },
    async (request, reply) => {
      const { signature, ...unsigned } = request.body as Item['body'] & {
        signature: { keyId: string; value: string };
      };
      const content = canonicalize(unsigned) as string;
      const contentHash = createHash('sha256').update(content).digest('hex');
      const key = await publicKey(request.params.orgId, signature.keyId);
      const signatureBytes = Buffer.from(signature.value, 'base64');
      if (
        !key ||
        signatureBytes.length !== sodium.crypto_sign_BYTES ||
        !sodium.crypto_sign_verify_detached(signatureBytes, Buffer.from(content), key)
      ) {
        return reply.status(400).send({ error: { code: 'BAD_REQUEST', message: 'invalid signature' } });
      }
      const created = await new Promise<boolean>((resolve, reject) => {
        queue.push({
          orgId: request.params.orgId,
          body: request.body,
          content,
          contentHash,
          resolve,
          reject,
        });
        if (queue.length >= 256) drain();
        else if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            drain();
          });
        }
      });
      return reply.status(created ? 201 : 200).send({
        ...unsigned,
        systemId: unsigned.systemId ?? null,
        signature: { alg: 'Ed25519', ...signature },
        contentHash,
        serverAssignedId: false,
        receivedAt: new Date().toISOString(),
      });
    },
  );
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  process.once('SIGTERM', () => void app.close().then(() => pool.end().then(() => process.exit(0))));
}

/**
 * One statement per batch: the attestations (rows whose id exists are skipped), the evidence of those
 * inserted (one per control), and the roll-up counts of the requirement records they count for, locked
 * in key order so that concurrent batches never deadlock.
 */
const MINIMAL_INGEST_SQL = `
with input as (
  select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[],
    $7::text[], $8::text[], $9::boolean[], $10::text[], $11::text[], $12::text[], $13::text[])
    as t(org_id, attestation_id, level, epoch_id, system_id, attested_at, content, content_hash,
      server_assigned_id, signature_key_id, signature_value, title, description)
), inserted as (
  insert into attestations (org_id, attestation_id, level, epoch_id, system_id, attested_at, content,
    content_hash, server_assigned_id, signature_key_id, signature_value, posted_by, received_at)
  select org_id, attestation_id, level, epoch_id, system_id, attested_at, content, content_hash,
    server_assigned_id, signature_key_id, signature_value, null, $14
  from input order by org_id, attestation_id collate "C"
  on conflict (org_id, attestation_id) do nothing
  returning org_id, attestation_id
), new_evidence as (
  insert into evidence (evidence_id, org_id, framework_id, requirement_id, type, title, description,
    attestation_id, effective_date, created_at)
  select gen_random_uuid()::text, e.org_id, 'iso-42001', e.requirement_id, 'attestation', i.title,
    i.description, e.attestation_id, i.attested_at, $14
  from unnest($15::text[], $16::text[], $17::text[]) as e(org_id, attestation_id, requirement_id)
  join inserted a on a.org_id = e.org_id and a.attestation_id = e.attestation_id collate "C"
  join input i on i.org_id = e.org_id and i.attestation_id = e.attestation_id
  returning org_id, framework_id, requirement_id
), counts as (
  select org_id, framework_id, requirement_id, count(*)::int as n from new_evidence
  group by org_id, framework_id, requirement_id
), locked as materialized (
  select r.org_id, r.framework_id, r.requirement_id, c.n
  from requirement_records r join counts c using (org_id, framework_id, requirement_id)
  order by r.org_id, r.framework_id, r.requirement_id
  for update of r
), rolled_up as (
  update requirement_records r set evidence_count = r.evidence_count + l.n,
    evidence_attestation_count = r.evidence_attestation_count + l.n, evidence_never_expires = true
  from locked l
  where r.org_id = l.org_id and r.framework_id = l.framework_id and r.requirement_id = l.requirement_id
)
select org_id, attestation_id from inserted`;

/**
 * The same statement with the roll-up appended as pieces, as the daemon writes it since its roll-up stopped
 * locking the records (`EVIDENCE_PIECES_CTE`): the least work of the daemon's own design, measured beside
 * the issue's reference so that the ratio against each is on the table.
 */
const MINIMAL_PIECES_SQL = MINIMAL_INGEST_SQL.replace(
  /\), counts as \([\s\S]*\n\)\nselect/,
  `), pieces as (
  insert into requirement_evidence_pieces (org_id, framework_id, requirement_id, attestations)
  select org_id, framework_id, requirement_id, count(*)::int from new_evidence
  group by org_id, framework_id, requirement_id
)
select`,
);
if (MINIMAL_PIECES_SQL === MINIMAL_INGEST_SQL)
  throw new Error('the pieces variant of the minimal statement did not apply');

// ---------------------------------------------------------------------------------------------------

interface Server {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

async function spawnRole(
  role: 'daemon' | 'bare' | 'minimal' | 'minimal-pieces',
  env: Record<string, string>,
  measured = true,
): Promise<Server> {
  // A port the system hands out: a random one may be a client connection's (Linux's ephemeral range).
  const port = await freePort();
  // COMPLY_BENCH_PROFILE_DIR=dir writes a CPU profile of each daemon and minimal server (all of its
  // run) into dir.
  const profile = role !== 'bare' && measured && process.env.COMPLY_BENCH_PROFILE_DIR;
  const flags = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
  const childEnv = { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' };
  // Node refuses --cpu-prof in NODE_OPTIONS: a profiled daemon runs the build bin/comply runs (made up to
  // date by the set-up daemon, which is not measured), with bin/comply's own flags.
  const child: ChildProcess =
    role === 'daemon'
      ? profile
        ? spawn(
            process.execPath,
            [
              ...flags,
              '--expose-gc',
              '--experimental-async-context-frame',
              path.join(ROOT, 'dist/bin/comply.js'),
              'serve',
            ],
            { env: childEnv, stdio: ['ignore', 'ignore', 'inherit'] },
          )
        : spawn(path.join(ROOT, 'bin/comply'), ['serve'], {
            env: childEnv,
            stdio: ['ignore', 'ignore', 'inherit'],
          })
      : spawn(process.execPath, [...flags, '--import', 'tsx', import.meta.filename, role], {
          env: childEnv,
          stdio: ['ignore', 'ignore', 'inherit'],
        });
  const url = `http://127.0.0.1:${port}`;
  const probe = role === 'daemon' ? `${url}/healthz` : role === 'bare' ? `${url}/bare` : url;
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
    // autocannon ends a run only on one of its sampling ticks: at the default 1 s, a 12 s run could be
    // timed up to a second long (8 %), enough to swing the ratios. 50 ms keeps that under 0.5 %.
    sampleInt: 50,
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

/** The org's attestations, their evidence rows, and the roll-up of those rows (record columns and pieces). */
async function countRows(
  databaseUrl: string,
): Promise<{ attestations: number; evidence: number; rolledUp: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const {
    rows: [row],
  } = await client.query<{ attestations: number; evidence: number; rolledUp: number }>(
    `select (select count(*)::int from attestations where org_id = $1) as attestations,
            (select count(*)::int from evidence where org_id = $1 and type = 'attestation') as evidence,
            (select coalesce(sum(evidence_attestation_count), 0)::int from requirement_records where org_id = $1)
              + (select coalesce(sum(attestations), 0)::int from requirement_evidence_pieces where org_id = $1)
              as "rolledUp"`,
    [ORG],
  );
  await client.end();
  return row;
}

interface RunFigures {
  bare: LoadResult;
  minimal: LoadResult;
  minimalPieces: LoadResult;
  daemon: LoadResult;
  replay: LoadResult;
  checks: (readonly [string, boolean])[];
}

/** Registers the bench org, an attest key and the sidecar's public key through a daemon's API. */
async function setUpOrg(daemonUrl: string, publicKeyPem: string): Promise<string> {
  // The daemon's start-up work ends with the search index (fitting the built-in embedder takes a second or
  // two of CPU): a search waits for it, so that the measured run sees the daemon at rest.
  await api(daemonUrl, 'POST', '/cte/embeddings/distance', { query: 'warm-up', limit: 1 });
  await api(daemonUrl, 'POST', '/orgs', { orgId: ORG, name: 'Bench' });
  // The AI system every attestation names (resolved by name on the ingest path, as a sidecar may).
  await api(daemonUrl, 'POST', `/orgs/${ORG}/ai-systems`, {
    name: 'bench-model',
    owner: 'bench',
    purpose: 'benchmark',
    riskLevel: 'limited',
  });
  const { key } = await api(daemonUrl, 'POST', `/orgs/${ORG}/keys`, { scopes: ['attest'] });
  await api(daemonUrl, 'POST', `/orgs/${ORG}/sidecar-keys`, {
    keyId: 'bench-sidecar',
    publicKey: publicKeyPem,
  });
  return key;
}

/** One run: fresh databases and processes, every path warmed, then bare, minimal and daemon measured. */
async function measure(
  bodies: { warmup: string[]; run: string[] },
  publicKeyPem: string,
  connections: number,
): Promise<RunFigures> {
  const daemonDatabase = await createDatabase();
  const minimalDatabase = await createDatabase();
  const piecesDatabase = await createDatabase();
  const servers: Server[] = [];
  const daemonEnv = {
    COMPLY_ADMIN_KEY: ADMIN_KEY,
    LOG_LEVEL: 'warn',
    COMPLY_RATE_LIMIT_MAX: '10000000',
  };
  try {
    // The minimal server's database gets the daemon's schema and the same org and key, from a daemon
    // that stops before anything is measured.
    for (const database of [minimalDatabase, piecesDatabase]) {
      const setUp = await spawnRole('daemon', { ...daemonEnv, DATABASE_URL: database.url }, false);
      await setUpOrg(setUp.url, publicKeyPem).finally(() => setUp.stop());
    }

    const daemon = await spawnRole('daemon', { ...daemonEnv, DATABASE_URL: daemonDatabase.url });
    servers.push(daemon);
    const attestKey = await setUpOrg(daemon.url, publicKeyPem);
    const minimal = await spawnRole('minimal', { DATABASE_URL: minimalDatabase.url });
    servers.push(minimal);
    const minimalPieces = await spawnRole('minimal-pieces', { DATABASE_URL: piecesDatabase.url });
    servers.push(minimalPieces);
    const bare = await spawnRole('bare', {});
    servers.push(bare);

    const ingestPath = `/api/v1/orgs/${ORG}/attestations`;
    const bareTarget = { url: `${bare.url}/bare`, pid: bare.pid };
    const minimalTarget = {
      url: `${minimal.url}${ingestPath}`,
      pid: minimal.pid,
      databaseUrl: minimalDatabase.url,
    };
    const piecesTarget = {
      url: `${minimalPieces.url}${ingestPath}`,
      pid: minimalPieces.pid,
      databaseUrl: piecesDatabase.url,
    };
    const daemonTarget = {
      url: `${daemon.url}${ingestPath}`,
      pid: daemon.pid,
      databaseUrl: daemonDatabase.url,
    };
    await load(bareTarget, bodies.warmup, { connections });
    await load(minimalTarget, bodies.warmup, { connections });
    await load(piecesTarget, bodies.warmup, { connections });
    const warm = await load(daemonTarget, bodies.warmup, { connections, apiKey: attestKey });

    // The bare route is fast: three passes over the bodies give it a run about as long as the ingest's.
    const bareResult = await load(bareTarget, bodies.run, { connections, amount: bodies.run.length * 3 });
    const minimalResult = await load(minimalTarget, bodies.run, { connections });
    const piecesResult = await load(piecesTarget, bodies.run, { connections });
    const daemonResult = await load(daemonTarget, bodies.run, { connections, apiKey: attestKey });
    const afterRun = await countRows(daemonDatabase.url);
    const replay = await load(daemonTarget, bodies.run, { connections, apiKey: attestKey });
    const afterReplay = await countRows(daemonDatabase.url);
    const minimalRows = await countRows(minimalDatabase.url);

    const requests = bodies.run.length;
    const created = (warm.statusCodes['201'] ?? 0) + (daemonResult.statusCodes['201'] ?? 0);
    const checks = [
      [
        `every request answered 201 (${daemonResult.statusCodes['201'] ?? 0}/${requests})`,
        daemonResult.statusCodes['201'] === requests,
      ],
      [
        `rows stored = 201s received (${afterRun.attestations} = ${created})`,
        afterRun.attestations === created,
      ],
      [
        `evidence rows = 201s × controls (${afterRun.evidence})`,
        afterRun.evidence === created * CONTROLS.length,
      ],
      [`roll-up = evidence rows (${afterRun.rolledUp})`, afterRun.rolledUp === afterRun.evidence],
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
        daemonResult.errors + daemonResult.timeouts + replay.errors + replay.timeouts === 0,
      ],
      [
        `minimal server: every request answered 201 and stored (${minimalResult.statusCodes['201'] ?? 0}, ${minimalRows.attestations - bodies.warmup.length} rows)`,
        minimalResult.statusCodes['201'] === requests &&
          minimalRows.attestations === requests + bodies.warmup.length &&
          minimalRows.evidence === minimalRows.attestations * CONTROLS.length &&
          minimalRows.rolledUp === minimalRows.evidence,
      ],
    ] as const;
    return {
      bare: bareResult,
      minimal: minimalResult,
      minimalPieces: piecesResult,
      daemon: daemonResult,
      replay,
      checks: [...checks],
    };
  } finally {
    for (const server of servers) await server.stop();
    await daemonDatabase.drop();
    await minimalDatabase.drop();
    await piecesDatabase.drop();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const percent = (ratio: number) => `${(100 * ratio).toFixed(1)} %`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      requests: { type: 'string', default: '40000' },
      connections: { type: 'string', default: '64' },
      runs: { type: 'string', default: '1' },
    },
  });
  const requests = Number(values.requests);
  const connections = Number(values.connections);
  const runs = Number(values.runs);
  const warmup = Math.min(5000, Math.ceil(requests / 4));

  // One key pair and one set of signed bodies serve every run: each run has fresh databases.
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const signer = { keyId: 'bench-sidecar', privateKey };
  process.stdout.write(`signing ${warmup + requests} L2 attestations…\n`);
  const bodies = {
    warmup: signedBodies(warmup, signer, 'bench-warmup'),
    run: signedBodies(requests, signer, 'bench-run'),
  };
  const publicKeyPem = publicKey.export({ format: 'pem', type: 'spki' }).toString();

  const summary: Record<string, string | number>[] = [];
  const figures: RunFigures[] = [];
  let correct = true;
  for (let run = 1; run <= runs; run += 1) {
    const result = await measure(bodies, publicKeyPem, connections);
    figures.push(result);
    const row = (route: string, load: LoadResult) => ({
      route,
      'req/s': load.requestsPerSec,
      'vs bare': percent(load.requestsPerSec / result.bare.requestsPerSec),
      'vs minimal': percent(load.requestsPerSec / result.minimal.requestsPerSec),
      'p50 ms': load.p50,
      'p99 ms': load.p99,
      statuses: JSON.stringify(load.statusCodes),
      'CPU µs/req server': load.cpu.server,
      postgres: load.cpu.postgres,
      autocannon: load.cpu.loadGenerator,
    });
    process.stdout.write(
      `\nrun ${run}/${runs}: ${connections} connections, ${requests} L2 attestations (${CONTROLS.length} controls each)\n`,
    );
    console.table([
      row('bare Fastify POST', result.bare),
      row('minimal L2 ingest', result.minimal),
      row('minimal, roll-up as pieces', result.minimalPieces),
      row('L2 ingest (daemon)', result.daemon),
      row('L2 replay (daemon)', result.replay),
    ]);
    for (const [label, passed] of result.checks)
      process.stdout.write(`${passed ? 'PASS' : 'FAIL'}  ${label}\n`);
    correct &&= result.checks.every(([, passed]) => passed);
    summary.push({
      run: String(run),
      'daemon req/s': result.daemon.requestsPerSec,
      'daemon p99 ms': result.daemon.p99,
      'minimal req/s': result.minimal.requestsPerSec,
      'minimal p99 ms': result.minimal.p99,
      'bare req/s': result.bare.requestsPerSec,
      'daemon ÷ minimal': percent(result.daemon.requestsPerSec / result.minimal.requestsPerSec),
      'daemon ÷ pieces minimal': percent(result.daemon.requestsPerSec / result.minimalPieces.requestsPerSec),
      'daemon ÷ bare': percent(result.daemon.requestsPerSec / result.bare.requestsPerSec),
      'minimal ÷ bare': percent(result.minimal.requestsPerSec / result.bare.requestsPerSec),
    });
  }
  const of = (pick: (figures: RunFigures) => number) => median(figures.map(pick));
  const daemonShare = of((run) => run.daemon.requestsPerSec / run.minimal.requestsPerSec);
  const p99 = of((run) => run.daemon.p99);
  summary.push({
    run: 'median',
    'daemon req/s': of((run) => run.daemon.requestsPerSec),
    'daemon p99 ms': p99,
    'minimal req/s': of((run) => run.minimal.requestsPerSec),
    'minimal p99 ms': of((run) => run.minimal.p99),
    'bare req/s': of((run) => run.bare.requestsPerSec),
    'daemon ÷ minimal': percent(daemonShare),
    'daemon ÷ pieces minimal': percent(
      of((run) => run.daemon.requestsPerSec / run.minimalPieces.requestsPerSec),
    ),
    'daemon ÷ bare': percent(of((run) => run.daemon.requestsPerSec / run.bare.requestsPerSec)),
    'minimal ÷ bare': percent(of((run) => run.minimal.requestsPerSec / run.bare.requestsPerSec)),
  });
  process.stdout.write(`\n${runs} run(s), ratios taken inside each run; medians per column\n`);
  console.table(summary);
  const targets = [
    [`L2 ingest ≥ 90 % of the minimal server (median ${percent(daemonShare)})`, daemonShare >= 0.9],
    [`p99 < 50 ms (median ${p99} ms)`, p99 < 50],
  ] as const;
  for (const [label, passed] of targets) process.stdout.write(`${passed ? 'PASS' : 'FAIL'}  ${label}\n`);
  process.exitCode = correct && targets.every(([, passed]) => passed) ? 0 : 1;
}

const role = process.argv[2];
if (role === 'bare') await runBare();
else if (role === 'minimal') await runMinimal(MINIMAL_INGEST_SQL);
else if (role === 'minimal-pieces') await runMinimal(MINIMAL_PIECES_SQL);
else await main();
