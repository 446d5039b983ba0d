/**
 * Search over a framework library: a blend of the dense embedder (cosine similarity of the query with each
 * requirement) and two BM25 rankers, one over whole requirement texts and one over each requirement's
 * plain-language phrases and first-person situations taken one at a time (a requirement scores its best
 * phrase). The dense side relates texts that share no word; the lexical sides reward the exact words and
 * thesaurus concepts a query shares with a requirement or with one question it answers. Each BM25 score is
 * divided by the best score of the query, so all three lie in [0, 1]: score = wd·cosine + wt·text +
 * wp·phrase; `distance` = 1 − score.
 *
 * A question that one framework answers is usually answered by that requirement's crosswalk neighbours in the
 * others too, even when their wording shares nothing with the question. So the few best-scored requirements
 * lift the requirements a shipped crosswalk edge joins them to: a neighbour gains a share of the lifting
 * requirement's score but never passes it.
 *
 * Before the lift, the best few requirements of the blend act as a second query (pseudo-relevance feedback,
 * `FEEDBACK`): every requirement gains a share of its cosine with their centroid, and the sum is divided by
 * 1 + that share so that scores stay in [0, 1] and `distance` = 1 − score stays ≥ 0.
 */

import { LruCache } from '../../../platform/cache/lru-cache.js';
import type { LibraryEdge } from '../framework.types.js';
import { type FrameworkLibrary, requirementKey } from '../library.js';
import { type Embedder, libraryDocuments, type RequirementDocument } from './embedder.js';
import { LexicalIndex, PhraseIndex } from './lexical-index.js';
import { searchPhrases, searchSituations } from './search-phrases.js';
import { type IndexedRequirement, type SearchHit, VectorIndex } from './vector-index.js';

export interface SearchResponse {
  query: string;
  model: string;
  results: SearchHit[];
}

/** Weights of the blend, measured on the development half of the plain-language queries. */
export const SEARCH_WEIGHTS = { dense: 0.35, text: 0.35, phrases: 0.3 };

/** How many of the best requirements lift their crosswalk neighbours, and by what share of their score. */
export const CROSSWALK_LIFT = { sources: 3, share: 0.15 };

/**
 * Pseudo-relevance feedback: the centroid of the `depth` best requirements of the blend (their embeddings,
 * weighted by score) is a second dense query, and every requirement gains `weight` × its cosine with it. A
 * question is usually answered by several requirements written alike (the same duty in another framework, the
 * next article); the best hits find the ones that share no word with the question.
 */
export const FEEDBACK = { depth: 4, weight: 0.3 };

/**
 * The crosswalk neighbours of every indexed requirement, by row. Only shipped edges count: analyst edges change
 * with every mapping decision, and the index is built once per set of framework texts.
 */
export function crosswalkNeighbours(
  items: readonly IndexedRequirement[],
  edges: readonly LibraryEdge[],
): readonly Int32Array[] {
  const rows = new Map(items.map((item, row) => [requirementKey(item.frameworkId, item.requirementId), row]));
  const lists: Set<number>[] = items.map(() => new Set());
  for (const edge of edges) {
    if (edge.added) continue;
    const source = rows.get(requirementKey(edge.source.frameworkId, edge.source.requirementId));
    const target = rows.get(requirementKey(edge.target.frameworkId, edge.target.requirementId));
    if (source === undefined || target === undefined || source === target) continue;
    lists[source].add(target);
    lists[target].add(source);
  }
  return lists.map((list) => Int32Array.from(list));
}

/** The lexical side of the search: BM25 over requirement texts and over their phrases, in index order. */
export interface LexicalRankers {
  text: LexicalIndex;
  phrases: PhraseIndex;
}

export function lexicalIndex(documents: readonly RequirementDocument[]): LexicalRankers {
  return {
    text: new LexicalIndex(documents.map(({ title, text }) => ({ title, text }))),
    phrases: new PhraseIndex(
      documents.length,
      documents.flatMap((document, item) =>
        [
          ...searchPhrases(document.frameworkId, document.requirementId),
          ...searchSituations(document.frameworkId, document.requirementId),
        ].map((phrase) => ({ item, title: document.title, phrase })),
      ),
    ),
  };
}

