/**
 * GET /controls and GET /orgs/{orgId}/controls against a bare Fastify route, on real PostgreSQL.
 * Run: npx tsx bench/foundation.bench.ts   (DESIGN.md target: each ≥ 50 % of the bare route)
 */
import { ADMIN_KEY, createBenchDatabase, load, report, startBareRoute, startDaemon } from './support.js';

const databaseUrl = await createBenchDatabase('comply_bench_foundation');
const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
const bare = await startBareRoute();
const headers = { authorization: `Bearer ${ADMIN_KEY}` };
try {
  await fetch(`${daemon.url}/api/v1/orgs`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ orgId: 'bench', name: 'Bench' }),
  });
  // Warm-up: JIT, connection pool and caches, so each measured run starts in a steady state.
  await load('warm-up', { url: `${daemon.url}/api/v1/controls`, headers, duration: 2 });
  const bareResult = await load('bare Fastify route', { url: bare.url });
  const results = [
    await load('GET /controls', { url: `${daemon.url}/api/v1/controls`, headers }),
    await load('GET /controls?search=logging', {
      url: `${daemon.url}/api/v1/controls?search=logging`,
      headers,
    }),
    await load('GET /orgs/bench/controls', { url: `${daemon.url}/api/v1/orgs/bench/controls`, headers }),
  ];
  report(bareResult, results);
} finally {
  await bare.close();
  await daemon.stop();
}
