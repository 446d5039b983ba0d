import { describe, expect, it } from 'vitest';
import {
  computeGapDetails,
  computeGaps,
  gapScore,
  priorityFor,
  riskPoints,
} from '../../src/features/cte/gaps.js';
import { type OrgControlState, propagateCoverage } from '../../src/features/cte/graph.js';
import { UnknownFrameworkError } from '../../src/features/cte/library.js';
import { requirement, smallLibrary } from './hand-built.js';

const state = (status: OrgControlState['status'], applicable = true): OrgControlState => ({
  status,
  applicable,
});

describe('gaps', () => {
  const library = smallLibrary();

  it('lists every unmet requirement with a summary equal to the list', () => {
    const coverage = propagateCoverage(library, new Map([['A.2', state('implemented')]]));
    const report = computeGaps(library, coverage, 'law', { aiSystemRiskLevels: ['limited'] });
    expect(report.frameworkId).toBe('law');
    expect(report.gaps.map((gap) => gap.controlId).sort()).toEqual(['L1', 'L3', 'L4']);
    // The spec's four members; `assessment` follows only when asked for.
    for (const gap of report.gaps)
      expect(Object.keys(gap)).toEqual(['controlId', 'priority', 'status', 'recommendation']);
    const assessed = computeGaps(library, coverage, 'law', {
      aiSystemRiskLevels: ['limited'],
      includeAssessment: true,
    });
    expect(assessed.gaps.map((gap) => [gap.controlId, gap.assessment])).toEqual(
      report.gaps.map((gap) => [gap.controlId, coverage.get('law', gap.controlId)!.assessment]),
    );
    for (const gap of assessed.gaps)
      expect(Object.keys(gap)).toEqual(['controlId', 'priority', 'status', 'recommendation', 'assessment']);
    const counted = { critical: 0, important: 0, minor: 0 };
    for (const gap of report.gaps) counted[gap.priority] += 1;
    expect(report.summary).toEqual(counted);
    expect(Object.keys(report)).toEqual(['frameworkId', 'gaps', 'summary']);
  });

  it('shrinks as controls are implemented', () => {
    const none = computeGaps(library, propagateCoverage(library, new Map()), 'law', {});
    const some = computeGaps(
      library,
      propagateCoverage(library, new Map([['A.1', state('implemented')]])),
      'law',
      {},
    );
    const more = computeGaps(
      library,
      propagateCoverage(
        library,
        new Map([
          ['A.1', state('implemented')],
          ['A.3', state('implemented')],
        ]),
      ),
      'law',
      {},
    );
    const started = computeGaps(
      library,
      propagateCoverage(library, new Map([['A.3', state('in_progress')]])),
      'law',
      {},
    );
    expect(none.gaps).toHaveLength(4);
    expect(some.gaps.map((gap) => gap.controlId)).not.toContain('L1');
    expect(started.gaps.find((gap) => gap.controlId === 'L3')?.status).toBe('partial');
    // A.3 is the one control mapped to L3, but it only intersects L3: implemented, it leaves a partial gap.
    expect(more.gaps.map((gap) => [gap.controlId, gap.status])).toEqual([
      ['L2', 'uncovered'],
      ['L3', 'partial'],
      ['L4', 'uncovered'],
    ]);
  });

  it('ranks legal gaps of a high-risk organization as critical and guidance lower', () => {
    const coverage = propagateCoverage(library, new Map());
    const law = computeGapDetails(library, coverage, 'law', { aiSystemRiskLevels: ['minimal', 'high'] });
    const l1 = law.find((gap) => gap.controlId === 'L1')!;
    expect(l1.factors).toMatchObject({ obligation: 'legal', riskLevel: 'high', riskPoints: 2, score: 8 });
    expect(l1.priority).toBe('critical');
    const lowRisk = computeGapDetails(library, coverage, 'law', { aiSystemRiskLevels: ['minimal'] });
    expect(lowRisk.find((gap) => gap.controlId === 'L1')?.priority).toBe('important');
    const guide = computeGapDetails(library, coverage, 'guide', { aiSystemRiskLevels: ['high'] });
    // G1 is voluntary but the route to the legal L1, so it weighs more than plain guidance, less than the law.
    const g1 = guide.find((gap) => gap.controlId === 'G1')!;
    expect(g1.factors.obligation).toBe('supports-legal');
    expect(g1.factors.score).toBeLessThan(l1.factors.score);
  });

  it('counts edge fan-out to other frameworks', () => {
    const details = computeGapDetails(library, propagateCoverage(library, new Map()), 'law', {});
    expect(details.find((gap) => gap.controlId === 'L1')?.factors).toMatchObject({
      linkedFrameworks: 2,
      linkedRequirements: 2,
    });
    expect(details.find((gap) => gap.controlId === 'L4')?.factors.linkedFrameworks).toBe(0);
  });

  it('scores by the documented points', () => {
    const none = { linkedFrameworks: 0, linkedRequirements: 0 };
    expect(gapScore({ ...none, obligation: 'legal', risk: 2, nothingDone: true })).toBe(6);
    expect(gapScore({ ...none, obligation: 'voluntary', risk: 0, nothingDone: false })).toBe(1);
    expect(
      gapScore({
        obligation: 'supports-legal',
        risk: 3,
        linkedFrameworks: 2,
        linkedRequirements: 2,
        nothingDone: true,
      }),
    ).toBe(8);
    expect(
      gapScore({
        obligation: 'context',
        risk: 0,
        linkedFrameworks: 1,
        linkedRequirements: 7,
        nothingDone: false,
      }),
    ).toBe(3);
    expect(
      gapScore({
        obligation: 'legal',
        risk: 0,
        linkedFrameworks: 1,
        linkedRequirements: 1,
        nothingDone: false,
      }),
    ).toBe(4);
    expect([priorityFor(7), priorityFor(6), priorityFor(4), priorityFor(3)]).toEqual([
      'critical',
      'important',
      'important',
      'minor',
    ]);
  });

  it('takes risk points only where the risk level matters', () => {
    const plain = requirement('X', 'Logging', { legal: true, topics: ['logging'] });
    const prohibition = requirement('P', 'Prohibited practices', {
      legal: true,
      topics: ['prohibited-practices'],
    });
    const gpai = requirement('G', 'Model documentation', {
      legal: true,
      topics: ['general-purpose-ai', 'documentation'],
    });
    const penalties = requirement('F', 'Fines', { legal: true, topics: ['penalties', 'legal-compliance'] });
    expect(riskPoints(plain, 'high')).toBe(2);
    expect(riskPoints(plain, null)).toBe(0);
    expect(riskPoints(prohibition, 'high')).toBe(0);
    expect(riskPoints(prohibition, 'unacceptable')).toBe(3);
    expect(riskPoints(gpai, 'high')).toBe(0);
    expect(riskPoints(penalties, 'high')).toBe(0);
  });

  it('orders critical before important before minor', () => {
    const coverage = propagateCoverage(library, new Map([['A.3', state('in_progress')]]));
    const gaps = computeGaps(library, coverage, 'law', { aiSystemRiskLevels: ['high'] }).gaps;
    const order = { critical: 0, important: 1, minor: 2 };
    const ranks = gaps.map((gap) => order[gap.priority]);
    expect(ranks).toEqual([...ranks].sort());
  });

  it('recommends the ISO control that covers the requirement, with evidence and the parameter duty', () => {
    const coverage = propagateCoverage(library, new Map());
    const l1 = computeGaps(library, coverage, 'law', {}).gaps.find((gap) => gap.controlId === 'L1')!;
    expect(l1.status).toBe('uncovered');
    expect(l1.recommendation).toContain('Implement iso-42001 A.1 "Event logging"');
    expect(l1.recommendation).toContain('A.1 superset of L1');
    expect(l1.recommendation).toMatch(/logging configuration/);
    expect(l1.recommendation).toContain('keep logs for at least 6 months');
  });

  it('says to finish an in-progress control that is the one mapped to the requirement', () => {
    const coverage = propagateCoverage(library, new Map([['A.3', state('in_progress')]]));
    const l3 = computeGaps(library, coverage, 'law', {}).gaps.find((gap) => gap.controlId === 'L3')!;
    expect(l3.status).toBe('partial');
    expect(l3.recommendation).toMatch(
      /^Finish implementing iso-42001 A\.3 "Impact assessment": the crosswalk links it only in part \(A\.3 intersects with L3\), so also document how the rest is met\./,
    );
    expect(l3.recommendation).toContain('the completed impact assessment, signed off');
  });

  it('says when a mapping is only partial', () => {
    // G2 has no ISO control of its own: A.3 reaches it through L3, two intersect hops.
    const coverage = propagateCoverage(library, new Map([['A.3', state('implemented')]]));
    const g2 = computeGaps(library, coverage, 'guide', {}).gaps.find((gap) => gap.controlId === 'G2')!;
    expect(g2.status).toBe('partial');
    expect(g2.recommendation).toContain('Extend the implementation of iso-42001 A.3');
    expect(g2.recommendation).toContain('only in part (A.3 intersects with L3, L3 intersects with G2)');
  });

  it('says when no ISO control maps to a requirement', () => {
    const l4 = computeGaps(library, propagateCoverage(library, new Map()), 'law', {}).gaps.find(
      (gap) => gap.controlId === 'L4',
    )!;
    expect(l4.recommendation).toMatch(/^No iso-42001 control maps to L4 "Registration"/);
  });

  it('reports ISO controls with their own status, skips excluded ones, and asks to renew expired evidence', () => {
    const coverage = propagateCoverage(
      library,
      new Map([
        ['A.1', state('implemented')],
        ['A.2', state('in_progress')],
        ['A.3', state('not_started', false)],
      ]),
    );
    const plain = computeGaps(library, coverage, 'iso-42001', {});
    expect(plain.gaps.map((gap) => [gap.controlId, gap.status])).toEqual([['A.2', 'in_progress']]);
    expect(plain.gaps[0].recommendation).toMatch(/^Finish implementing A.2 "Human oversight"/);
    expect(plain.gaps[0].recommendation).toContain('counts toward 1 requirement(s)');
    const expired = computeGaps(
      library,
      propagateCoverage(
        library,
        new Map([
          ['A.1', { ...state('implemented'), evidenceExpired: true }],
          ['A.2', { ...state('in_progress'), evidenceExpired: true }],
          ['A.3', state('not_started', false)],
        ]),
      ),
      'iso-42001',
      {},
    );
    const a1 = expired.gaps.find((gap) => gap.controlId === 'A.1')!;
    expect(a1.status).toBe('implemented');
    expect(a1.recommendation).toMatch(/^Renew the expired evidence on A.1/);
    expect(expired.gaps.find((gap) => gap.controlId === 'A.2')?.recommendation).toContain(
      'renew its expired evidence',
    );
    expect(expired.summary.critical + expired.summary.important + expired.summary.minor).toBe(2);
  });

  it('mentions expired evidence on the control a gap depends on', () => {
    const coverage = propagateCoverage(
      library,
      new Map([['A.3', { ...state('in_progress'), evidenceExpired: true }]]),
    );
    const l3 = computeGaps(library, coverage, 'law', {}).gaps.find((gap) => gap.controlId === 'L3')!;
    expect(l3.recommendation).toContain('renew its expired evidence');
  });

  it('rejects an unknown framework', () => {
    expect(() => computeGaps(library, propagateCoverage(library, new Map()), 'nope', {})).toThrow(
      UnknownFrameworkError,
    );
  });
});
