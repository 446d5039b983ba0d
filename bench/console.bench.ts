/**
 * The web console's first load on loopback, in Chromium, against the least a page load costs: the same
 * browser loading a bare static page from a bare Fastify route in the same run. Each sample uses a fresh
 * browser context (empty cache, empty session storage), as a new visitor does.
 *
 *   npx tsx bench/console.bench.ts [--runs 15]
 *
 * Figures: the sign-in form shown; signing in until the overview's score is shown; a reload of a signed-in
 * tab until the score is shown. Target: the overview < 1 s. Also prints the bundle's size on disk.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Fastify from 'fastify';
import { chromium } from 'playwright-core';
import { ADMIN_KEY, createBenchDatabase, ROOT, startDaemon } from './support.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '15' } } });
const runs = Number(args.runs);
const ORG = 'bench';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const databaseUrl = await createBenchDatabase('comply_bench_console');
const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
const bare = Fastify({ logger: false });
bare.get('/', async (_request, reply) =>
  reply.type('text/html').send('<!doctype html><title>bare</title><p data-testid="score">ok</p>'),
);
const bareUrl = await bare.listen({ host: '127.0.0.1', port: 0 });
const browser = await chromium.launch({
  executablePath: process.env.COMPLY_CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});

async function api(method: string, url: string, body?: unknown) {
  const res = await fetch(`${daemon.url}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
}

try {
  await api('POST', '/orgs', { orgId: ORG, name: 'Bench' });
  const { key } = (await api('POST', `/orgs/${ORG}/keys`, { scopes: ['read', 'write', 'export'] })) as {
    key: string;
  };
  for (const [index, controlId] of ['A.2.2', 'A.5.2', 'A.6.2.6', 'A.6.2.8'].entries()) {
    await api('PUT', `/orgs/${ORG}/controls/${controlId}/status`, {
      status: index % 2 ? 'implemented' : 'in_progress',
      reviewer: 'bench',
    });
  }

  const samples = {
    bare: [] as number[],
    form: [] as number[],
    overview: [] as number[],
    reload: [] as number[],
  };
  for (let run = 0; run <= runs; run++) {
    // Run 0 warms the daemon and the browser; it is not counted.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    let start = performance.now();
    await page.goto(bareUrl);
    await page.getByTestId('score').waitFor();
    const bareMs = performance.now() - start;

    start = performance.now();
    await page.goto(`${daemon.url}/`);
    await page.getByLabel('API key').waitFor();
    const formMs = performance.now() - start;
    await page.getByLabel('API key').fill(key);
    const signIn = performance.now();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('score').waitFor();
    const overviewMs = formMs + (performance.now() - signIn);

    start = performance.now();
    await page.reload();
    await page.getByTestId('score').waitFor();
    const reloadMs = performance.now() - start;
    await context.close();
    if (run === 0) continue;
    samples.bare.push(bareMs);
    samples.form.push(formMs);
    samples.overview.push(overviewMs);
    samples.reload.push(reloadMs);
  }

  const assets = path.join(ROOT, 'dist/console/assets');
  const sizes = readdirSync(assets).map((file) => ({ file, bytes: statSync(path.join(assets, file)).size }));
  const kb = (pattern: RegExp) =>
    (
      sizes.filter(({ file }) => pattern.test(file)).reduce((sum, { bytes }) => sum + bytes, 0) / 1024
    ).toFixed(1);
  console.log(
    `bundle: scripts ${kb(/\.js$/)} kB (gzip ${kb(/\.js\.gz$/)} kB, brotli ${kb(/\.js\.br$/)} kB), ` +
      `styles ${kb(/\.css$/)} kB (gzip ${kb(/\.css\.gz$/)} kB)`,
  );
  const bareMedian = percentile(samples.bare, 50);
  console.log(`\nfirst load in Chromium on loopback, fresh context each time, ${runs} runs:`);
  console.table(
    Object.entries({
      'bare static page (reference)': samples.bare,
      'console: sign-in form shown': samples.form,
      'console: form + sign in until the overview score shows': samples.overview,
      'console: reload of a signed-in tab until the score shows': samples.reload,
    }).map(([what, values]) => ({
      what,
      'median ms': percentile(values, 50).toFixed(0),
      'p90 ms': percentile(values, 90).toFixed(0),
      'median ÷ bare': (percentile(values, 50) / bareMedian).toFixed(1),
    })),
  );
  const overview = percentile(samples.overview, 90);
  console.log(
    `overview p90 ${overview.toFixed(0)} ms: ${overview < 1000 ? 'meets' : 'MISSES'} the 1 s target`,
  );
} finally {
  await browser.close();
  await bare.close();
  await daemon.stop();
}
