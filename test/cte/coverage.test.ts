import { describe, expect, it } from 'vitest';
import {
  coverageFraction,
  coverageReport,
  frameworkCoverage,
  pairwiseCoverage,
} from '../../src/features/cte/coverage.js';
import { computeGaps } from '../../src/features/cte/gaps.js';
import { propagateCoverage } from '../../src/features/cte/graph.js';
import { loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { smallLibrary } from './hand-built.js';

describe('coverage', () => {
  const library = smallLibrary();

  it('computes (covered + 0.5 × partial) / total to four decimals', () => {
    expect(coverageFraction(1, 1, 3)).toBe(0.5);
    expect(coverageFraction(1, 0, 3)).toBe(0.3333);
    expect(coverageFraction(2, 1, 3)).toBe(0.8333);
    expect(coverageFraction(0, 0, 0)).toBeNull();
  });

  it('counts each framework for the organization', () => {
    const result = propagateCoverage(
      library,
      new Map([
        ['A.1', { status: 'implemented', applicable: true }],
        ['A.2', { status: 'not_started', applicable: false }],
        ['A.3', { status: 'in_progress', applicable: true }],
      ]),
    );
    const rows = frameworkCoverage(library, result);
    expect(rows).toEqual([
      {
        frameworkId: 'iso-42001',
        total: 2,
        covered: 1,
        partial: 1,
        uncovered: 0,
        coverage: 0.75,
        notApplicable: 1,
        excluded: 0,
      },
      {
        frameworkId: 'law',
        total: 4,
        covered: 1,
        partial: 1,
        uncovered: 2,
        coverage: 0.375,
        notApplicable: 0,
        // L2's only mapped control, A.2, is excluded: L2 stays uncovered and is counted here.
        excluded: 1,
      },
      {
        frameworkId: 'guide',
        total: 2,
        covered: 1,
        partial: 0,
        uncovered: 1,
        coverage: 0.5,
        notApplicable: 0,
        excluded: 0,
      },
    ]);
    for (const row of rows) expect(row.covered + row.partial + row.uncovered).toBe(row.total);
  });

  it('computes pairwise coverage through the crosswalk', () => {
    const matrix = pairwiseCoverage(library);
    const cell = (from: string, to: string) =>
      matrix.find((entry) => entry.from === from && entry.to === to)?.coverage;
    expect(matrix).toHaveLength(6);
    // All of ISO: L1 and L2 covered (full hops), L3 partial (its one mapped control only intersects it), L4
    // uncovered.
    expect(cell('iso-42001', 'law')).toBe(0.625);
    // All of the law: A.1 partial (its one mapped requirement L1 is stated narrower), A.2 covered (equal),
    // A.3 partial (its one mapped requirement L3 only intersects it).
    expect(cell('law', 'iso-42001')).toBe(0.6667);
    // All of ISO reaches G1 fully (A.1 ⊇ L1 = G1) and G2 at a quarter (partial: joint credit stays one hop).
    expect(cell('iso-42001', 'guide')).toBe(0.75);
    // All of the guide: L1 (= G1) covered, L3 partial (G2, its one mapped requirement, only intersects it), L2
    // and L4 unreached.
    expect(cell('guide', 'law')).toBe(0.375);
  });

  it('bundles organization rows and the matrix', () => {
    const report = coverageReport(library, propagateCoverage(library, new Map()));
    expect(report.frameworks.map((row) => row.coverage)).toEqual([0, 0, 0]);
    expect(report.pairwise).toBe(pairwiseCoverage(library));
  });
});

describe('expired evidence on the built-in frameworks', () => {
  const library = loadBuiltinLibrary();
  const withLogging = (evidenceExpired: boolean) =>
    propagateCoverage(
      library,
      new Map([['A.6.2.8', { status: 'implemented' as const, applicable: true, evidenceExpired }]]),
    );
  const counts = (result: ReturnType<typeof withLogging>, frameworkId: string) =>
    frameworkCoverage(library, result).find((row) => row.frameworkId === frameworkId);

  it('propagates A.6.2.8 with all its evidence expired as in progress, down to EU AI Act Art. 12', () => {
    const fresh = withLogging(false);
    const stale = withLogging(true);
    // Every shipped edge is an intersect: one control, however current, covers Art. 12 only in part.
    expect(fresh.get('eu-ai-act', 'Art. 12')).toMatchObject({ status: 'partial', strength: 0.5 });
    const art12 = stale.get('eu-ai-act', 'Art. 12')!;
    expect(art12).toMatchObject({ status: 'partial', strength: 0.25 });
    expect(art12.justifications).toEqual([
      expect.objectContaining({ controlId: 'A.6.2.8', controlStatus: 'implemented', evidenceExpired: true }),
    ]);
    expect(counts(fresh, 'eu-ai-act')).toMatchObject({ covered: 0, partial: 3 });
    expect(counts(stale, 'eu-ai-act')).toMatchObject({ covered: 0, partial: 3 });
    expect(counts(fresh, 'iso-42001')).toMatchObject({ covered: 1, partial: 0 });
    expect(counts(stale, 'iso-42001')).toMatchObject({ covered: 0, partial: 1 });
  });

  it('gives gaps that agree with the coverage', () => {
    const stale = withLogging(true);
    expect(
      computeGaps(library, stale, 'iso-42001').gaps.find((gap) => gap.controlId === 'A.6.2.8'),
    ).toMatchObject({
      status: 'implemented',
      recommendation: expect.stringMatching(/^Renew the expired evidence on A\.6\.2\.8/),
    });
    expect(
      computeGaps(library, stale, 'eu-ai-act').gaps.find((gap) => gap.controlId === 'Art. 12'),
    ).toMatchObject({
      status: 'partial',
      recommendation: expect.stringMatching(/^Renew the expired evidence of iso-42001 A\.6\.2\.8 /),
    });
    expect(
      computeGaps(library, withLogging(false), 'eu-ai-act').gaps.find((gap) => gap.controlId === 'Art. 12'),
    ).toMatchObject({ status: 'partial', recommendation: expect.stringContaining('only in part') });
  });
});
