/** Semantic search over a framework library: embed the query (cached), search the vector index. */
import type { FrameworkLibrary } from '../library.js';
import { type Embedder, libraryDocuments } from './embedder.js';
import { LruCache } from './lru-cache.js';
import { type SearchHit, VectorIndex } from './vector-index.js';

export interface SearchResponse {
  query: string;
  model: string;
  results: SearchHit[];
}

export class RequirementSearch {
  private readonly queryCache: LruCache<string, Float32Array>;

  constructor(
    readonly embedder: Embedder,
    readonly index: VectorIndex,
    cacheSize = 512,
  ) {
    this.queryCache = new LruCache(cacheSize);
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

  async search(query: string, limit = 10): Promise<SearchResponse> {
    const vector = await this.embedQuery(query);
    return { query, model: this.embedder.model, results: this.index.search(vector, limit) };
  }
}
