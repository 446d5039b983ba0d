/**
 * Compliance Topology Engine benchmark: search quality (recall@5, MRR on test/cte/search-queries.json),
 * search latency (top-10) and gaps + coverage over all frameworks. Run: `npx tsx bench/cte.bench.ts`.
 * Targets: search top-10 < 10 ms, gaps + coverage over all frameworks < 20 ms (built-in embedder).
 */
import { readFileSync } from 'node:fs';
import { libraryConflicts } from '../src/features/cte/conflicts.js';
import { coverageReport } from '../src/features/cte/coverage.js';
import { computeGaps } from '../src/features/cte/gaps.js';
import { type ControlStatus, type OrgControlState, propagateCoverage } from '../src/features/cte/graph.js';
import { loadBuiltinLibrary } from '../src/features/cte/library.js';
import { fitBuiltinEmbedder } from '../src/features/cte/search/create-embedder.js';
import { RequirementSearch } from '../src/features/cte/search/requirement-search.js';
import { evaluateSearch, type LabelledQuery } from '../src/features/cte/search/search-evaluation.js';
import { ISO_42001 } from '../src/shared/vocabulary.js';

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time<T>(
  run: () => T | Promise<T>,
  iterations: number,
): Promise<{ median: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return { median: percentile(samples, 50), p95: percentile(samples, 95) };
}

const ms = (value: number) => `${value.toFixed(3)} ms`;

const library = loadBuiltinLibrary();
const requirementCount = library.frameworks.reduce(
  (sum, framework) => sum + framework.requirements.length,
  0,
);
console.log(
  `library: ${library.frameworks.length} frameworks, ${requirementCount} requirements, ${library.edges.length} edges`,
);

let start = performance.now();
const embedder = fitBuiltinEmbedder(library.frameworks);
console.log(
  `embedder: ${embedder.model}, ${embedder.dimension} dimensions, fitted in ${ms(performance.now() - start)}`,
);
start = performance.now();
const search = await RequirementSearch.build(library, embedder);
console.log(`index: ${search.index.size} vectors embedded in ${ms(performance.now() - start)}`);

const labelled: LabelledQuery[] = JSON.parse(
  readFileSync(new URL('../test/cte/search-queries.json', import.meta.url), 'utf8'),
).queries;
const quality = await evaluateSearch(search, labelled);
console.log(
  `search quality over ${labelled.length} labelled queries: recall@5 ${quality.recallAt5.toFixed(3)}, MRR ${quality.mrr.toFixed(3)}`,
);

const queries = labelled.map((entry) => entry.query);
let next = 0;
const uncached = await time(() => {
  const query = `${queries[next++ % queries.length]} ${next}`;
  return search.search(query, 10);
}, 500);
const cached = await time(() => search.search(queries[next++ % queries.length], 10), 500);
const vector = await search.embedQuery(queries[0]);
const indexOnly = await time(() => search.index.search(vector, 10), 2000);
console.log(
  `search top-10 (target < 10 ms): embed + search median ${ms(uncached.median)}, p95 ${ms(uncached.p95)}`,
);
console.log(
  `  cached query embedding: median ${ms(cached.median)}, p95 ${ms(cached.p95)}; index only: median ${ms(indexOnly.median)}`,
);

const statuses = new Map<string, OrgControlState>();
const cycle: ControlStatus[] = ['implemented', 'in_progress', 'not_started'];
library.framework(ISO_42001)?.requirements.forEach((requirement, i) => {
  statuses.set(requirement.id, {
    status: cycle[i % 3],
    applicable: i % 11 !== 5,
    ...(requirement.id === 'A.6.2.8' ? { evidenceExpired: true } : {}),
  });
});
const context = { aiSystemRiskLevels: ['limited', 'high'] as const };

function gapsAndCoverage() {
  const coverage = propagateCoverage(library, statuses);
  const gaps = library.frameworks.map((framework) =>
    computeGaps(library, coverage, framework.id, {
      ...context,
      aiSystemRiskLevels: [...context.aiSystemRiskLevels],
    }),
  );
  return { gaps, report: coverageReport(library, coverage) };
}

start = performance.now();
const first = gapsAndCoverage();
console.log(
  `gaps + coverage, first call (builds the graph and reach tables): ${ms(performance.now() - start)}`,
);
const steady = await time(gapsAndCoverage, 200);
console.log(
  `gaps + coverage over all frameworks (target < 20 ms): median ${ms(steady.median)}, p95 ${ms(steady.p95)}`,
);
const totalGaps = first.gaps.reduce((sum, report) => sum + report.gaps.length, 0);
console.log(
  `  ${totalGaps} gaps; coverage ${first.report.frameworks.map((row) => `${row.frameworkId} ${row.coverage}`).join(', ')}`,
);

start = performance.now();
const conflicts = libraryConflicts(library);
console.log(
  `conflicts: ${conflicts.length} (${conflicts.filter((c) => c.source === 'computed').length} computed) in ${ms(performance.now() - start)}`,
);
