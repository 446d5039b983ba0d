/**
 * Search quality and cost. Quality: recall@5, MRR@10 and nDCG@10 on the development and test halves of the
 * plain-language set (test/cte/search-queries-plain.json) and of the independent set
 * (test/cte/search-queries-fresh.json), and on the older labelled set (test/cte/search-queries.json), for every
 * embedder available here: the built-in one always, the local sentence-embedding model when COMPLY_MODEL_DIR
 * holds it. Cost: cold start (fit + index) and top-10
 * latency over all requirements with NIST SP 800-53 rev5 imported, resident memory, and the search route
 * over HTTP as a ratio of a bare Fastify route (SEARCH_BENCH_HTTP=0 skips that part).
 * Run: `npm run bench -- search --split dev` while tuning (only the development half is printed, by
 * set and by style); `--split test` or `--split all` (the default) once, to report. Targets: top-10 < 10 ms,
 * cold start < 3 s.
 */
import { readFileSync } from 'node:fs';
import { extendLibrary, type FrameworkLibrary, loadBuiltinLibrary } from '../src/features/cte/library.js';
import { importOscalCatalog } from '../src/features/cte/oscal-import.js';
import { fitBuiltinEmbedder } from '../src/features/cte/search/create-embedder.js';
import { type Embedder, libraryDocuments } from '../src/features/cte/search/embedder.js';
import { lexicalIndex, RequirementSearch } from '../src/features/cte/search/requirement-search.js';
import { localModelPresent } from '../src/features/cte/search/search.service.js';
import { evaluateSearch, type LabelledQuery } from '../src/features/cte/search/search-evaluation.js';
import { loadTransformersEmbedder } from '../src/features/cte/search/transformers-embedder.js';
import { loadConfig } from '../src/platform/config.js';
import { ADMIN_KEY, createBenchDatabase, load, report, startBareRoute, startDaemon } from './support.js';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(run: () => unknown, iterations: number): Promise<string> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return `median ${percentile(samples, 50).toFixed(2)} ms, p95 ${percentile(samples, 95).toFixed(2)} ms`;
}

const read = (name: string): LabelledQuery[] =>
  JSON.parse(readFileSync(new URL(`../test/cte/${name}`, import.meta.url), 'utf8')).queries;
const splitOption = process.argv.indexOf('--split');
const split = splitOption === -1 ? 'all' : process.argv[splitOption + 1];
if (split !== 'dev' && split !== 'test' && split !== 'all') {
  console.error(`--split takes dev, test or all (got ${split})`);
  process.exit(2);
}
/** The plain-language queries of the halves asked for (`--split`); timing uses them too. */
const plain = read('search-queries-plain.json').filter((query) => split === 'all' || query.split === split);
const independent = read('search-queries-fresh.json');
/** The halves of a split set that `--split` asks for. */
const halves = (name: string, queries: LabelledQuery[]): [string, LabelledQuery[]][] =>
  (['dev', 'test'] as const)
    .filter((half) => split === 'all' || split === half)
    .map((half) => [`${name}, ${half} half`, queries.filter((query) => query.split === half)]);
const sets: [string, LabelledQuery[]][] = [
  ...halves('plain', plain),
  ['older labelled set', read('search-queries.json')],
  ...halves('independent', independent),
];

const library = loadBuiltinLibrary();
const settings = loadConfig().embeddings;
const embedders: [string, (lib: FrameworkLibrary) => Promise<Embedder>][] = [
  ['built-in', async (lib) => fitBuiltinEmbedder(lib.frameworks)],
];
if (localModelPresent(settings)) {
  embedders.push([settings.modelName, () => loadTransformersEmbedder(settings)]);
} else {
  console.log(`local model: none in ${settings.modelDir} (${settings.modelName}); built-in embedder only`);
}

