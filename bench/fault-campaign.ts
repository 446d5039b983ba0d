/**
 * Fault campaign against the real entry: `bin/comply serve` (node on the compiled dist/) as child
 * processes, faults injected from outside, figures counted from what clients receive, what the database
 * holds and what the daemons log.
 *
 *   npx tsx bench/fault-campaign.ts [--outage-ms 20000] [--connections 16] [--lock-rounds 20]
 *     [--snapshot-rounds 10] [--snapshot-requests 8] [--unknown-keys 2000] [--only 6,7] [--json]
 *
 * 1. PostgreSQL unreachable for --outage-ms under attestation load (a TCP proxy in front of PostgreSQL
 *    drops every connection and refuses new ones), then every acknowledged attestation checked in the
 *    database.
 * 2. SIGTERM while a request body is still arriving, on the embedded database.
 * 3. 12 MiB bodies against the 1 MiB limit through Node's fetch.
 * 4. An API key revoked through one daemon, refused by another sharing its PostgreSQL and Redis.
 * 5. Responses the HTTP server writes itself: a 20 KB header, a broken Content-Length.
 * 6. A daemon on the embedded database killed with SIGKILL (its `comply.lock` left stale), then two daemons
 *    started together on the data directory: exactly one opens the database, the other exits with its
 *    one-line message; the one that opened is killed in turn, --lock-rounds times. Every write acknowledged
 *    before a kill is found at the end.
 * 7. --snapshot-requests simultaneous snapshots with one label on PostgreSQL, --snapshot-rounds times: one
 *    201, the rest 409, never 503, no outage logged.
 * 8. --unknown-keys unknown API keys from one address (--connections at a time) against
 *    COMPLY_AUTH_FAILURES_MAX: 429 with Retry-After past it, the key lookups PostgreSQL counts (scans of
 *    api_keys) bounded, a valid key answered throughout.
 * 9. The run's Redis keys: under its prefix, every key that is not a BullMQ queue's expires; the queues are
 *    obliterated and nothing is left.
 *
 * PostgreSQL and Redis are only used, never stopped: each run works in scratch databases and its own
 * Redis prefix (COMPLY_QUEUE_PREFIX), removed at the end. Exit code 1 when any scenario misses its
 * expectation.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildAttestation, signAttestation } from '../src/clients/sidecar/client.js';
import { loadConfig } from '../src/platform/config.js';
import { callApi } from '../test/support/daemon.js';
import { freePort } from '../test/support/free-port.js';
import { keysUnder, queuesAmong, removePrefix } from '../test/support/redis-prefix.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const COMPLY_BIN = path.join(ROOT, 'bin/comply');
const RUN = randomBytes(4).toString('hex');
const ADMIN_KEY = `fc-admin-${randomBytes(16).toString('hex')}`;
const PG_ADMIN_URL = process.env.COMPLY_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.COMPLY_BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const QUEUE_PREFIX = `comply-fc-${RUN}`;
const CONTROLS = ['A.6.2.6', 'A.6.2.8'];
const MiB = 1024 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The daemons that use the run's Redis prefix: stopped before its keys are counted (scenario 9). */
const prefixDaemons: Daemon[] = [];

// ---------------------------------------------------------------------------------------------------
// Cleanup: every child, temp dir and scratch database registers its own undo step, run in reverse.

const cleanups: (() => Promise<void> | void)[] = [];
let cleanedUp = false;

async function cleanupAll(): Promise<void> {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const step of cleanups.reverse()) {
    try {
      await step();
    } catch (error) {
      process.stderr.write(`cleanup: ${(error as Error).message}\n`);
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`${signal}: cleaning up\n`);
    void cleanupAll().then(() => process.exit(130));
  });
}

