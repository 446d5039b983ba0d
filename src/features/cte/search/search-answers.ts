import { LruCache } from '../../../platform/cache/lru-cache.js';
import type { SerializedBody } from '../../../platform/cache/org-read-cache.js';

/** Answers kept per search index, the oldest question's first out (a full answer is about 15 kB). */
export const ANSWERS_PER_INDEX = 512;

/**
 * Serialized answers of one search index, by query as parsed, then limit. Bounded in answers, not questions:
 * one question asked with every limit from 1 to 100 is a hundred answers. A question's answers stay or go
 * together; reading one does not make the question younger (the question last answered longest ago goes
 * first).
 */
export class KeptAnswers {
  private readonly byQuery: LruCache<string, Map<number, SerializedBody>>;

  constructor(capacity = ANSWERS_PER_INDEX) {
    this.byQuery = new LruCache(capacity, (byLimit) => byLimit.size);
  }

  get(query: string, limit: number): SerializedBody | undefined {
    return this.byQuery.peek(query)?.get(limit);
  }

  set(query: string, limit: number, body: SerializedBody): void {
    const byLimit = this.byQuery.peek(query) ?? new Map<number, SerializedBody>();
    byLimit.set(limit, body);
    this.byQuery.set(query, byLimit);
  }
}
