import { LruCache } from '../../../platform/cache/lru-cache.js';
/** Answers kept per search index, the oldest question's first out (a full answer is about 15 kB). */
export const ANSWERS_PER_INDEX = 512;
/**
 * Serialized answers of one search index, by query as parsed, then limit. Bounded in answers, not questions:
 * one question asked with every limit from 1 to 100 is a hundred answers. A question's answers stay or go
 * together; reading one does not make the question younger (the question last answered longest ago goes
 * first).
 */
export class KeptAnswers {
    byQuery;
    constructor(capacity = ANSWERS_PER_INDEX) {
        this.byQuery = new LruCache(capacity, (byLimit) => byLimit.size);
    }
    get(query, limit) {
        return this.byQuery.peek(query)?.get(limit);
    }
    set(query, limit, body) {
        const byLimit = this.byQuery.peek(query) ?? new Map();
        byLimit.set(limit, body);
        this.byQuery.set(query, byLimit);
    }
}
//# sourceMappingURL=search-answers.js.map