function tempDir(label: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `comply-fc-${label}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function scratchDatabase(label: string): Promise<string> {
  const name = `comply_fc_${RUN}_${label}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  cleanups.push(async () => {
    const client = new pg.Client({ connectionString: PG_ADMIN_URL });
    await client.connect();
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  });
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------------
// The daemon: bin/comply serve, its output kept line by line with the time each line arrived.

interface LogLine {
  at: number;
  text: string;
}

interface Daemon {
  url: string;
  port: number;
  child: ChildProcess;
  lines: LogLine[];
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Ready (`GET /readyz` 200), or null when the process exited first; throws after `timeoutMs`. */
  ready(timeoutMs?: number): Promise<Daemon | null>;
  /** SIGTERM, then SIGKILL after 15 s; resolves with the exit. */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `bin/comply worker` beside a daemon on BullMQ: the daemon is ready only once a worker serves its queues.
 * Returns how to stop it (the daemon's stop does, and the cleanup in any case).
 */
function spawnWorker(env: Record<string, string>): () => Promise<void> {
  const worker = spawn(COMPLY_BIN, ['worker'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exit = new Promise<void>((resolve) => worker.once('close', () => resolve()));
  const stop = async () => {
    if (worker.exitCode === null && worker.signalCode === null) worker.kill('SIGTERM');
    await Promise.race([exit, sleep(15_000).then(() => worker.kill('SIGKILL'))]);
  };
  cleanups.push(stop);
  return stop;
}

/** `bin/comply serve` started, not yet waited for (with a worker of its own when it runs jobs on BullMQ). */
async function spawnServe(env: Record<string, string>): Promise<Daemon> {
  const stopWorker = env.REDIS_URL ? spawnWorker(env) : async () => {};
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const child = spawn(COMPLY_BIN, ['serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      COMPLY_ADMIN_KEY: ADMIN_KEY,
      COMPLY_RATE_LIMIT_MAX: '10000000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters = new Set<() => void>();
  const collect = (stream: NodeJS.ReadableStream | null) => {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      const at = performance.now();
      for (const text of parts) if (text) lines.push({ at, text });
      for (const wake of waiters) wake();
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  // 'close', not 'exit': the output has been read to its end by then.
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once('close', (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal, at: performance.now() });
    }),
  );
  const stop = async () => {
    if (!exited()) {
      child.kill('SIGTERM');
      const stopped = await Promise.race([exit.then(() => true), sleep(15_000).then(() => false)]);
      if (!stopped) child.kill('SIGKILL');
    }
    const { code, signal } = await exit;
    await stopWorker();
    return { code, signal };
  };
  cleanups.push(async () => {
    await stop();
  });
  const waitFor = (pattern: RegExp, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no log line matching ${pattern} within ${timeoutMs} ms`));
      }, timeoutMs);
      const check = () => {
        if (lines.some((line) => pattern.test(line.text))) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        } else if (exited()) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`daemon exited before ${pattern}:\n${tail(lines)}`));
        }
      };
      waiters.add(check);
      check();
    });
  const url = `http://127.0.0.1:${port}`;
  const daemon: Daemon = {
    url,
    port,
    child,
    lines,
    exit,
    waitFor,
    stop,
    ready: async (timeoutMs = 120_000) => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        if (exited()) return null;
        const ready = await fetch(`${url}/readyz`)
          .then((res) => res.ok)
          .catch(() => false);
        if (ready) return daemon;
        if (Date.now() > deadline) throw new Error(`daemon not ready after ${timeoutMs} ms:\n${tail(lines)}`);
        await sleep(100);
      }
    },
  };
  return daemon;
}

async function startDaemon(env: Record<string, string>): Promise<Daemon> {
  const daemon = await spawnServe(env);
  if (!(await daemon.ready())) throw new Error(`daemon exited during start:\n${tail(daemon.lines)}`);
  return daemon;
}

const tail = (lines: LogLine[]) =>
  lines
    .slice(-20)
    .map((line) => line.text)
    .join('\n');

interface ErrorEnvelope {
  error?: { code?: string; message?: string; details?: Record<string, unknown> };
}

const isEnvelope = (body: unknown): body is Required<ErrorEnvelope> =>
  typeof body === 'object' &&
  body !== null &&
  typeof (body as ErrorEnvelope).error?.code === 'string' &&
  typeof (body as ErrorEnvelope).error?.message === 'string';

// ---------------------------------------------------------------------------------------------------
// A TCP proxy in front of PostgreSQL: an outage drops every proxied connection and refuses new ones.

interface Proxy {
  port: number;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

async function startProxy(target: { host: string; port: number }): Promise<Proxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  const proxy: Proxy = {
    port,
    // Closing the listener refuses new connections (ECONNREFUSED); destroying the sockets is the
    // network going away under every pooled connection.
    down: stop,
    up: async () => {
      await listen(port);
    },
    close: stop,
  };
  cleanups.push(() => proxy.close());
  return proxy;
}

// ---------------------------------------------------------------------------------------------------
// Raw HTTP over a socket, for what fetch would not send.

function exchange(port: number, chunks: string[], timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(received);
    }, timeoutMs);
    socket.on('data', (data) => {
      received += data;
    });
    socket.on('end', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      if (received) resolve(received);
      else reject(error);
    });
    socket.on('connect', () => {
      for (const chunk of chunks) socket.write(chunk);
    });
  });
}

function parseResponse(raw: string): {
  status: number;
  headers: Record<string, string>;
  body: unknown;
} {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const rest = split === -1 ? '' : raw.slice(split + 4);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [
      line.slice(0, line.indexOf(':')).toLowerCase(),
      line.slice(line.indexOf(':') + 1).trim(),
    ]),
  );
  let body: unknown = rest;
  try {
    body = JSON.parse(rest);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: Number(statusLine.split(' ')[1]) || 0, headers, body };
}

// ---------------------------------------------------------------------------------------------------
// Results

type Figures = [label: string, value: string | number | boolean | null][];

interface Result {
  scenario: string;
  figures: Figures;
  expectation: string;
  pass: boolean;
  raw: Record<string, unknown>;
}

type Outcome = Omit<Result, 'scenario' | 'expectation'>;

const results: Result[] = [];

function record(result: Result): void {
  results.push(result);
  process.stdout.write(
    `${result.pass ? 'PASS' : 'FAIL'}  ${result.scenario}: ${result.figures
      .map(([label, value]) => `${label} ${value ?? '—'}`)
      .join('; ')} (expect ${result.expectation})\n`,
  );
}

/** The scenarios to run (--only 6,8): every one unless narrowed. */
let only: Set<string> | null = null;

async function scenario(
  name: string,
  expectation: string,
  run: () => Promise<Omit<Result, 'scenario' | 'expectation'>>,
) {
  if (only && !only.has(name.split(' ')[0])) return;
  process.stderr.write(`… ${name}\n`);
  try {
    record({ scenario: name, expectation, ...(await run()) });
  } catch (error) {
    record({
      scenario: name,
      expectation,
      figures: [['did not complete:', (error as Error).message.split('\n')[0]]],
      pass: false,
      raw: { error: (error as Error).stack },
    });
  }
}

// ---------------------------------------------------------------------------------------------------
// 1. PostgreSQL down under attestation load

interface Sent {
  phase: 'before' | 'outage' | 'after';
  status: number | 'network';
  attestationId: string;
  at: number;
  ms: number;
  envelope503?: boolean;
  errorCode?: string;
}

