/** Answers kept per search index, the oldest question's first out (a full answer is about 15 kB). */
export const ANSWERS_PER_INDEX = 512;

/**
 * Serialized answers of one search index, by query as parsed, then limit. Bounded in answers, not questions:
 * one question asked with every limit from 1 to 100 is a hundred answers.
 */
export class KeptAnswers {
  private readonly byQuery = new Map<string, Map<number, string>>();
  private count = 0;

  constructor(private readonly capacity = ANSWERS_PER_INDEX) {}

  get(query: string, limit: number): string | undefined {
    return this.byQuery.get(query)?.get(limit);
  }

  set(query: string, limit: number, body: string): void {
    let byLimit = this.byQuery.get(query);
    if (!byLimit) {
      byLimit = new Map();
      this.byQuery.set(query, byLimit);
    }
    if (!byLimit.has(limit)) this.count += 1;
    byLimit.set(limit, body);
    while (this.count > this.capacity) {
      const [oldest, answers] = this.byQuery.entries().next().value as [string, Map<number, string>];
      this.byQuery.delete(oldest);
      this.count -= answers.size;
    }
  }
}
