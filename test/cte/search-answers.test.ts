import { describe, expect, it } from 'vitest';
import { KeptAnswers } from '../../src/features/cte/search/search-answers.js';

describe('kept search answers', () => {
  it('answer a question asked again with the same limit only', () => {
    const kept = new KeptAnswers(4);
    kept.set('logs', 10, 'ten');
    expect(kept.get('logs', 10)).toBe('ten');
    expect(kept.get('logs', 5)).toBeUndefined();
    expect(kept.get('Logs', 10)).toBeUndefined();
  });

  it('hold at most their capacity in answers, however the limits vary, the oldest question first out', () => {
    const kept = new KeptAnswers(4);
    for (let limit = 1; limit <= 3; limit += 1) kept.set('first', limit, `first ${limit}`);
    kept.set('second', 10, 'second');
    expect(kept.get('first', 3)).toBe('first 3');
    // A fifth answer: the oldest question goes, with all its limits.
    kept.set('third', 10, 'third');
    expect(kept.get('first', 1)).toBeUndefined();
    expect(kept.get('first', 3)).toBeUndefined();
    expect([kept.get('second', 10), kept.get('third', 10)]).toEqual(['second', 'third']);
    // One question asked with many limits cannot grow past the bound either.
    for (let limit = 1; limit <= 100; limit += 1) kept.set('many', limit, `many ${limit}`);
    const held = Array.from({ length: 100 }, (_, index) => kept.get('many', index + 1)).filter(Boolean);
    expect(held.length).toBeLessThanOrEqual(4);
    kept.set('many', 100, 'again');
    expect(kept.get('many', 100)).toBe('again');
  });
});
