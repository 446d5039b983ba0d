/** recall@5 and MRR of a search over labelled queries (used by the quality test and the bench). */
import type { RequirementSearch } from './requirement-search.js';

export interface LabelledQuery {
  query: string;
  /** `frameworkId:requirementId` */
  expected: string[];
}

export interface SearchQuality {
  /** Mean over queries of |expected ∩ top 5| / min(5, |expected|). */
  recallAt5: number;
  /** Mean reciprocal rank of the first expected hit in the top 10 (0 when none). */
  mrr: number;
  perQuery: { query: string; recallAt5: number; firstRank: number | null }[];
}

export async function evaluateSearch(
  search: RequirementSearch,
  labelled: LabelledQuery[],
): Promise<SearchQuality> {
  const perQuery: SearchQuality['perQuery'] = [];
  for (const { query, expected } of labelled) {
    const refs = (await search.search(query, 10)).results.map(
      (hit) => `${hit.frameworkId}:${hit.requirementId}`,
    );
    const found = expected.filter((ref) => refs.slice(0, 5).includes(ref)).length;
    const first = refs.findIndex((ref) => expected.includes(ref));
    perQuery.push({
      query,
      recallAt5: found / Math.min(5, expected.length),
      firstRank: first >= 0 ? first + 1 : null,
    });
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    recallAt5: mean(perQuery.map((entry) => entry.recallAt5)),
    mrr: mean(perQuery.map((entry) => (entry.firstRank ? 1 / entry.firstRank : 0))),
    perQuery,
  };
}
