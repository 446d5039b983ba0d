import { describe, expect, it } from 'vitest';
import { KeptAnswers } from '../../src/features/cte/search/search-answers.js';
import { serializedBody } from '../../src/platform/cache/org-read-cache.js';

/** A kept answer's bytes as text. */
const text = (body: Buffer | undefined) => body?.toString('utf8');

describe('kept search answers', () => {
  it('answer a question asked again with the same limit only', () => {
    const kept = new KeptAnswers(4);
    kept.set('logs', 10, serializedBody('ten'));
    expect(text(kept.get('logs', 10))).toBe('ten');
    expect(kept.get('logs', 5)).toBeUndefined();
    expect(kept.get('Logs', 10)).toBeUndefined();
  });

  it('hold at most their capacity in answers, however the limits vary, the oldest question first out', () => {
    const kept = new KeptAnswers(4);
    for (let limit = 1; limit <= 3; limit += 1) kept.set('first', limit, serializedBody(`first ${limit}`));
    kept.set('second', 10, serializedBody('second'));
    expect(text(kept.get('first', 3))).toBe('first 3');
    // A fifth answer: the oldest question goes, with all its limits.
    kept.set('third', 10, serializedBody('third'));
    expect(kept.get('first', 1)).toBeUndefined();
    expect(kept.get('first', 3)).toBeUndefined();
    expect([text(kept.get('second', 10)), text(kept.get('third', 10))]).toEqual(['second', 'third']);
    // One question asked with many limits cannot grow past the bound either.
    for (let limit = 1; limit <= 100; limit += 1) kept.set('many', limit, serializedBody(`many ${limit}`));
    const held = Array.from({ length: 100 }, (_, index) => kept.get('many', index + 1)).filter(Boolean);
    expect(held.length).toBeLessThanOrEqual(4);
    kept.set('many', 100, serializedBody('again'));
    expect(text(kept.get('many', 100))).toBe('again');
  });
});
