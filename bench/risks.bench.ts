/**
 * The AI risk register of an org with 1,000 risks over 50 AI systems, on real PostgreSQL: a page of the register
 * (100 risks, every state derived from the records) and the summary, each against a bare Fastify route that sends
 * a body of the same size (the least work the answer needs: sending it); then the SoA's checks and the SoA itself
 * (JSON, with its risks column and checks) over that register.
 * Run: npx tsx bench/risks.bench.ts [--duration 5]   (target: each ≥ 50 % of its bare route)
 */
import Fastify from 'fastify';
import { ADMIN_KEY, createBenchDatabase, inParallel, type LoadResult, load, startDaemon } from './support.js';

const duration = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 5;
const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
const RISKS = 1000;
const SYSTEMS = 50;

const databaseUrl = await createBenchDatabase('comply_bench_risks');
const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
const api = async <T>(route: string, init: RequestInit = {}): Promise<T> => {
  const response = await fetch(`${daemon.url}/api/v1${route}`, { ...init, headers });
  if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

/** A bare route sending exactly `body`: the ceiling for an answer of that size. */
async function bareRouteOf(body: string): Promise<{ url: string; close: () => Promise<void> }> {
  const app = Fastify({ logger: false });
  app.get('/bare', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/bare`, close: () => app.close() };
}

try {
  await api('/orgs', { method: 'POST', body: JSON.stringify({ orgId: 'bench', name: 'Bench' }) });
  const systems: string[] = [];
  for (let index = 0; index < SYSTEMS; index += 1) {
    const system = await api<{ systemId: string }>('/orgs/bench/ai-systems', {
      method: 'POST',
      body: JSON.stringify({
        name: `System ${index}`,
        owner: 'Owner',
        purpose: 'Benchmark',
        riskLevel: index % 5 === 0 ? 'high' : 'limited',
        lifecycleStage: 'deployed',
      }),
    });
    systems.push(system.systemId);
  }
  const { controls } = await api<{ controls: { controlId: string }[] }>('/controls');
  await inParallel(
    Array.from({ length: RISKS }, (_, index) => index),
    8,
    (index) =>
      api('/orgs/bench/risks', {
        method: 'POST',
        body: JSON.stringify({
          title: `Risk ${index}: model behaviour outside its validated range`,
          description: 'A benchmark risk with a description of ordinary length for a register entry.',
          systemIds: [systems[index % SYSTEMS], systems[(index * 7) % SYSTEMS]].filter(
            (v, i, a) => a.indexOf(v) === i,
          ),
          likelihood: (index % 5) + 1,
          impact: ((index * 3) % 5) + 1,
          treatment:
            index % 4 === 0
              ? undefined
              : {
                  option: index % 10 === 1 ? 'accept' : 'mitigate',
                  requirements: [0, 1, 2].map((offset) => ({
                    frameworkId: 'iso-42001',
                    requirementId: controls[(index + offset * 11) % controls.length].controlId,
                  })),
                  dueDate: '2027-06-30T00:00:00.000Z',
                },
        }),
      }),
  );
  const measure = async (name: string, route: string): Promise<[LoadResult, LoadResult]> => {
    const url = `${daemon.url}/api/v1${route}`;
    const body = await (await fetch(url, { headers })).text();
    const bare = await bareRouteOf(body);
    try {
      await load('warm-up', { url, headers, duration: 2 });
      return [
        await load(`bare route, ${(body.length / 1024).toFixed(0)} KiB`, { url: bare.url, duration }),
        await load(name, { url, headers, duration }),
      ];
    } finally {
      await bare.close();
    }
  };
  const pairs = [
    await measure('GET /risks (100 of 1,000)', '/orgs/bench/risks'),
    await measure('GET /risks/summary', '/orgs/bench/risks/summary'),
    await measure('GET /soa/checks', '/orgs/bench/soa/checks'),
    await measure('GET /export/soa (JSON, with risks and checks)', '/orgs/bench/export/soa?format=json'),
  ];
  console.table(
    pairs.flat().map((result) => ({
      route: result.name,
      'req/s': result.requestsPerSec,
      'p50 ms': result.p50,
      'p99 ms': result.p99,
      'non-2xx': result.non2xx,
    })),
  );
  for (const [bare, measured] of pairs) {
    console.log(
      `${measured.name}: ${((100 * measured.requestsPerSec) / bare.requestsPerSec).toFixed(1)} % of its bare route (target ≥ 50 %)`,
    );
  }
} finally {
  await daemon.stop();
}
