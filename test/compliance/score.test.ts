import { describe, expect, it } from 'vitest';
import { countStates, scoreByDomain, scoreOf } from '../../src/records/score.js';

const counts = (implemented: number, inProgress: number, notStarted: number, notApplicable = 0) => ({
  implemented,
  inProgress,
  notStarted,
  notApplicable,
});

describe('score formula', () => {
  it.each([
    ['nothing done', counts(0, 0, 38), 0],
    ['everything implemented', counts(38, 0, 0), 100],
    ['everything in progress counts half', counts(0, 10, 0), 50],
    ['10 done, 6 under way, 20 open, 2 excluded: 13/36', counts(10, 6, 20, 2), 36.1],
    ['one of three: rounds down', counts(1, 0, 2), 33.3],
    ['two of three: rounds up', counts(2, 0, 1), 66.7],
    ['an exact half decimal stays', counts(1, 0, 7), 12.5],
    ['one of six', counts(1, 0, 5), 16.7],
    ['exclusions do not count against', counts(1, 0, 0, 37), 100],
  ])('%s', (_case, input, expected) => {
    expect(scoreOf(input)).toBe(expected);
  });

  it('is null when no control applies', () => {
    expect(scoreOf(counts(0, 0, 0, 38))).toBeNull();
    expect(scoreOf(counts(0, 0, 0, 0))).toBeNull();
  });

  it('counts states: an excluded control counts only as not applicable, whatever its status', () => {
    expect(
      countStates([
        { status: 'implemented', applicable: true },
        { status: 'implemented', applicable: false },
        { status: 'in_progress', applicable: true },
        { status: 'not_started', applicable: true },
        { status: 'not_started', applicable: false },
      ]),
    ).toEqual(counts(1, 1, 1, 2));
  });

  it('scores each domain on its own, in the order given', () => {
    const domains = [
      { id: 'A.2', title: 'Policies' },
      { id: 'A.3', title: 'Organization' },
    ];
    const byDomain = scoreByDomain(domains, [
      { domain: 'A.2', status: 'implemented', applicable: true },
      { domain: 'A.2', status: 'in_progress', applicable: true },
      { domain: 'A.3', status: 'not_started', applicable: false },
    ]);
    expect(byDomain).toEqual([
      { domain: 'A.2', domainTitle: 'Policies', score: 75, controlCount: 2, counts: counts(1, 1, 0) },
      {
        domain: 'A.3',
        domainTitle: 'Organization',
        score: null,
        controlCount: 1,
        counts: counts(0, 0, 0, 1),
      },
    ]);
  });
});
