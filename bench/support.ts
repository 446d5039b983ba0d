import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { freePort } from '../test/support/free-port.js';

/** Shared benchmark plumbing: the bare route every figure is divided by, the daemon, the load. */

export const ROOT = path.resolve(import.meta.dirname, '..');
export const ADMIN_KEY = 'bench-platform-key-0123456789abcdef';
export const PG_ADMIN_URL =
  process.env.COMPLY_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface LoadResult {
  name: string;
  requestsPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** CPU time the server process spent per request (user + system), when its pid was given. */
  cpuMicrosPerRequest?: number;
}

/**
 * CPU seconds (user + system, all threads) of a process, from /proc; 0 where /proc is missing. Unlike
 * throughput it hardly moves when something else loads the machine, so it shows what a change saved even
 * then.
 */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export async function load(
  name: string,
  options: {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST' | 'PUT';
    body?: string;
    /** The server's process, to report its CPU time per request. */
    serverPid?: number;
    /** A new body for every request (instead of `body`). */
    nextBody?: () => string;
  },
): Promise<LoadResult> {
  const cpuBefore = options.serverPid === undefined ? 0 : cpuSeconds(options.serverPid);
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 16,
    duration: options.duration ?? 5,
    headers: options.headers,
    method: options.method ?? 'GET',
    body: options.body,
    ...(options.nextBody && {
      requests: [{ setupRequest: (request) => ({ ...request, body: options.nextBody?.() }) }],
    }),
  });
  return {
    name,
    requestsPerSec: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    cpuMicrosPerRequest:
      options.serverPid === undefined
        ? undefined
        : Math.round(
            ((cpuSeconds(options.serverPid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total),
          ),
  };
}

/** The machine's HTTP ceiling: a Fastify route that returns a constant body. */
export async function startBareRoute(): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  const body = { controls: [{ controlId: 'A.2.2', title: 'AI policy' }], total: 1 };
  app.get('/bare', async () => body);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/bare`, close: () => app.close() };
}

export async function createBenchDatabase(name: string): Promise<string> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** `comply serve` in its own process, so that the load generator does not share its event loop. */
export async function startDaemon(
  env: Record<string, string>,
): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  // COMPLY_BENCH_PROFILE_DIR=<dir> writes a CPU profile of the daemon into <dir>. Node refuses --cpu-prof in
  // NODE_OPTIONS: a profiled daemon runs the build bin/comply runs, with bin/comply's own flags.
  const profile = process.env.COMPLY_BENCH_PROFILE_DIR;
  const [command, args] = profile
    ? [
        process.execPath,
        [
          '--cpu-prof',
          `--cpu-prof-dir=${profile}`,
          '--expose-gc',
          '--experimental-async-context-frame',
          path.join(ROOT, 'dist/bin/comply.js'),
          'serve',
        ],
      ]
    : [path.join(ROOT, 'bin/comply'), ['serve']];
  const child = spawn(command, args, {
    env: {
      ...process.env,
      PORT: String(port),
      COMPLY_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'warn',
      COMPLY_RATE_LIMIT_MAX: '10000000',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    if (
      await fetch(`${url}/readyz`)
        .then((res) => res.ok)
        .catch(() => false)
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    process: child,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function report(bare: LoadResult, results: LoadResult[]): void {
  const rows = [bare, ...results].map((r) => ({
    route: r.name,
    'req/s': r.requestsPerSec,
    'ratio vs bare': `${((100 * r.requestsPerSec) / bare.requestsPerSec).toFixed(1)} %`,
    'p50 ms': r.p50,
    'p99 ms': r.p99,
    'non-2xx': r.non2xx,
    errors: r.errors,
  }));
  console.table(rows);
}

/** Runs `work` over `items` with `width` calls in flight. */
export async function inParallel<T>(
  items: T[],
  width: number,
  work: (item: T, index: number) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index], index);
      }
    }),
  );
}

type BenchApi = <T = unknown>(route: string, init?: RequestInit) => Promise<T>;

/**
 * A direct record on every requirement of every framework of the org, through the API: statuses in turn
 * (implemented, in progress, not started), every seventh requirement marked not applicable instead.
 * Returns how many requirements were assessed.
 */
export async function assessEveryRequirement(api: BenchApi, orgId: string, width: number): Promise<number> {
  const statuses = ['implemented', 'in_progress', 'not_started'] as const;
  const { frameworks } = await api<{ frameworks: { frameworkId: string }[] }>(`/orgs/${orgId}/frameworks`);
  const targets: { frameworkId: string; requirementId: string }[] = [];
  for (const { frameworkId } of frameworks) {
    const { requirements } = await api<{ requirements: { requirementId: string }[] }>(
      `/orgs/${orgId}/frameworks/${frameworkId}/requirements`,
    );
    for (const { requirementId } of requirements) targets.push({ frameworkId, requirementId });
  }
  await inParallel(targets, width, async ({ frameworkId, requirementId }, index) => {
    const route = `/orgs/${orgId}/frameworks/${frameworkId}/requirements/${encodeURIComponent(requirementId)}`;
    const body =
      index % 7 === 6
        ? { applicable: false, justification: 'Out of scope for the bench', reviewer: 'bench' }
        : { status: statuses[index % 3], reviewer: 'bench' };
    await api(`${route}/${index % 7 === 6 ? 'applicability' : 'status'}`, {
      method: 'PUT',
      body: JSON.stringify(body),
    });
  });
  return targets.length;
}
