/**
 * The management-system loop on real PostgreSQL:
 * - `GET /due` for an org with 10,000 dated items, against a bare Fastify route sending a body of the same size
 *   (target ≥ 50 %);
 * - holding a management review over a year with 1,000 findings: the median time of `POST /management-reviews`
 *   (target < 200 ms).
 * Run: npx tsx bench/loop.bench.ts [--duration 5]
 */
import Fastify from 'fastify';
import { ADMIN_KEY, createBenchDatabase, inParallel, load, startDaemon } from './support.js';

const duration = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 5;
const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
const DAY = 86_400_000;

const databaseUrl = await createBenchDatabase('comply_bench_loop');
const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
const api = async <T>(route: string, init: RequestInit = {}): Promise<T> => {
  const response = await fetch(`${daemon.url}/api/v1${route}`, { ...init, headers });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};
const post = <T>(route: string, body: unknown) =>
  api<T>(route, { method: 'POST', body: JSON.stringify(body) });

try {
  await post('/orgs', { orgId: 'bench', name: 'Bench' });
  const { controls } = await api<{ controls: { controlId: string }[] }>('/controls');
  // 9,000 evidence items with an expiry, spread over two years around now.
  await inParallel(
    Array.from({ length: 9000 }, (_, index) => index),
    16,
    (index) =>
      post(`/orgs/bench/controls/${controls[index % controls.length].controlId}/evidence`, {
        type: index % 2 ? 'document' : 'link',
        title: `Evidence ${index}`,
        fileUrl: `https://evidence.example/${index}`,
        expiresAt: new Date(Date.now() + (index - 4500) * 2 * 3_600_000).toISOString(),
      }),
  );
  // 1,000 findings over a year: one audit a month.
  const audits: string[] = [];
  for (let month = 0; month < 12; month += 1) {
    const start = new Date(Date.now() - (365 - month * 30) * DAY).toISOString();
    const audit = await post<{ auditId: string }>('/orgs/bench/audits', {
      title: `Audit ${month}`,
      frameworkIds: ['iso-42001'],
      leadAuditor: 'Lead',
      plannedStart: start,
      plannedEnd: start,
    });
    audits.push(audit.auditId);
  }
  const kinds = ['minor_nonconformity', 'observation', 'opportunity', 'major_nonconformity'];
  await inParallel(
    Array.from({ length: 1000 }, (_, index) => index),
    8,
    (index) =>
      post(`/orgs/bench/audits/${audits[index % audits.length]}/findings`, {
        kind: kinds[index % 4],
        requirements: [
          { frameworkId: 'iso-42001', requirementId: controls[index % controls.length].controlId },
        ],
        description: `Finding ${index}`,
        owner: `Owner ${index % 7}`,
        dueDate: new Date(Date.now() + (index - 500) * DAY).toISOString(),
      }),
  );

  const url = `${daemon.url}/api/v1/orgs/bench/due`;
  const body = await (await fetch(url, { headers })).text();
  const bareApp = Fastify({ logger: false });
  bareApp.get('/bare', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  const bareUrl = `${await bareApp.listen({ host: '127.0.0.1', port: 0 })}/bare`;
  await load('warm-up', { url, headers, duration: 2 });
  const bare = await load(`bare route, ${(body.length / 1024).toFixed(0)} KiB`, { url: bareUrl, duration });
  const due = await load('GET /due (100 of 10,000)', { url, headers, duration });
  await bareApp.close();
  const total = (JSON.parse(body) as { total: number }).total;

  const timings: number[] = [];
  for (let run = 0; run < 21; run += 1) {
    const started = performance.now();
    await post('/orgs/bench/management-reviews', {
      heldAt: new Date().toISOString(),
      attendees: ['Board'],
      period: { from: new Date(Date.now() - 365 * DAY).toISOString(), to: new Date().toISOString() },
    });
    timings.push(performance.now() - started);
  }
  timings.sort((a, b) => a - b);
  console.table(
    [bare, due].map((r) => ({
      route: r.name,
      'req/s': r.requestsPerSec,
      'p50 ms': r.p50,
      'p99 ms': r.p99,
      'non-2xx': r.non2xx,
    })),
  );
  console.log(`dated items: ${total}`);
  console.log(
    `GET /due: ${((100 * due.requestsPerSec) / bare.requestsPerSec).toFixed(1)} % of its bare route (target ≥ 50 %)`,
  );
  console.log(
    `POST /management-reviews over a year with 1,000 findings: median ${timings[10].toFixed(0)} ms, max ${timings[20].toFixed(0)} ms (target median < 200 ms)`,
  );
} finally {
  await daemon.stop();
}
