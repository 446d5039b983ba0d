/** recall@5, MRR@10 and nDCG@10 of a search over labelled queries (used by the quality tests and the bench). */
import type { SearchHit } from './vector-index.js';

export interface LabelledQuery {
  query: string;
  /** `frameworkId:requirementId` */
  expected: string[];
  /** Plain-language set only: the half a query belongs to (tune on `dev`, report `test`). */
  split?: 'dev' | 'test';
  /** Plain-language set only: who is asking (lawyer, ml, ciso, pm, non-native, terse, officer). */
  style?: string;
}

/** Anything that ranks requirements for a query: the search, or a variant under measurement. */
export interface RankedSearch {
  search(query: string, limit: number): Promise<{ results: readonly SearchHit[] }>;
}

export interface SearchQuality {
  /** Mean over queries of |expected ∩ top 5| / min(5, |expected|). */
  recallAt5: number;
  /** Mean reciprocal rank of the first expected hit in the top 10 (0 when none). */
  mrr: number;
  /** Mean nDCG@10 with binary relevance (the ideal ranking puts every expected requirement first). */
  ndcg: number;
  perQuery: { query: string; recallAt5: number; firstRank: number | null; ndcg: number }[];
}

export async function evaluateSearch(
  search: RankedSearch,
  labelled: LabelledQuery[],
): Promise<SearchQuality> {
  const perQuery: SearchQuality['perQuery'] = [];
  for (const { query, expected } of labelled) {
    const refs = (await search.search(query, 10)).results.map(
      (hit) => `${hit.frameworkId}:${hit.requirementId}`,
    );
    const relevant = new Set(expected);
    const found = refs.slice(0, 5).filter((ref) => relevant.has(ref)).length;
    const first = refs.findIndex((ref) => relevant.has(ref));
    let dcg = 0;
    refs.forEach((ref, i) => {
      if (relevant.has(ref)) dcg += 1 / Math.log2(i + 2);
    });
    let ideal = 0;
    for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
    perQuery.push({
      query,
      recallAt5: found / Math.min(5, relevant.size),
      firstRank: first >= 0 ? first + 1 : null,
      ndcg: ideal > 0 ? dcg / ideal : 0,
    });
  }
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  return {
    recallAt5: mean(perQuery.map((entry) => entry.recallAt5)),
    mrr: mean(perQuery.map((entry) => (entry.firstRank ? 1 / entry.firstRank : 0))),
    ndcg: mean(perQuery.map((entry) => entry.ndcg)),
    perQuery,
  };
}
