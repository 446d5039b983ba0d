/**
 * Webhook delivery latency: 1,000 changes made through the API (risks created, 8 requests in flight), each
 * delivered as a signed `risk.created` event to a receiver on this machine; the latency of an event is from
 * the moment its request was sent (the change cannot be earlier) to the moment the receiver has its body; also
 * shown from the moment the API answered (the change committed just before), and the writes' own latency.
 * Runs twice on real PostgreSQL: jobs in the daemon's process, then on BullMQ (Redis) with a `comply worker`,
 * each after 50 unmeasured events that warm the daemon and worker up.
 * Run: npx tsx bench/webhooks.bench.ts [--events 1000] [--width 8] [--only in-process|worker]
 * Target (issue 27): p99 < 2 s from the change to receipt.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { ADMIN_KEY, createBenchDatabase, inParallel, ROOT, startDaemon } from './support.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000' },
    width: { type: 'string', default: '8' },
    only: { type: 'string' },
  },
});
const EVENTS = Number(args.events);
const WIDTH = Number(args.width);
const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
const REDIS_URL = process.env.COMPLY_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const WARM_UP = 50;

/** A receiver that verifies every signature and notes when each risk's event arrived. */
async function startReceiver(secret: () => string) {
  const arrived = new Map<string, number>();
  let invalid = 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const event = new Webhook(secret()).verify(body, request.headers as Record<string, string>) as {
          data: { resource: { id: string } };
        };
        if (!arrived.has(event.data.resource.id)) arrived.set(event.data.resource.id, at);
      } catch {
        invalid += 1;
      }
      response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrived,
    invalid: () => invalid,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function run(label: string, env: Record<string, string>, options: { worker: boolean }) {
  const databaseUrl = await createBenchDatabase(
    `comply_bench_webhooks_${options.worker ? 'worker' : 'local'}`,
  );
  const common = { DATABASE_URL: databaseUrl, COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true', ...env };
  // The worker first: a daemon on BullMQ is ready only once a worker serves its queues.
  const worker = options.worker
    ? spawn(path.join(ROOT, 'bin/comply'), ['worker'], {
        env: { ...process.env, ...common, LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'inherit', 'inherit'],
      })
    : null;
  const daemon = await startDaemon(common).catch((error) => {
    worker?.kill('SIGTERM');
    throw error;
  });
  let secret = '';
  const receiver = await startReceiver(() => secret);
  const api = async <T>(route: string, body: unknown): Promise<T> => {
    const response = await fetch(`${daemon.url}/api/v1${route}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  try {
    await api('/orgs', { orgId: 'bench', name: 'Bench' });
    ({ secret } = await api<{ secret: string }>('/orgs/bench/webhooks', {
      url: receiver.url,
      events: ['risk.created'],
    }));
    // Warm-up (not measured): the worker starts with the daemon and compiles its validators first; a
    // production worker has been running for a while.
    for (let index = 0; index < WARM_UP; index += 1) {
      await api('/orgs/bench/risks', { title: `Warm-up ${index}`, likelihood: 1, impact: 1 });
    }
    for (let waited = 0; receiver.arrived.size < WARM_UP && waited < 30_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    receiver.arrived.clear();
    const sent = new Map<string, number>();
    const answered = new Map<string, number>();
    const started = performance.now();
    await inParallel(
      Array.from({ length: EVENTS }, (_, index) => index),
      WIDTH,
      async (index) => {
        const at = performance.now();
        const risk = await api<{ riskId: string }>('/orgs/bench/risks', {
          title: `Risk ${index}`,
          likelihood: (index % 5) + 1,
          impact: ((index * 3) % 5) + 1,
        });
        sent.set(risk.riskId, at);
        answered.set(risk.riskId, performance.now());
      },
    );
    const written = performance.now() - started;
    const deadline = performance.now() + 60_000;
    while (receiver.arrived.size < EVENTS && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const since = (times: Map<string, number>) =>
      [...times]
        .map(([riskId, at]) => (receiver.arrived.get(riskId) ?? Number.NaN) - at)
        .filter((ms) => !Number.isNaN(ms))
        .sort((a, b) => a - b);
    const latencies = since(sent);
    const afterAnswer = since(answered);
    const writes = [...sent]
      .map(([riskId, at]) => (answered.get(riskId) as number) - at)
      .sort((a, b) => a - b);
    const all = performance.now() - started;
    console.log(`\n${label}`);
    console.table({
      events: EVENTS,
      delivered: latencies.length,
      'bad signatures': receiver.invalid(),
      'writes/s': Math.round((EVENTS * 1000) / written),
      'write p50 / p99 ms': `${Math.round(percentile(writes, 50))} / ${Math.round(percentile(writes, 99))}`,
      'from request: p50 ms': Math.round(percentile(latencies, 50)),
      'from request: p95 ms': Math.round(percentile(latencies, 95)),
      'from request: p99 ms': Math.round(percentile(latencies, 99)),
      'from request: max ms': Math.round(latencies[latencies.length - 1]),
      'from response: p50 ms': Math.round(percentile(afterAnswer, 50)),
      'from response: p99 ms': Math.round(percentile(afterAnswer, 99)),
      'all delivered after ms': Math.round(all),
    });
    const p99 = percentile(latencies, 99);
    console.log(
      latencies.length === EVENTS && p99 < 2000
        ? `target met: every event delivered, p99 ${Math.round(p99)} ms < 2000 ms`
        : `TARGET MISSED: ${latencies.length}/${EVENTS} delivered, p99 ${Math.round(p99)} ms`,
    );
  } finally {
    await receiver.close();
    await daemon.stop();
    if (worker && worker.exitCode === null) {
      const exited = once(worker, 'exit');
      worker.kill('SIGTERM');
      await exited;
    }
  }
}

if (!args.only || args.only === 'in-process')
  await run('jobs in the daemon (PostgreSQL)', {}, { worker: false });
if (!args.only || args.only === 'worker') {
  const prefix = `bench-webhooks-${randomBytes(4).toString('hex')}`;
  try {
    await run(
      'jobs on BullMQ with a comply worker (PostgreSQL, Redis)',
      { REDIS_URL, COMPLY_QUEUE_PREFIX: prefix },
      { worker: true },
    );
  } finally {
    for (const name of [
      'webhook-dispatch',
      'webhook-delivery',
      'notifications-due-scan',
      'compliance-rollup',
    ]) {
      const queue = new Queue(name, { connection: { url: REDIS_URL }, prefix });
      await queue.obliterate({ force: true }).catch(() => {});
      await queue.close();
    }
  }
}
