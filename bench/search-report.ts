/**
 * Search quality on every half of every evaluation set, for reporting a change's effect: the held-out (test)
 * halves are measured here and never in `bench/search-dev.ts`, which is what tuning reads. Run it before and
 * after a change and report both; do not tune on what it prints for a test half.
 * Run: `npx tsx bench/search-report.ts`.
 */
import { readFileSync } from 'node:fs';
import { loadBuiltinLibrary } from '../src/features/cte/library.js';
import { fitBuiltinEmbedder } from '../src/features/cte/search/create-embedder.js';
import { RequirementSearch } from '../src/features/cte/search/requirement-search.js';
import { evaluateSearch, type LabelledQuery } from '../src/features/cte/search/search-evaluation.js';

const read = (name: string): LabelledQuery[] =>
  JSON.parse(readFileSync(new URL(`../test/cte/${name}`, import.meta.url), 'utf8')).queries;

const library = loadBuiltinLibrary();
const search = await RequirementSearch.build(library, fitBuiltinEmbedder(library.frameworks));
const figures = (quality: { recallAt5: number; mrr: number; ndcg: number }) =>
  `${quality.recallAt5.toFixed(3)} / ${quality.mrr.toFixed(3)} / ${quality.ndcg.toFixed(3)}`;

console.log('recall@5 / MRR@10 / nDCG@10');
for (const name of ['search-queries-plain.json', 'search-queries-fresh.json']) {
  const queries = read(name);
  for (const half of ['dev', 'test'] as const) {
    const chosen = queries.filter((query) => query.split === half);
    console.log(`${name} ${half.padEnd(4)} (${chosen.length}): ${figures(await evaluateSearch(search, chosen))}`);
  }
}
const older = read('search-queries.json');
console.log(`search-queries.json (${older.length}): ${figures(await evaluateSearch(search, older))}`);
