/**
 * OSCAL (JSON and zip) and Statement of Applicability (every format) exports over HTTP for an org with
 * 100k evidence rows, on real PostgreSQL, against `comply serve` in its own process (in-process jobs).
 * With --worker, the same again with Redis and a `comply worker` process doing the work.
 * Run: npx tsx bench/exports.bench.ts [--evidence 100000] [--rounds 5] [--worker] [--only OSCAL]
 * (`--only` keeps the exports whose label contains the text.) Beside the times, the daemon's resident
 * memory (VmRSS, sampled every 10 ms): at rest before the exports, the peak during each export, and at
 * rest again after the last one.
 * DESIGN.md target: OSCAL export of 100k evidence rows < 2 s, peak RSS < 400 MiB, back to rest after.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ADMIN_KEY, createBenchDatabase, ROOT, startBareRoute, startDaemon } from './support.js';

const { values: args } = parseArgs({
  options: {
    evidence: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    worker: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const evidenceCount = Number(args.evidence);
const rounds = Number(args.rounds);
const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
const ORG = 'bench';

async function api(base: string, method: string, url: string, body?: unknown): Promise<void> {
  const response = await fetch(`${base}/api/v1${url}`, { method, headers, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
}

/**
 * The org through the API (statuses cycling over every combination, exclusions, AI systems), then the
 * evidence in one generate_series statement with the per-control roll-up the API would keep.
 */
async function seed(base: string, databaseUrl: string): Promise<void> {
  await api(base, 'POST', '/orgs', { orgId: ORG, name: 'Bench AI Ltd.' });
  const library = (await (await fetch(`${base}/api/v1/controls`, { headers })).json()) as {
    controls: { controlId: string }[];
  };
  const statuses = ['not_started', 'in_progress', 'implemented'];
  for (const [index, { controlId }] of library.controls.entries()) {
    const status = statuses[index % 3];
    if (status !== 'not_started') {
      await api(base, 'PUT', `/orgs/${ORG}/controls/${controlId}/status`, { status, reviewer: 'alice' });
    }
    if (Math.floor(index / 3) % 2 === 1) {
      await api(base, 'PUT', `/orgs/${ORG}/controls/${controlId}/applicability`, {
        applicable: false,
        justification: `Out of scope for ${controlId}`,
        reviewer: 'bob',
      });
    }
  }
  for (const [name, riskLevel] of [
    ['Support chatbot', 'limited'],
    ['Credit scoring', 'high'],
  ]) {
    await api(base, 'POST', `/orgs/${ORG}/ai-systems`, { name, owner: 'carol', purpose: 'Bench', riskLevel });
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const start = performance.now();
  await client.query(
    `insert into evidence (evidence_id, org_id, framework_id, requirement_id, type, title, description, file_url, created_at)
     select 'ev-' || lpad(g::text, 7, '0'), $1, 'iso-42001', c.ids[1 + g % c.n], (array['attestation', 'document', 'link'])[1 + g % 3],
       'Evidence ' || g || ' for ' || c.ids[1 + g % c.n],
       case when g % 2 = 0 then null else 'Review record ' || g || ', signed off by the control owner.' end,
       case when g % 3 = 0 then null else 'https://files.example.com/evidence/' || g || '.pdf' end,
       now() - g * interval '1 second'
     from (select array_agg(control_id order by sort_order) as ids, count(*)::int as n from controls) c,
       generate_series(1, $2::int) g`,
    [ORG, evidenceCount],
  );
  await client.query(
    `update requirement_records r set evidence_count = x.n, evidence_never_expires = true
     from (select requirement_id, count(*)::int as n from evidence where org_id = $1 group by requirement_id) x
     where r.org_id = $1 and r.framework_id = 'iso-42001' and r.requirement_id = x.requirement_id`,
    [ORG],
  );
  await client.query('analyze evidence');
  await client.end();
  console.log(`seeded ${evidenceCount} evidence rows in ${(performance.now() - start).toFixed(0)} ms`);
}

/** Resident memory of a process in MiB, from /proc; NaN where it is missing. */
function rssMiB(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Samples the summed RSS of the processes every 10 ms until stopped; returns the peak. */
function rssSampler(pids: number[]): { stop(): number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(
      peak,
      pids.reduce((sum, pid) => sum + rssMiB(pid), 0),
    );
  };
  sample();
  const timer = setInterval(sample, 10);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Summed RSS once the processes have been idle for `settleMs`. */
async function restingRss(pids: number[], settleMs = 3000): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return pids.reduce((sum, pid) => sum + rssMiB(pid), 0);
}

const CLOCK_TICKS_PER_MS = 100 / 1000;

/**
 * CPU time (user + system) of a process and all its descendants, from /proc: what the daemon spent,
 * whatever else the machine is doing. NaN where /proc is missing.
 */
function treeCpuMs(rootPid: number | undefined): number {
  if (rootPid === undefined) return Number.NaN;
  const stats = new Map<number, { parent: number; ticks: number }>();
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        // Fields after the command name: state ppid ... utime(14) stime(15), counting from pid = 1.
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        stats.set(Number(entry), {
          parent: Number(fields[1]),
          ticks: Number(fields[11]) + Number(fields[12]),
        });
      } catch {
        // The process ended while we looked.
      }
    }
  } catch {
    return Number.NaN;
  }
  let ticks = 0;
  const inTree = (pid: number): boolean =>
    pid === rootPid || (pid > 1 && inTree(stats.get(pid)?.parent ?? 0));
  for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks;
  return ticks / CLOCK_TICKS_PER_MS;
}

