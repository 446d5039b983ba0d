import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/shared/closest.js';

const ISO = ['A.2.2', 'A.2.3', 'A.2.4', 'A.3.2', 'A.6.2.2', 'A.6.2.3', 'A.6.2.4'];
const EU = ['Art. 9', 'Art. 10', 'Art. 26(6)', 'Art. 99', 'Annex III'];

describe('closest ids ("did you mean")', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('A.2.33', 'A.2.3')).toBe(1);
    expect(editDistance('A.2.3', 'A.3.2')).toBe(2);
    expect(editDistance('A.23', 'A.32')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('offers the nearest ids only, in the order the list gives them', () => {
    expect(closest('A.2.33', ISO)).toEqual(['A.2.3']);
    expect(closest('A.6.2.9', ISO)).toEqual(['A.6.2.2', 'A.6.2.3', 'A.6.2.4']);
    expect(closest('A.6.2.9', ISO, 2)).toEqual(['A.6.2.2', 'A.6.2.3']);
  });

  it('ignores case and runs of spaces', () => {
    expect(closest('a.2.4', ISO)).toEqual(['A.2.4']);
    expect(closest('art 26(6)', EU)).toEqual(['Art. 26(6)']);
    expect(closest('  Art.   10 ', EU)).toEqual(['Art. 10']);
  });

  it('suggests nothing for an id unlike every candidate', () => {
    expect(closest('B.9', ISO)).toEqual([]);
    expect(closest('GOVERN 1.1', EU)).toEqual([]);
    expect(closest('A.2.2', [])).toEqual([]);
  });
});
