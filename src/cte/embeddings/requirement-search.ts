/**
 * Search over a framework library: a blend of the dense embedder (cosine similarity of the query with each
 * requirement) and a BM25 lexical ranker over the same requirement texts. The dense side relates texts that
 * share no word; the lexical side rewards the exact words and thesaurus concepts a query shares with a
 * requirement. Score = w·cosine + (1 − w)·BM25 / (best BM25 for this query); `distance` = 1 − score.
 */
import type { FrameworkLibrary } from '../library.js';
import { type Embedder, libraryDocuments, type RequirementDocument } from './embedder.js';
import { LexicalIndex } from './lexical-index.js';
import { LruCache } from './lru-cache.js';
import { type SearchHit, VectorIndex } from './vector-index.js';

export interface SearchResponse {
  query: string;
  model: string;
  results: SearchHit[];
}

/** Weight of the dense similarity in the blend (the rest goes to BM25), measured on the development queries. */
export const DENSE_WEIGHT = 0.5;

/** The lexical index of requirement documents, in index order. */
export function lexicalIndex(documents: readonly RequirementDocument[]): LexicalIndex {
  return new LexicalIndex(documents.map(({ title, text }) => ({ title, text })));
}

export class RequirementSearch {
  private readonly queryCache: LruCache<string, Float32Array>;

  constructor(
    readonly embedder: Embedder,
    readonly index: VectorIndex,
    /** Without it, search is dense only. */
    readonly lexical?: LexicalIndex,
    cacheSize = 512,
    readonly denseWeight = DENSE_WEIGHT,
  ) {
    this.queryCache = new LruCache(cacheSize);
    if (lexical && lexical.size !== index.size) {
      throw new Error('The lexical and vector indexes must hold the same requirements');
    }
  }

  /** Embeds every requirement of the library (what the embedding job does before storing the vectors). */
  static async build(
    library: FrameworkLibrary,
    embedder: Embedder,
    cacheSize?: number,
  ): Promise<RequirementSearch> {
    const documents = libraryDocuments(library.frameworks);
    const vectors = await embedder.embed(documents.map((document) => document.text));
    return new RequirementSearch(
      embedder,
      new VectorIndex(embedder.dimension, documents, vectors),
      lexicalIndex(documents),
      cacheSize,
    );
  }

  async embedQuery(query: string): Promise<Float32Array> {
    const key = query.trim().replace(/\s+/g, ' ').toLowerCase();
    const cached = this.queryCache.get(key);
    if (cached) return cached;
    const [vector] = await this.embedder.embed([key]);
    this.queryCache.set(key, vector);
    return vector;
  }

  /** Blended score of every requirement for a query, in index order. */
  async scores(query: string): Promise<Float32Array> {
    const scores = this.index.similarities(await this.embedQuery(query));
    if (!this.lexical) return scores;
    const lexical = this.lexical.scores(query);
    let best = 0;
    for (const score of lexical) if (score > best) best = score;
    // No query word is in any requirement: the dense similarity alone ranks.
    if (best === 0) return scores;
    const w = this.denseWeight;
    for (let row = 0; row < scores.length; row++) {
      scores[row] = w * scores[row] + ((1 - w) * lexical[row]) / best;
    }
    return scores;
  }

  async search(query: string, limit = 10): Promise<SearchResponse> {
    return { query, model: this.embedder.model, results: this.index.best(await this.scores(query), limit) };
  }
}