interface Timing {
  label: string;
  ms: number[];
  /** CPU the daemon (and its worker, if any) spent on each export. */
  cpuMs: number[];
  bytes: number;
  /** Worst latency of a cheap request sent while the export ran: how long the daemon was unresponsive. */
  stallMs: number[];
  /** Peak resident memory of the daemon (and worker) over the export's timed rounds, MiB. */
  peakRssMiB: number;
}

/** A cheap request, over and over until `done`, recording the slowest answer. */
async function probe(url: string, done: () => boolean): Promise<number> {
  let worst = 0;
  while (!done()) {
    const start = performance.now();
    await fetch(url);
    worst = Math.max(worst, performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return worst;
}

/**
 * A GET whose body is collected as raw buffers: fetch() spends longer reading a 76 MB body through web
 * streams than the daemon spends producing it, which would measure the client.
 */
function download(
  url: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { ...headers, ...extra } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function measure(
  base: string,
  pids: number[],
  [label, query, extra]: [string, string, Record<string, string>?],
): Promise<Timing> {
  const url = `${base}/api/v1/orgs/${ORG}/export/${query}`;
  const timing: Timing = { label, ms: [], cpuMs: [], bytes: 0, stallMs: [], peakRssMiB: 0 };
  const cpu = () => pids.reduce((sum, pid) => sum + treeCpuMs(pid), 0);
  const sampler = rssSampler(pids);
  await download(url, extra); // warm-up
  for (let round = 0; round < rounds; round += 1) {
    const cpuBefore = cpu();
    const start = performance.now();
    const { status, body } = await download(url, extra);
    timing.ms.push(performance.now() - start);
    timing.cpuMs.push(cpu() - cpuBefore);
    if (status !== 200) throw new Error(`${label}: ${status} ${body.toString()}`);
    timing.bytes = body.length;
  }
  timing.peakRssMiB = sampler.stop();
  // Separately, so that the probe's own requests do not count in the CPU figures above.
  for (let round = 0; round < rounds; round += 1) {
    let finished = false;
    const stall = probe(`${base}/healthz`, () => finished);
    await download(url, extra);
    finished = true;
    timing.stallMs.push(await stall);
  }
  return timing;
}

const EXPORTS: [string, string, Record<string, string>?][] = [
  ['OSCAL json', 'oscal'],
  // A worker hands large text over gzipped; a client that accepts gzip gets it without a gunzip.
  ['OSCAL json, gzip accepted', 'oscal', { 'accept-encoding': 'gzip' }],
  ['OSCAL zip', 'oscal?format=zip'],
  ['SoA json', 'soa?format=json'],
  ['SoA csv', 'soa?format=csv'],
  ['SoA markdown', 'soa?format=markdown'],
  ['SoA pdf', 'soa?format=pdf'],
];

function report(
  title: string,
  bareMs: number,
  timings: Timing[],
  rss: { beforeMiB: number; afterMiB: number; laterMiB: number },
): void {
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];
  console.log(
    `\n${title} (${rounds} rounds after a warm-up; bare route ${bareMs.toFixed(1)} ms per request)`,
  );
  console.table(
    timings.map((t) => ({
      export: t.label,
      'min ms': Math.round(Math.min(...t.ms)),
      'median ms': Math.round(median(t.ms)),
      'max ms': Math.round(Math.max(...t.ms)),
      'vs bare route': `${Math.round(median(t.ms) / bareMs)}x`,
      'daemon CPU ms': Math.round(median(t.cpuMs)),
      size: `${(t.bytes / 1e6).toFixed(1)} MB`,
      'worst /healthz ms': Math.round(median(t.stallMs)),
      'peak RSS MiB': Math.round(t.peakRssMiB),
    })),
  );
  console.log(
    `resident memory at rest: ${Math.round(rss.beforeMiB)} MiB before the exports, ` +
      `${Math.round(rss.afterMiB)} MiB 3 s after the last one, ${Math.round(rss.laterMiB)} MiB 15 s after`,
  );
}

/** Median latency of the bare Fastify route: the floor any request on this machine pays. */
async function bareLatency(url: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const start = performance.now();
    await fetch(url).then((response) => response.arrayBuffer());
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[100];
}

async function run(
  title: string,
  env: Record<string, string>,
  databaseUrl: string,
  options: { seed: boolean; workerPid?: number },
) {
  const daemon = await startDaemon({ DATABASE_URL: databaseUrl, ...env });
  const pids = [daemon.process.pid, options.workerPid].filter((pid): pid is number => pid !== undefined);
  try {
    if (options.seed) await seed(daemon.url, databaseUrl);
    const bare = await startBareRoute();
    const bareMs = await bareLatency(bare.url);
    await bare.close();
    const timings: Timing[] = [];
    const beforeMiB = await restingRss(pids);
    const selected = EXPORTS.filter(
      ([label]) => !args.only || label.toLowerCase().includes(args.only.toLowerCase()),
    );
    for (const entry of selected) timings.push(await measure(daemon.url, pids, entry));
    const afterMiB = await restingRss(pids);
    report(title, bareMs, timings, { beforeMiB, afterMiB, laterMiB: await restingRss(pids, 12_000) });
  } finally {
    // A daemon that died already has nothing left to stop.
    if (daemon.process.exitCode === null) await daemon.stop();
  }
}

const databaseUrl = await createBenchDatabase('comply_bench_exports');
await run(`${evidenceCount} evidence rows, in-process jobs`, {}, databaseUrl, { seed: true });
if (args.worker) {
  // The first run migrated the database: the worker and the daemon below start on a current schema.
  const redisUrl = process.env.COMPLY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const worker = spawn(path.join(ROOT, 'bin/comply'), ['worker'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  try {
    await run(`${evidenceCount} evidence rows, on a comply worker`, { REDIS_URL: redisUrl }, databaseUrl, {
      seed: false,
      workerPid: worker.pid,
    });
  } finally {
    if (worker.exitCode === null) worker.kill('SIGTERM');
    await exited;
  }
}