const rows: Record<string, string | number>[] = [];
for (const [name, make] of embedders) {
  const search = await RequirementSearch.build(library, await make(library));
  for (const [label, queries] of sets) {
    const quality = await evaluateSearch(search, queries);
    rows.push({
      embedder: `${name} (${search.embedder.model})`,
      set: label,
      queries: queries.length,
      'recall@5': quality.recallAt5.toFixed(3),
      'MRR@10': quality.mrr.toFixed(3),
      'nDCG@10': quality.ndcg.toFixed(3),
    });
  }
}
console.table(rows);

// Where the built-in search stands by way of asking (the halves asked for by `--split`).
const builtinSearch = await RequirementSearch.build(library, fitBuiltinEmbedder(library.frameworks));
const styles = [...new Set(plain.map((query) => query.style ?? 'other'))].sort();
const byStyle: Record<string, string | number>[] = [];
for (const style of styles) {
  const queries = plain.filter((query) => (query.style ?? 'other') === style);
  const quality = await evaluateSearch(builtinSearch, queries);
  byStyle.push({
    style,
    queries: queries.length,
    'recall@5': quality.recallAt5.toFixed(3),
    'MRR@10': quality.mrr.toFixed(3),
    'nDCG@10': quality.ndcg.toFixed(3),
  });
}
console.table(byStyle);

const catalog = JSON.parse(
  readFileSync(
    new URL('../test/fixtures/oscal/NIST_SP-800-53_rev5.0.1_catalog-min.json', import.meta.url),
    'utf8',
  ),
);
const big = extendLibrary(library, { frameworks: [importOscalCatalog(catalog).framework] });
const size = big.frameworks.reduce((sum, framework) => sum + framework.requirements.length, 0);
const rssBefore = process.memoryUsage().rss;
let start = performance.now();
const bigEmbedder = fitBuiltinEmbedder(big.frameworks);
const fitted = performance.now() - start;
const bigSearch = await RequirementSearch.build(big, bigEmbedder);
const built = performance.now() - start;
start = performance.now();
lexicalIndex(libraryDocuments(big.frameworks));
console.log(
  `\ncold start with SP 800-53 imported (${size} requirements, target < 3 s): ${built.toFixed(0)} ms ` +
    `(fitting the embedder ${fitted.toFixed(0)} ms; the BM25 index alone ${(performance.now() - start).toFixed(0)} ms)`,
);
const queries = plain.map((query) => query.query);
let n = 0;
console.log(
  `search top-10 over ${size} requirements (target < 10 ms), new query each time: ${await time(
    () => bigSearch.search(`${queries[n % queries.length]} ${n++}`, 10),
    300,
  )}`,
);
console.log(
  `  repeated query (cached): ${await time(() => bigSearch.search(queries[n++ % queries.length], 10), 300)}`,
);
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
console.log(
  `resident memory of this process: ${mb(process.memoryUsage().rss)} (${mb(process.memoryUsage().rss - rssBefore)} more after the large index; heap used ${mb(process.memoryUsage().heapUsed)})`,
);

if (process.env.SEARCH_BENCH_HTTP !== '0') {
  const databaseUrl = await createBenchDatabase('comply_bench_search');
  const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
  const bare = await startBareRoute();
  const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
  try {
    const url = `${daemon.url}/api/v1/cte/embeddings/distance`;
    const body = JSON.stringify({ query: 'can we keep training data on servers in another country?' });
    await fetch(url, { method: 'POST', headers, body });
    const bareLoad = await load('bare route', { url: bare.url });
    const searchLoad = await load('POST /cte/embeddings/distance (top-10, repeated query)', {
      url,
      headers,
      method: 'POST',
      body,
    });
    report(bareLoad, [searchLoad]);
    const rss = readFileSync(`/proc/${daemon.process.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/);
    if (rss) console.log(`daemon resident memory after the load: ${(Number(rss[1]) / 1024).toFixed(0)} MB`);
  } finally {
    await bare.close();
    await daemon.stop();
  }
}
