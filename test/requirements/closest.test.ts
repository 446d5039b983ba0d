/** "Did you mean …?" (src/shared/closest.ts): the nearest id when it is near enough to be a slip. */
import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/shared/closest.js';

describe('the nearest id to a near miss', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('A.2.3', 'A.2.3')).toBe(0);
    expect(editDistance('A.2.3', 'A.2.30')).toBe(1);
    expect(editDistance('A.2.3', 'A.23')).toBe(1);
    expect(editDistance('A.2.3', 'A.2.4')).toBe(1);
    expect(editDistance('A.3.2', 'A.2.3')).toBe(2);
    expect(editDistance('GOVREN 1.1', 'GOVERN 1.1')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  const ISO = ['A.2.2', 'A.2.3', 'A.2.4', 'A.6.2.8', 'A.10.4'];

  it('offers the nearest candidate, the first of equals, ignoring case', () => {
    expect(closest('A.2.9', ISO)).toBe('A.2.2');
    expect(closest('a.6.2.8', ISO)).toBe('A.6.2.8');
    expect(closest('A.6.28', ISO)).toBe('A.6.2.8');
    expect(closest('A.10.44', ISO)).toBe('A.10.4');
    expect(closest('Art 26(6)', ['Art. 26(5)', 'Art. 26(6)'])).toBe('Art. 26(6)');
  });

  it('offers nothing for what is no slip, nor what was typed itself', () => {
    expect(closest('B.7', ISO)).toBeUndefined();
    expect(closest('risk assessment', ISO)).toBeUndefined();
    expect(closest('', ISO)).toBeUndefined();
    expect(closest('A.2.2', ['A.2.2'])).toBeUndefined();
    expect(closest('A.2.9', ISO, { maxDistance: 0 })).toBeUndefined();
  });
});