/** Scores divided by their maximum (all zeros stay zeros); false when nothing matched. */
function scaleToBest(scores: Float64Array): boolean {
  let best = 0;
  for (const score of scores) if (score > best) best = score;
  if (best === 0) return false;
  for (let i = 0; i < scores.length; i++) scores[i] /= best;
  return true;
}

export class RequirementSearch {
  private readonly queryCache: LruCache<string, Float32Array>;

  constructor(
    readonly embedder: Embedder,
    readonly index: VectorIndex,
    /** Without it, search is dense only. */
    readonly lexical?: LexicalRankers,
    /** Crosswalk neighbours by row (`crosswalkNeighbours`); without them no requirement lifts another. */
    readonly neighbours?: readonly Int32Array[],
    cacheSize = 512,
    readonly weights = SEARCH_WEIGHTS,
    readonly lift = CROSSWALK_LIFT,
    readonly feedback = FEEDBACK,
  ) {
    this.queryCache = new LruCache(cacheSize);
    if (lexical && (lexical.text.size !== index.size || lexical.phrases.size !== index.size)) {
      throw new Error('The lexical and vector indexes must hold the same requirements');
    }
    if (neighbours && neighbours.length !== index.size) {
      throw new Error('The crosswalk neighbours and the vector index must hold the same requirements');
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
      crosswalkNeighbours(documents, library.edges),
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

  /** Score of every requirement for a query, in index order: the blend, then the crosswalk lift. */
  async scores(query: string): Promise<Float32Array> {
    const scores = await this.blendedScores(query);
    if (this.feedback.depth > 0 && this.feedback.weight > 0) this.addFeedback(scores);
    if (this.neighbours) this.liftNeighbours(scores, this.neighbours);
    return scores;
  }

  /** Every requirement gains its cosine with the centroid of the best few (weighted by their score). */
  private addFeedback(scores: Float32Array): void {
    const rows = this.index.bestRows(scores, this.feedback.depth);
    const centroid = new Float32Array(this.index.dimension);
    for (const row of rows) {
      const vector = this.index.vector(row);
      const weight = scores[row];
      for (let k = 0; k < centroid.length; k++) centroid[k] += weight * vector[k];
    }
    const similarity = this.index.similarities(centroid);
    const weight = this.feedback.weight;
    for (let row = 0; row < scores.length; row++) {
      scores[row] = (scores[row] + weight * similarity[row]) / (1 + weight);
    }
  }

  /** The best requirements raise their crosswalk neighbours, up to their own score (the largest lift counts). */
  private liftNeighbours(scores: Float32Array, neighbours: readonly Int32Array[]): void {
    const sources = this.index.bestRows(scores, this.lift.sources);
    const own = Float32Array.from(scores);
    for (const source of sources) {
      const lift = this.lift.share * own[source];
      for (const neighbour of neighbours[source]) {
        scores[neighbour] = Math.max(scores[neighbour], Math.min(own[neighbour] + lift, own[source]));
      }
    }
  }

  private async blendedScores(query: string): Promise<Float32Array> {
    const scores = this.index.similarities(await this.embedQuery(query));
    if (!this.lexical) return scores;
    const text = this.lexical.text.scores(query);
    // No query word is in any requirement: the dense similarity alone ranks.
    if (!scaleToBest(text)) return scores;
    const phrases = this.lexical.phrases.scores(query);
    scaleToBest(phrases);
    const { dense, text: wt, phrases: wp } = this.weights;
    for (let row = 0; row < scores.length; row++) {
      scores[row] = dense * scores[row] + wt * text[row] + wp * phrases[row];
    }
    return scores;
  }

  /**
   * The `limit` best requirements, of one framework when `frameworkId` is given: every requirement is scored
   * as in an unfiltered search (the feedback and the lift read the whole library), then only that
   * framework's compete for the places.
   */
  async search(query: string, limit = 10, frameworkId?: string): Promise<SearchResponse> {
    const scores = await this.scores(query);
    if (frameworkId !== undefined) {
      for (let row = 0; row < scores.length; row++) {
        if (this.index.item(row).frameworkId !== frameworkId) scores[row] = Number.NEGATIVE_INFINITY;
      }
    }
    return { query, model: this.embedder.model, results: this.index.best(scores, limit) };
  }
}
