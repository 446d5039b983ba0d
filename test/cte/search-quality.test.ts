import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { fitBuiltinEmbedder } from '../../src/features/cte/search/create-embedder.js';
import { RequirementSearch } from '../../src/features/cte/search/requirement-search.js';
import { evaluateSearch, type LabelledQuery } from '../../src/features/cte/search/search-evaluation.js';

const labelled: LabelledQuery[] = JSON.parse(
  readFileSync(new URL('./search-queries.json', import.meta.url), 'utf8'),
).queries;

describe('semantic search on the labelled queries (built-in embedder)', () => {
  let search: RequirementSearch;
  beforeAll(async () => {
    const library = loadBuiltinLibrary();
    search = await RequirementSearch.build(library, fitBuiltinEmbedder(library.frameworks));
  });

  it('labels only requirements that exist', () => {
    const library = loadBuiltinLibrary();
    for (const query of labelled) {
      for (const ref of query.expected) {
        const [frameworkId, requirementId] = ref.split(/:(.*)/s);
        expect(library.requirement(frameworkId, requirementId), ref).toBeDefined();
      }
    }
  });

  it('ranks the logging and record-keeping requirements of several frameworks first', async () => {
    const { results } = await search.search('keep logs of AI system events', 5);
    const refs = results.map((hit) => `${hit.frameworkId}:${hit.requirementId}`);
    expect(refs).toEqual(
      expect.arrayContaining(['eu-ai-act:Art. 12', 'iso-42001:A.6.2.8', 'iso-27001:A.8.15']),
    );
    expect(new Set(results.map((hit) => hit.frameworkId)).size).toBeGreaterThanOrEqual(3);
  });

  it('keeps recall@5 and MRR above the measured floor', async () => {
    const { recallAt5, mrr } = await evaluateSearch(search, labelled);
    // Measured 0.892 and 0.981 (0.883 and 0.981 before the officer's wording rules) with builtin-tfidf-svd-v1 at 128 dimensions blended with BM25 and lifted along
    // the crosswalk (0.831 and 1.000 before the everyday questions and the lift).
    expect(recallAt5).toBeGreaterThanOrEqual(0.83);
    expect(mrr).toBeGreaterThanOrEqual(0.93);
  });
});
