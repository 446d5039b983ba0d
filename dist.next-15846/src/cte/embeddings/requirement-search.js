import { libraryDocuments } from './embedder.js';
import { LruCache } from './lru-cache.js';
import { VectorIndex } from './vector-index.js';
export class RequirementSearch {
    embedder;
    index;
    queryCache;
    constructor(embedder, index, cacheSize = 512) {
        this.embedder = embedder;
        this.index = index;
        this.queryCache = new LruCache(cacheSize);
    }
    /** Embeds every requirement of the library (what the embedding job does before storing the vectors). */
    static async build(library, embedder, cacheSize) {
        const documents = libraryDocuments(library.frameworks);
        const vectors = await embedder.embed(documents.map((document) => document.text));
        return new RequirementSearch(embedder, new VectorIndex(embedder.dimension, documents, vectors), cacheSize);
    }
    async embedQuery(query) {
        const key = query.trim().replace(/\s+/g, ' ').toLowerCase();
        const cached = this.queryCache.get(key);
        if (cached)
            return cached;
        const [vector] = await this.embedder.embed([key]);
        this.queryCache.set(key, vector);
        return vector;
    }
    async search(query, limit = 10) {
        const vector = await this.embedQuery(query);
        return { query, model: this.embedder.model, results: this.index.search(vector, limit) };
    }
}
//# sourceMappingURL=requirement-search.js.map