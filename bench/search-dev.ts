/**
 * Search quality on the development halves of the plain-language and independent sets only (the plain one also
 * by style) and on the older labelled set, for tuning: no test half is read into the measurement. `--misses`
 * lists the development queries whose expected requirements are not all in the top 5, with what came first.
 * Run: `npx tsx bench/search-dev.ts [--misses]`.
 */
import { readFileSync } from 'node:fs';
import { loadBuiltinLibrary } from '../src/features/cte/library.js';
import { fitBuiltinEmbedder } from '../src/features/cte/search/create-embedder.js';
import { RequirementSearch } from '../src/features/cte/search/requirement-search.js';
import { evaluateSearch, type LabelledQuery } from '../src/features/cte/search/search-evaluation.js';

const read = (name: string): LabelledQuery[] =>
  JSON.parse(readFileSync(new URL(`../test/cte/${name}`, import.meta.url), 'utf8')).queries;
const dev = read('search-queries-plain.json').filter((query) => query.split === 'dev');
const independentDev = read('search-queries-fresh.json').filter((query) => query.split === 'dev');
const older = read('search-queries.json');

const library = loadBuiltinLibrary();
const search = await RequirementSearch.build(library, fitBuiltinEmbedder(library.frameworks));
const figures = (quality: { recallAt5: number; mrr: number; ndcg: number }) =>
  `${quality.recallAt5.toFixed(3)} / ${quality.mrr.toFixed(3)} / ${quality.ndcg.toFixed(3)}`;

const devQuality = await evaluateSearch(search, dev);
console.log(`dev half (${dev.length}), recall@5 / MRR@10 / nDCG@10: ${figures(devQuality)}`);
console.log(
  `independent set, dev half (${independentDev.length}): ${figures(await evaluateSearch(search, independentDev))}`,
);
console.log(`older labelled set (${older.length}): ${figures(await evaluateSearch(search, older))}`);
for (const style of [...new Set(dev.map((query) => query.style ?? 'other'))].sort()) {
  const queries = dev.filter((query) => (query.style ?? 'other') === style);
  console.log(`  ${style.padEnd(12)} (${queries.length}): ${figures(await evaluateSearch(search, queries))}`);
}
if (process.argv.includes('--misses')) {
  for (const query of [...dev, ...independentDev]) {
    const { results } = await search.search(query.query, 10);
    const refs = results.map((hit) => `${hit.frameworkId}:${hit.requirementId}`);
    const recall = refs.slice(0, 5).filter((ref) => query.expected.includes(ref)).length;
    if (recall / Math.min(5, query.expected.length) >= 1) continue;
    console.log(`\n[${query.style}] ${query.query}\n  expected ${query.expected.join(' ')}`);
    console.log(`  got      ${refs.slice(0, 5).join(' ')}`);
  }
}