async function postgresOutage(options: { outageMs: number; connections: number }): Promise<Outcome> {
  const databaseUrl = await scratchDatabase('outage');
  const direct = new URL(databaseUrl);
  const proxy = await startProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
  const proxied = new URL(databaseUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const daemon = await startDaemon({
    COMPLY_DATA_DIR: tempDir('outage'),
    DATABASE_URL: proxied.toString(),
    REDIS_URL,
    COMPLY_QUEUE_PREFIX: QUEUE_PREFIX,
  });
  prefixDaemons.push(daemon);
  const org = 'fc-outage';
  await callApi(daemon.url, ADMIN_KEY, 'POST', '/orgs', { orgId: org, name: 'Fault campaign' });
  const { key } = await callApi<{ key: string }>(daemon.url, ADMIN_KEY, 'POST', `/orgs/${org}/keys`, {
    scopes: ['attest'],
  });
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  await callApi(daemon.url, ADMIN_KEY, 'POST', `/orgs/${org}/sidecar-keys`, {
    keyId: 'fc-sidecar',
    publicKey: publicKey.export({ format: 'pem', type: 'spki' }),
  });
  const signer: { keyId: string; privateKey: KeyObject } = { keyId: 'fc-sidecar', privateKey };

  const leadMs = 5_000;
  const trailMs = 5_000;
  const sent: Sent[] = [];
  let phase: Sent['phase'] = 'before';
  let stopping = false;
  let sequence = 0;
  const logStart = daemon.lines.length;
  const started = performance.now();

  // Each client posts continuously; after a failure (5xx or network error) it retries the same
  // attestation, as a sidecar does, after a 100 ms pause.
  const client = async (index: number) => {
    let body: string | null = null;
    let attestationId = '';
    while (!stopping) {
      if (body === null) {
        const attestation = signAttestation(
          buildAttestation({
            level: 'L2',
            epochId: `fc-${RUN}`,
            controlIds: CONTROLS,
            claims: { sequence: sequence++, client: index },
          }),
          signer,
        );
        attestationId = attestation.attestationId;
        body = JSON.stringify(attestation);
      }
      const entry: Sent = { phase, status: 'network', attestationId, at: performance.now(), ms: 0 };
      try {
        const res = await fetch(`${daemon.url}/api/v1/orgs/${org}/attestations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        entry.status = res.status;
        const text = await res.text();
        let parsed: unknown = null;
        try {
          parsed = JSON.parse(text);
        } catch {
          // Counted below as a body outside the envelope.
        }
        if (isEnvelope(parsed)) entry.errorCode = parsed.error.code;
        if (res.status === 503) {
          const retryAfter = Number(res.headers.get('retry-after'));
          entry.envelope503 =
            retryAfter > 0 &&
            isEnvelope(parsed) &&
            parsed.error.code === 'SERVICE_UNAVAILABLE' &&
            parsed.error.details?.retryAfterSeconds === retryAfter &&
            typeof parsed.error.details?.requestId === 'string';
        }
      } catch {
        entry.status = 'network';
      }
      entry.ms = Math.round(performance.now() - entry.at);
      sent.push(entry);
      if (
        entry.status === 200 ||
        entry.status === 201 ||
        (typeof entry.status === 'number' && entry.status < 500)
      ) {
        body = null;
      } else {
        await sleep(100);
      }
    }
  };
  const clients = Array.from({ length: options.connections }, (_, index) => client(index));

  await sleep(leadMs);
  const outageStart = performance.now();
  phase = 'outage';
  await proxy.down();
  let readyDuringOutage: number | 'network' = 'network';
  await sleep(Math.min(2_000, options.outageMs / 2));
  readyDuringOutage = await fetch(`${daemon.url}/readyz`)
    .then((res) => res.status)
    .catch(() => 'network' as const);
  await sleep(Math.max(0, options.outageMs - (performance.now() - outageStart)));
  await proxy.up();
  const restored = performance.now();
  phase = 'after';
  await sleep(trailMs);
  stopping = true;
  await Promise.all(clients);
  const finished = performance.now();
  // Lines arriving shortly after the last request still belong to it.
  await sleep(500);
  const logLines = daemon.lines.slice(logStart);

  // Every acknowledged attestation, looked up directly (not through the proxy).
  const acked = new Set(sent.filter((s) => s.status === 201 || s.status === 200).map((s) => s.attestationId));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const stored = new Map<string, number>();
  const evidence = new Map<string, number>();
  try {
    const { rows } = await db.query<{ attestation_id: string; n: number }>(
      'select attestation_id, count(*)::int as n from attestations where org_id = $1 group by attestation_id',
      [org],
    );
    for (const row of rows) stored.set(row.attestation_id, row.n);
    const { rows: evidenceRows } = await db.query<{ attestation_id: string; n: number }>(
      `select attestation_id, count(*)::int as n from evidence
       where org_id = $1 and attestation_id is not null group by attestation_id`,
      [org],
    );
    for (const row of evidenceRows) evidence.set(row.attestation_id, row.n);
  } finally {
    await db.end();
  }
  let lost = 0;
  let duplicates = 0;
  let evidenceMismatch = 0;
  for (const id of acked) {
    const count = stored.get(id) ?? 0;
    if (count === 0) lost += 1;
    if (count > 1) duplicates += 1;
    if ((evidence.get(id) ?? 0) !== CONTROLS.length) evidenceMismatch += 1;
  }
  const storedNotAcked = [...stored.keys()].filter((id) => !acked.has(id)).length;

  const byPhase: Record<string, Record<string, number>> = {};
  const statuses: Record<string, number> = {};
  for (const entry of sent) {
    const status = String(entry.status);
    statuses[status] = (statuses[status] ?? 0) + 1;
    byPhase[entry.phase] ??= {};
    byPhase[entry.phase][status] = (byPhase[entry.phase][status] ?? 0) + 1;
  }
  const count503 = sent.filter((s) => s.status === 503).length;
  const envelope503 = sent.filter((s) => s.status === 503 && s.envelope503).length;
  const count500 = sent.filter((s) => s.status === 500).length;
  const other5xx = sent.filter((s) => typeof s.status === 'number' && s.status > 500 && s.status !== 503);
  const networkErrors = sent.filter((s) => s.status === 'network').length;
  const firstOk = sent.find((s) => s.at >= restored && (s.status === 201 || s.status === 200));
  const recoveryMs = firstOk ? Math.round(firstOk.at - restored) : null;
  const lastOkBeforeRestore = sent.filter((s) => s.at < restored && (s.status === 201 || s.status === 200));
  const okAfter = sent.filter((s) => s.phase === 'after' && (s.status === 201 || s.status === 200)).length;

  const parsedLines = logLines.map((line) => {
    try {
      return { line, json: JSON.parse(line.text) as Record<string, unknown> };
    } catch {
      return { line, json: null };
    }
  });
  const withStack = (text: string) => /"stack"|\\n\s+at |^\s+at /.test(text);
  const warnLines = parsedLines.filter((p) => p.json?.level === 40).length;
  const errorLines = parsedLines.filter(
    (p) => typeof p.json?.level === 'number' && (p.json.level as number) >= 50,
  );
  const stackLines = parsedLines.filter((p) => withStack(p.line.text));
  const requestStackLines = stackLines.filter((p) => p.json && 'reqId' in p.json).length;
  const plainLines = parsedLines.filter((p) => p.json === null).length;
  const outageLines = parsedLines.filter((p) => p.line.at >= outageStart && p.line.at <= restored + 2_000);

  const latency: Record<string, { p50: number; p99: number; max: number }> = {};
  for (const name of ['before', 'outage', 'after'] as const) {
    const times = sent
      .filter((entry) => entry.phase === name)
      .map((entry) => entry.ms)
      .sort((x, y) => x - y);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
    latency[name] = { p50: at(0.5), p99: at(0.99), max: times[times.length - 1] ?? 0 };
  }
  const phaseFigure = (name: string) =>
    `${JSON.stringify(byPhase[name] ?? {})} p50 ${latency[name].p50} ms, max ${latency[name].max} ms`;
  const heldLong = sent.filter((entry) => entry.ms > 16_000).length;
  const storedAcked = [...stored.keys()].filter((id) => acked.has(id)).length;
  const figures: Figures = [
    ['requests', sent.length],
    ['seconds', Math.round((finished - started) / 1000)],
    ['statuses', JSON.stringify(statuses)],
    ['sent before the outage', phaseFigure('before')],
    ['sent during the outage', phaseFigure('outage')],
    ['sent after the outage', phaseFigure('after')],
    ['longest request, ms', Math.max(0, ...sent.map((entry) => entry.ms))],
    ['requests held > 16 s (retry window 15 s)', heldLong],
    ['503', count503],
    ['503 with Retry-After + envelope', envelope503],
    ['500', count500],
    ['other 5xx', other5xx.length],
    ['network errors', networkErrors],
    ['acked', acked.size],
    ['acked and stored', storedAcked],
    ['lost', lost],
    ['duplicates', duplicates],
    [`evidence rows ≠ ${CONTROLS.length}`, evidenceMismatch],
    ['stored, never acked', storedNotAcked],
    ['readyz during outage', readyDuringOutage],
    ['ms from restore to first 2xx', recoveryMs],
    ['daemon warn lines', warnLines],
    ['daemon error+ lines', errorLines.length],
    ['lines with a stack', stackLines.length],
    ['request lines with a stack', requestStackLines],
  ];
  const pass =
    count500 === 0 &&
    other5xx.length === 0 &&
    envelope503 === count503 &&
    lost === 0 &&
    duplicates === 0 &&
    evidenceMismatch === 0 &&
    requestStackLines === 0 &&
    okAfter > 0 &&
    (byPhase.before?.['201'] ?? 0) > 0;
  return {
    figures,
    pass,
    raw: {
      outageMs: options.outageMs,
      connections: options.connections,
      requests: sent.length,
      statuses,
      byPhase,
      latency,
      heldLong,
      heldLongStatuses: sent
        .filter((entry) => entry.ms > 16_000)
        .reduce<Record<string, number>>((counts, entry) => {
          counts[String(entry.status)] = (counts[String(entry.status)] ?? 0) + 1;
          return counts;
        }, {}),
      count503,
      envelope503,
      count500,
      other5xx: other5xx.length,
      networkErrors,
      acked: acked.size,
      storedRows: stored.size,
      lost,
      duplicates,
      evidenceMismatch,
      storedNotAcked,
      readyDuringOutage,
      recoveryMs,
      lastOkBeforeRestoreMs: lastOkBeforeRestore.length
        ? Math.round(lastOkBeforeRestore[lastOkBeforeRestore.length - 1].at - outageStart)
        : null,
      logLines: logLines.length,
      outageLogLines: outageLines.length,
      warnLines,
      errorLines: errorLines.length,
      stackLines: stackLines.length,
      requestStackLines,
      nonJsonLines: plainLines,
      sampleErrorLines: errorLines.slice(0, 3).map((p) => p.line.text.slice(0, 600)),
      sampleStackLines: stackLines.slice(0, 3).map((p) => p.line.text.slice(0, 600)),
      sampleWarnLines: parsedLines
        .filter((p) => p.json?.level === 40)
        .slice(0, 2)
        .map((p) => p.line.text.slice(0, 600)),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// 2. SIGTERM while a request body is still arriving

async function sigtermMidUpload(): Promise<Outcome> {
  const dataDir = tempDir('sigterm');
  const daemon = await startDaemon({ COMPLY_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  const lockBefore = existsSync(path.join(dataDir, 'comply.lock'));
  const body = JSON.stringify({ orgId: 'fc-signal', name: 'Signal' });
  const socket = net.connect(daemon.port, '127.0.0.1');
  cleanups.push(() => {
    socket.destroy();
  });
  let response = '';
  socket.on('data', (chunk) => {
    response += chunk;
  });
  socket.on('error', () => {});
  const answered = new Promise<void>((resolve) => {
    socket.once('end', resolve);
    socket.once('close', resolve);
  });
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  socket.write(
    `POST /api/v1/orgs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
  );
  let headLogged = true;
  await daemon
    .waitFor(/incoming request.*"url":"\/api\/v1\/orgs"|"url":"\/api\/v1\/orgs".*incoming request/, 10_000)
    .catch(() => {
      headLogged = false;
    });
  if (!headLogged) await sleep(300);
  const signalled = performance.now();
  daemon.child.kill('SIGTERM');
  let shutdownLogged = true;
  await daemon.waitFor(/shutting down/, 10_000).catch(() => {
    shutdownLogged = false;
  });
  socket.write(body);
  const timedOut = await Promise.race([answered.then(() => false), sleep(30_000).then(() => true)]);
  const exit = await Promise.race([daemon.exit, sleep(30_000).then(() => null)]);
  const status = parseResponse(response).status;
  const exitMs = exit ? Math.round(exit.at - signalled) : null;
  const lockAfter = existsSync(path.join(dataDir, 'comply.lock'));
  return {
    figures: [
      ['status', status || (timedOut ? 'none (timeout)' : 'none')],
      ['exit code', exit ? (exit.code ?? exit.signal) : 'running after 30 s'],
      ['ms SIGTERM → exit', exitMs],
      ['comply.lock left', lockAfter ? 'yes' : 'no'],
    ],
    pass: status === 201 && exit?.code === 0 && !lockAfter,
    raw: {
      status,
      exitCode: exit?.code ?? null,
      exitSignal: exit?.signal ?? null,
      signalToExitMs: exitMs,
      lockBefore,
      lockAfter,
      headLogged,
      shutdownLogged,
      response: response.slice(0, 400),
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// 3. Oversized bodies through Node's fetch

async function oversizedBodies(daemon: Daemon): Promise<Outcome> {
  const outcomes: Record<string, number> = {};
  const body = Buffer.alloc(12 * MiB, 0x20);
  let envelope400 = 0;
  for (let round = 0; round < 30; round += 1) {
    let outcome: string;
    try {
      const res = await fetch(`${daemon.url}/api/v1/orgs/fc-acme/attestations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(30_000),
      });
      const parsed: unknown = await res.json().catch(() => null);
      outcome = String(res.status);
      if (res.status === 400 && isEnvelope(parsed)) envelope400 += 1;
    } catch (error) {
      const cause = (error as Error).cause as (Error & { code?: string }) | undefined;
      outcome = cause?.code ?? cause?.message ?? (error as Error).name;
    }
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
  const healthy = await fetch(`${daemon.url}/healthz`)
    .then((res) => res.status)
    .catch(() => 0);
  const errors = Object.entries(outcomes)
    .filter(([outcome]) => !/^\d+$/.test(outcome))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    figures: [
      ['400 in envelope', envelope400],
      ['outcomes', JSON.stringify(outcomes)],
      ['errors', errors],
      ['healthz after', healthy],
    ],
    pass: envelope400 === 30 && errors === 0 && healthy === 200,
    raw: { envelope400, outcomes, errors, healthzAfter: healthy },
  };
}

// ---------------------------------------------------------------------------------------------------
// 4. Revocation across daemons

async function revocationAcrossDaemons(): Promise<Outcome> {
  const databaseUrl = await scratchDatabase('revoke');
  const env = { DATABASE_URL: databaseUrl, REDIS_URL, COMPLY_QUEUE_PREFIX: QUEUE_PREFIX };
  // One after the other: the first applies the migrations.
  const a = await startDaemon({ ...env, COMPLY_DATA_DIR: tempDir('revoke-a') });
  const b = await startDaemon({ ...env, COMPLY_DATA_DIR: tempDir('revoke-b') });
  prefixDaemons.push(a, b);
  const org = 'fc-revoke';
  await callApi(a.url, ADMIN_KEY, 'POST', '/orgs', { orgId: org, name: 'Revoke' });
  const created = await callApi<{ key: string; keyId: string }>(
    a.url,
    ADMIN_KEY,
    'POST',
    `/orgs/${org}/keys`,
    { scopes: ['read'] },
  );
  const read = () =>
    fetch(`${b.url}/api/v1/orgs/${org}/ai-systems`, {
      headers: { authorization: `Bearer ${created.key}` },
    }).then(async (res) => {
      await res.arrayBuffer();
      return res.status;
    });
  const warm = [await read(), await read()];
  const revokeSent = performance.now();
  const revoke = await fetch(`${a.url}/api/v1/orgs/${org}/keys/${created.keyId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  const revoked = performance.now();
  let refusedAt: number | null = null;
  let polls = 0;
  let lastStatus = 0;
  while (performance.now() - revoked < 15_000) {
    polls += 1;
    lastStatus = await read();
    if (lastStatus === 401) {
      refusedAt = performance.now();
      break;
    }
    await sleep(5);
  }
  const ms = refusedAt === null ? null : Math.round(refusedAt - revoked);
  return {
    figures: [
      ['B before revoke', warm.join(',')],
      ['revoke on A', revoke.status],
      ['revoke ms', Math.round(revoked - revokeSent)],
      ['ms revoke → 401 on B', ms ?? `none in 15 s (last ${lastStatus})`],
      ['polls', polls],
    ],
    pass: warm.every((status) => status === 200) && revoke.status === 204 && ms !== null && ms < 1_000,
    raw: { warm, revokeStatus: revoke.status, refusedAfterMs: ms, polls, lastStatus },
  };
}

// ---------------------------------------------------------------------------------------------------
// 5. Responses the HTTP server writes itself

async function serverResponses(daemon: Daemon): Promise<Outcome> {
  const big = parseResponse(
    await exchange(daemon.port, [`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`]),
  );
  const broken = parseResponse(
    await exchange(daemon.port, ['POST /api/v1/orgs HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n']),
  );
  const bigEnvelope = isEnvelope(big.body);
  const brokenCode = isEnvelope(broken.body) ? broken.body.error.code : null;
  const brokenReason = isEnvelope(broken.body) ? broken.body.error.details?.reason : null;
  const bigCode = isEnvelope(big.body) ? big.body.error.code : null;
  return {
    figures: [
      ['20 KB header', big.status || 'no response'],
      ['its envelope', bigEnvelope ? String(bigCode) : 'none'],
      ['Content-Length: abc', broken.status || 'no response'],
      ['its envelope', brokenCode ? `${brokenCode}/${String(brokenReason)}` : 'none'],
    ],
    pass: big.status === 431 && bigEnvelope && broken.status === 400 && brokenCode === 'BAD_REQUEST',
    raw: {
      headerTooLarge: { status: big.status, envelope: bigEnvelope, code: bigCode, body: big.body },
      badContentLength: { status: broken.status, code: brokenCode, reason: brokenReason, body: broken.body },
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// 6. Two daemons starting together on one data directory after a crash

const LOCK_REFUSAL = /^error: the embedded database in .* is in use by process (\d+)\. /i;

async function lockRace(rounds: number): Promise<Outcome> {
  const dataDir = tempDir('lock');
  const lockPath = path.join(dataDir, 'comply.lock');
  // A crash: the daemon killed with SIGKILL leaves its lock behind, naming a process that is gone.
  const crash = async (daemon: Daemon) => {
    daemon.child.kill('SIGKILL');
    await daemon.exit;
    const left = existsSync(lockPath)
      ? (JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number })
      : null;
    return left?.pid === daemon.child.pid;
  };
  // The database is created once, so that each round starts two daemons on an existing one.
  let staleLocks = (await crash(await startDaemon({ COMPLY_DATA_DIR: dataDir }))) ? 1 : 0;
  let doubleOpens = 0;
  let noneOpened = 0;
  let clearRefusals = 0;
  let lockNamesWinner = 0;
  let written = 0;
  const otherRefusals: string[] = [];
  const refusalMs: number[] = [];
  const started = performance.now();
  for (let round = 0; round < rounds; round += 1) {
    const ports = [await freePort(), await freePort()];
    if (ports[0] === ports[1]) ports[1] = await freePort();
    // Both spawned in the same tick.
    const spawned = performance.now();
    const pair = await Promise.all(
      ports.map((port) => spawnServe({ COMPLY_DATA_DIR: dataDir, PORT: String(port) })),
    );
    const opened = (await Promise.all(pair.map((daemon) => daemon.ready()))).filter(
      (daemon): daemon is Daemon => daemon !== null,
    );
    if (opened.length > 1) doubleOpens += 1;
    if (opened.length === 0) noneOpened += 1;
    for (const daemon of pair.filter((candidate) => !opened.includes(candidate))) {
      const exit = await daemon.exit;
      refusalMs.push(Math.round(exit.at - spawned));
      const text = daemon.lines.map((line) => line.text);
      const holder = LOCK_REFUSAL.exec(text[0] ?? '')?.[1];
      if (
        exit.code === 1 &&
        text.length === 1 &&
        opened.length === 1 &&
        Number(holder) === opened[0].child.pid
      ) {
        clearRefusals += 1;
      } else {
        otherRefusals.push(`round ${round}: exit ${exit.code}: ${text.join(' | ').slice(0, 300)}`);
      }
    }
    for (const [index, daemon] of opened.entries()) {
      const holder = JSON.parse(readFileSync(lockPath, 'utf8')) as { pid: number };
      if (index === 0 && holder.pid === daemon.child.pid) lockNamesWinner += 1;
      const res = await fetch(`${daemon.url}/api/v1/orgs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ orgId: `fc-lock-${round}-${index}`, name: `Lock round ${round}` }),
      });
      await res.arrayBuffer();
      if (res.status === 201) written += 1;
    }
    // The winner crashes in turn: the next round starts on the lock it left.
    for (const daemon of opened) if ((await crash(daemon)) && round < rounds - 1) staleLocks += 1;
  }
  // Every write a winner acknowledged before it was killed is in the database the next daemon opens.
  const last = await startDaemon({ COMPLY_DATA_DIR: dataDir });
  const { orgs } = await callApi<{ orgs: { orgId: string }[] }>(last.url, ADMIN_KEY, 'GET', '/orgs');
  await last.stop();
  const found = orgs.filter((org) => org.orgId.startsWith('fc-lock-')).length;
  refusalMs.sort((x, y) => x - y);
  return {
    figures: [
      ['rounds', `${rounds} (${Math.round((performance.now() - started) / 1000)} s)`],
      ['double opens', doubleOpens],
      ['rounds none opened', noneOpened],
      ['refused with the one-line message naming the winner', clearRefusals],
      ['other refusals', otherRefusals.length],
      ['lock names the winner', lockNamesWinner],
      ["rounds started on a killed daemon's lock", staleLocks],
      ['orgs written / found after', `${written} / ${found}`],
      ['ms spawn → refusal p50', refusalMs[Math.floor(refusalMs.length / 2)] ?? null],
    ],
    pass:
      doubleOpens === 0 &&
      noneOpened === 0 &&
      clearRefusals === rounds &&
      lockNamesWinner === rounds &&
      staleLocks === rounds &&
      written === rounds &&
      found === rounds,
    raw: {
      rounds,
      doubleOpens,
      noneOpened,
      clearRefusals,
      otherRefusals,
      lockNamesWinner,
      staleLocks,
      written,
      found,
      refusalMs,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// 7. Simultaneous snapshots with one label on PostgreSQL

async function snapshotRace(rounds: number, requests: number): Promise<Outcome> {
  const databaseUrl = await scratchDatabase('snapshot');
  const daemon = await startDaemon({ COMPLY_DATA_DIR: tempDir('snapshot'), DATABASE_URL: databaseUrl });
  const org = 'fc-snapshot';
  await callApi(daemon.url, ADMIN_KEY, 'POST', '/orgs', { orgId: org, name: 'Snapshots' });
  const logStart = daemon.lines.length;
  const statuses: Record<string, number> = {};
  let roundsOne201 = 0;
  let conflictEnvelopes = 0;
  for (let round = 0; round < rounds; round += 1) {
    const label = `year end ${round}`;
    const answers = await Promise.all(
      Array.from({ length: requests }, async () => {
        const res = await fetch(`${daemon.url}/api/v1/orgs/${org}/compliance/snapshot`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify({ label }),
        });
        const body: unknown = await res.json().catch(() => null);
        return { status: res.status, body };
      }),
    );
    for (const { status, body } of answers) {
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (
        status === 409 &&
        isEnvelope(body) &&
        body.error.code === 'CONFLICT' &&
        body.error.details?.label === label
      ) {
        conflictEnvelopes += 1;
      }
    }
    if (answers.filter((answer) => answer.status === 201).length === 1) roundsOne201 += 1;
  }
  // Lines of the last requests may still be on their way.
  await sleep(500);
  const warnings = daemon.lines
    .slice(logStart)
    .map((line) => {
      try {
        return JSON.parse(line.text) as { level?: number; msg?: string };
      } catch {
        return { level: 60, msg: line.text };
      }
    })
    .filter((line) => (line.level ?? 0) >= 40);
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const { rows } = await db
    .query<{ n: number }>(
      'select count(*)::int as n from compliance_snapshots where org_id = $1 group by label',
      [org],
    )
    .finally(() => db.end());
  const stored = rows.length;
  const storedTwice = rows.filter((row) => row.n > 1).length;
  const total = rounds * requests;
  return {
    figures: [
      ['requests', `${rounds} rounds × ${requests}`],
      ['statuses', JSON.stringify(statuses)],
      ['rounds with exactly one 201', roundsOne201],
      ['409 CONFLICT naming the label', conflictEnvelopes],
      ['503', statuses['503'] ?? 0],
      ['daemon warn+ lines', warnings.length],
      ['labels stored / stored twice', `${stored} / ${storedTwice}`],
    ],
    pass:
      roundsOne201 === rounds &&
      conflictEnvelopes === total - rounds &&
      (statuses['503'] ?? 0) === 0 &&
      warnings.length === 0 &&
      stored === rounds &&
      storedTwice === 0,
    raw: {
      rounds,
      requests,
      statuses,
      roundsOne201,
      conflictEnvelopes,
      warnLines: warnings.length,
      sampleWarnings: warnings.slice(0, 3).map((line) => String(line.msg).slice(0, 300)),
      stored,
      storedTwice,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// 8. A flood of unknown API keys from one address

/** Scans of `api_keys` PostgreSQL has counted in a database: every key lookup is one. */
async function apiKeyScans(databaseUrl: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // A backend reports its counts when it ends: wait until the daemon's have.
    for (let waited = 0; ; waited += 100) {
      const { rows } = await db.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      if (rows[0].n === 0) break;
      if (waited > 15_000) throw new Error(`${rows[0].n} connections still open to the flood's database`);
      await sleep(100);
    }
    const { rows } = await db.query<{ n: number }>(
      `select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::int as n
       from pg_stat_user_tables where relname = 'api_keys'`,
    );
    return rows[0]?.n ?? 0;
  } finally {
    await db.end();
  }
}

async function badKeyFlood(total: number, concurrency: number): Promise<Outcome> {
  const { max: limit, windowMs } = loadConfig({}).authFailures;
  const databaseUrl = await scratchDatabase('flood');
  const env = {
    COMPLY_DATA_DIR: tempDir('flood'),
    DATABASE_URL: databaseUrl,
    REDIS_URL,
    COMPLY_QUEUE_PREFIX: QUEUE_PREFIX,
  };
  const setup = await startDaemon(env);
  const org = 'fc-flood';
  await callApi(setup.url, ADMIN_KEY, 'POST', '/orgs', { orgId: org, name: 'Flood' });
  const { key: validKey } = await callApi<{ key: string }>(
    setup.url,
    ADMIN_KEY,
    'POST',
    `/orgs/${org}/keys`,
    { scopes: ['read'] },
  );
  await setup.stop();
  // Counted from a daemon that has made no lookup yet.
  const scansBefore = await apiKeyScans(databaseUrl);
  const daemon = await startDaemon(env);
  prefixDaemons.push(daemon);
  const get = async (key: string) => {
    const res = await fetch(`${daemon.url}/api/v1/orgs/${org}/ai-systems`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const body: unknown = await res.json().catch(() => null);
    return { status: res.status, retryAfter: Number(res.headers.get('retry-after')), body };
  };
  const warm = (await get(validKey)).status;
  const statuses: Record<string, number> = {};
  let limitedWithRetryAfter = 0;
  let refusedBeforeFirst429: number | null = null;
  let refused = 0;
  const during: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const index = next++;
        // A request of the valid key now and then, from the same address.
        if (index % 100 === 50) during.push((await get(validKey)).status);
        const answer = await get(`fc-unknown-${randomBytes(24).toString('hex')}`);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (answer.status === 401) refused += 1;
        if (answer.status === 429) {
          refusedBeforeFirst429 ??= refused;
          if (
            answer.retryAfter > 0 &&
            isEnvelope(answer.body) &&
            answer.body.error.code === 'RATE_LIMITED' &&
            answer.body.error.details?.retryAfterSeconds === answer.retryAfter
          ) {
            limitedWithRetryAfter += 1;
          }
        }
      }
    }),
  );
  const floodMs = Math.round(performance.now() - started);
  const after = [(await get(validKey)).status, (await get(validKey)).status];
  await daemon.stop();
  const lookups = (await apiKeyScans(databaseUrl)) - scansBefore;
  // The valid key is looked up once, and again each time its cache entry (10 s) runs out.
  const validLookups = 2 + Math.ceil(floodMs / 10_000);
  const lookupBound = limit + concurrency + validLookups;
  const count429 = statuses['429'] ?? 0;
  const others = total - (statuses['401'] ?? 0) - count429;
  return {
    figures: [
      ['unknown keys', `${total} (${concurrency} at a time, ${floodMs} ms)`],
      ['limit', `${limit} per ${windowMs / 1000} s`],
      ['statuses', JSON.stringify(statuses)],
      ['401 before the first 429', refusedBeforeFirst429],
      ['429 with Retry-After + envelope', limitedWithRetryAfter],
      ['database key lookups', `${lookups} (bound ${lookupBound})`],
      ['valid key before / during / after', `${warm} / ${summarise(during)} / ${after.join(',')}`],
    ],
    pass:
      warm === 200 &&
      others === 0 &&
      (statuses['401'] ?? 0) <= limit + concurrency &&
      count429 > 0 &&
      limitedWithRetryAfter === count429 &&
      lookups <= lookupBound &&
      during.length > 0 &&
      during.every((status) => status === 200) &&
      after.every((status) => status === 200),
    raw: {
      total,
      concurrency,
      floodMs,
      limit,
      windowMs,
      statuses,
      refusedBeforeFirst429,
      limitedWithRetryAfter,
      lookups,
      lookupBound,
      warm,
      during,
      after,
    },
  };
}

const summarise = (statuses: number[]) =>
  Object.entries(
    statuses.reduce<Record<string, number>>((counts, status) => {
      counts[status] = (counts[status] ?? 0) + 1;
      return counts;
    }, {}),
  )
    .map(([status, n]) => `${n}×${status}`)
    .join(',') || 'none';

// ---------------------------------------------------------------------------------------------------
// 9. What the run leaves in Redis

async function redisKeysOfRun(): Promise<Outcome> {
  // The daemons that used the run's prefix stop first: nothing writes under it any more.
  for (const daemon of prefixDaemons) await daemon.stop();
  const keys = await keysUnder(REDIS_URL, QUEUE_PREFIX);
  const queues = queuesAmong(keys.keys(), QUEUE_PREFIX);
  const queueOf = (name: string) => name.slice(QUEUE_PREFIX.length + 1).split(':')[0];
  const others = [...keys].filter(([name]) => !queues.includes(queueOf(name)));
  const withoutExpiry = others.filter(([, ttl]) => !(ttl > 0)).map(([name]) => name);
  const removed = await removePrefix(REDIS_URL, QUEUE_PREFIX);
  const left = (await keysUnder(REDIS_URL, QUEUE_PREFIX)).size;
  return {
    figures: [
      ['keys under the prefix', keys.size],
      ['of BullMQ queues', `${keys.size - others.length} (${queues.length} queues)`],
      ['others / without expiry', `${others.length} / ${withoutExpiry.length}`],
      ['queues obliterated', removed.queues],
      ['keys left after cleanup', left],
    ],
    pass: keys.size > 0 && others.length > 0 && withoutExpiry.length === 0 && left === 0,
    raw: {
      prefix: QUEUE_PREFIX,
      keys: keys.size,
      queues,
      others: others.map(([name, ttl]) => ({ name, ttl })),
      withoutExpiry,
      left,
    },
  };
}

// ---------------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      'outage-ms': { type: 'string', default: '20000' },
      connections: { type: 'string', default: '16' },
      'lock-rounds': { type: 'string', default: '20' },
      'snapshot-rounds': { type: 'string', default: '10' },
      'snapshot-requests': { type: 'string', default: '8' },
      'unknown-keys': { type: 'string', default: '2000' },
      only: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const outageMs = Number(values['outage-ms']);
  const connections = Number(values.connections);
  const lockRounds = Number(values['lock-rounds']);
  const snapshotRounds = Number(values['snapshot-rounds']);
  const snapshotRequests = Number(values['snapshot-requests']);
  const unknownKeys = Number(values['unknown-keys']);
  const counts = [outageMs, connections, lockRounds, snapshotRounds, snapshotRequests, unknownKeys];
  if (!counts.every((count) => Number.isInteger(count) && count > 0)) {
    throw new Error(
      '--outage-ms, --connections, --lock-rounds, --snapshot-rounds, --snapshot-requests and --unknown-keys are positive integers',
    );
  }
  if (values.only) only = new Set(values.only.split(',').map((part) => part.trim()));
  // Run last of all (cleanups run in reverse), after every daemon has stopped: the queues go even when a
  // scenario failed before scenario 9 removed them.
  cleanups.push(async () => {
    await removePrefix(REDIS_URL, QUEUE_PREFIX);
  });
  process.stdout.write(
    `comply fault campaign ${RUN}: outage ${outageMs} ms, ${connections} connections, ${COMPLY_BIN} serve\n`,
  );

  await scenario(
    `1 PostgreSQL down ${outageMs} ms under L2 load`,
    '0 × 500, every 503 with Retry-After + envelope, 0 lost, 0 duplicates, 0 per-request stacks, 2xx after restore',
    () => postgresOutage({ outageMs, connections }),
  );
  await scenario(
    '2 SIGTERM mid-upload (PGlite)',
    'status 201, exit 0, no comply.lock left',
    sigtermMidUpload,
  );

  let shared: Daemon | null = null;
  const sharedDaemon = async () => {
    shared ??= await startDaemon({ COMPLY_DATA_DIR: tempDir('pglite') });
    return shared;
  };
  await scenario('3 12 MiB bodies via fetch', '30 × 400 in the envelope, 0 errors', async () =>
    oversizedBodies(await sharedDaemon()),
  );
  await scenario(
    '4 revocation across daemons',
    'B answers 401 within 1 s of the revoke (cache bound 10 s)',
    revocationAcrossDaemons,
  );
  await scenario('5 server-written responses', '431 envelope; 400 BAD_REQUEST envelope', async () =>
    serverResponses(await sharedDaemon()),
  );
  await scenario(
    `6 two daemons on one data dir after a kill -9 (${lockRounds} rounds)`,
    "every round on a killed daemon's lock: one opens, the other exits 1 with the one-line message naming it; 0 double opens; every acknowledged write found after",
    () => lockRace(lockRounds),
  );
  await scenario(
    `7 ${snapshotRequests} simultaneous snapshots with one label (PostgreSQL)`,
    'one 201 per label, the rest 409 CONFLICT in the envelope, 0 × 503, no warning logged',
    () => snapshotRace(snapshotRounds, snapshotRequests),
  );
  await scenario(
    `8 ${unknownKeys} unknown API keys from one address`,
    '401 up to the limit, then 429 with Retry-After; key lookups bounded by the limit; the valid key 200 throughout',
    () => badKeyFlood(unknownKeys, connections),
  );
  await scenario(
    '9 Redis keys of the run',
    'every key under the run prefix that is not a queue expires; none left after the cleanup',
    redisKeysOfRun,
  );

  process.stdout.write('\n');
  const rows = results.flatMap((result) =>
    result.figures.map(([label, value], index) => [
      index === 0 ? result.scenario : '',
      label,
      String(value ?? '—'),
      index === 0 ? (result.pass ? 'PASS' : 'FAIL') : '',
    ]),
  );
  const table = [['scenario', 'figure', 'value', 'result'], ...rows];
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  for (const [index, row] of table.entries()) {
    process.stdout.write(
      `${row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd()}\n`,
    );
    if (index === 0) process.stdout.write(`${widths.map((width) => '-'.repeat(width)).join('  ')}\n`);
  }
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ run: RUN, outageMs, connections, results: results.map(({ scenario, pass, raw }) => ({ scenario, pass, ...raw })) }, null, 2)}\n`,
    );
  }
  process.exitCode = results.every((result) => result.pass) ? 0 : 1;
}

try {
  await main();
} catch (error) {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exitCode = 1;
} finally {
  await cleanupAll();
}
