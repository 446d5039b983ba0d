import { describe, expect, it } from 'vitest';
import {
  computeConflicts,
  eventRelation,
  libraryConflicts,
  mergeConflicts,
  rulePolarity,
  subjectRelation,
} from '../../src/features/cte/conflicts.js';
import type { Conflict, RequirementParameter } from '../../src/features/cte/framework.types.js';
import { createLibrary, extendLibrary, loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { framework, parameter, requirement } from './hand-built.js';

function pairLibrary(left: RequirementParameter, right: RequirementParameter) {
  return createLibrary({
    frameworks: [
      framework('one', [requirement('R1', 'Left', { legal: true, parameters: [left] })], 'regulation'),
      framework('two', [requirement('R2', 'Right', { legal: true, parameters: [right] })], 'regulation'),
    ],
  });
}

function onlyConflict(left: RequirementParameter, right: RequirementParameter): Conflict {
  const conflicts = computeConflicts(pairLibrary(left, right));
  expect(conflicts).toHaveLength(1);
  return conflicts[0];
}

describe('conflict rules', () => {
  it('finds a contradiction when a retention minimum exceeds a maximum', () => {
    const conflict = onlyConflict(
      parameter('retentionMin', 'P6M', { subject: 'logs' }),
      parameter('retentionMax', 'P3M', { subject: 'logs' }),
    );
    expect(conflict).toMatchObject({ kind: 'contradiction', severity: 'high', source: 'computed' });
    expect(conflict.requirements).toEqual([
      { frameworkId: 'one', requirementId: 'R1', parameter: 'retentionMin' },
      { frameworkId: 'two', requirementId: 'R2', parameter: 'retentionMax' },
    ]);
    expect(conflict.description).toContain('minimum of 6 months exceeds the maximum of 3 months');
  });

  it('finds a tension with a window when the minimum fits under the maximum', () => {
    const conflict = onlyConflict(
      parameter('retentionMax', 'P1Y', { subject: 'logs' }),
      parameter('retentionMin', 'P6M', { subject: 'logs' }),
    );
    expect(conflict.kind).toBe('tension');
    expect(conflict.resolution).toContain('at least 6 months (P6M) and delete them by 1 year (P1Y)');
  });

  it('finds a tension between a fixed minimum and a qualitative limit on personal data in the records', () => {
    const conflict = onlyConflict(
      parameter('retentionMin', 'P6M', { subject: 'logs' }),
      parameter('retentionMax', null, { subject: 'personal-data', qualitative: 'no longer than necessary' }),
    );
    expect(conflict).toMatchObject({ kind: 'tension', severity: 'medium' });
    expect(conflict.resolution).toMatch(/^Keep logs for 6 months \(P6M\)/);
  });

  it('resolves two minimums by the longer one and equal values as an overlap', () => {
    const longer = onlyConflict(
      parameter('retentionPeriod', 'P10Y', { subject: 'technical-documentation' }),
      parameter('retentionMin', 'P5Y', { subject: 'technical-documentation' }),
    );
    expect(longer.kind).toBe('overlap');
    expect(longer.resolution).toContain('10 years (P10Y)');
    const equal = onlyConflict(
      parameter('retentionMin', 'P6M', { subject: 'logs' }),
      parameter('retentionMin', 'P6M', { subject: 'logs' }),
    );
    expect(equal).toMatchObject({ kind: 'overlap', severity: 'low' });
    expect(equal.resolution).toContain('6 months (P6M) for logs satisfies both');
  });

  it('resolves different deadlines for similar events by the shortest, compared numerically', () => {
    const conflict = onlyConflict(
      parameter('notificationDeadline', 'P15D', {
        event: 'serious-incident',
        recipient: 'market-surveillance-authority',
      }),
      parameter('notificationDeadline', 'PT72H', {
        event: 'personal-data-breach',
        recipient: 'data-protection-authority',
      }),
    );
    expect(conflict).toMatchObject({ kind: 'overlap', severity: 'high' });
    expect(conflict.resolution).toMatch(/^The shortest deadline \(PT72H\) satisfies both/);
    // P2D is shorter than PT72H although "2" < "72".
    const days = onlyConflict(
      parameter('notificationDeadline', 'P2D', { event: 'serious-incident' }),
      parameter('notificationDeadline', 'PT72H', { event: 'serious-incident' }),
    );
    expect(days.resolution).toMatch(/^The shortest deadline \(P2D\)/);
  });

  it('ignores deadlines for unrelated events and parameters on unrelated subjects', () => {
    expect(
      computeConflicts(
        pairLibrary(
          parameter('notificationDeadline', 'P14D', { event: 'gpai-threshold-met' }),
          parameter('notificationDeadline', 'PT72H', { event: 'personal-data-breach' }),
        ),
      ),
    ).toEqual([]);
    expect(
      computeConflicts(
        pairLibrary(
          parameter('retentionMin', 'P10Y', { subject: 'technical-documentation' }),
          parameter('retentionMax', 'P1Y', { subject: 'logs' }),
        ),
      ),
    ).toEqual([]);
  });

  it('finds the tension between a bias-testing permission and a general prohibition', () => {
    const conflict = onlyConflict(
      parameter('dataCategoryRule', null, {
        subject: 'special-category-data',
        note: 'allowed only when strictly necessary to detect and correct bias',
      }),
      parameter('dataCategoryRule', null, {
        subject: 'special-category-data',
        note: 'prohibited unless an exception applies',
      }),
    );
    expect(conflict).toMatchObject({ kind: 'tension', severity: 'high' });
    expect(conflict.resolution).toContain('Process special category data only as Framework one R1 allows');
  });

  it('finds transparency against confidentiality', () => {
    const conflict = onlyConflict(
      parameter('disclosureRule', null, {
        subject: 'automated-decision',
        note: 'explain the logic involved',
      }),
      parameter('confidentialityRule', null, {
        subject: 'automated-decision',
        note: 'protect trade secrets',
      }),
    );
    expect(conflict).toMatchObject({ kind: 'tension' });
    expect(conflict.description).toContain('requires disclosing automated decision');
  });

  it('relates subjects, events and rule wording', () => {
    expect(subjectRelation('logs', 'personal-data')).toBe('holds-high');
    expect(subjectRelation('personal-data', 'special-category-data')).toBe('same');
    expect(subjectRelation('logs', 'registration')).toBeUndefined();
    expect(eventRelation('serious-incident', 'serious-incident-death')).toBe('same');
    expect(eventRelation('serious-incident', 'personal-data-breach')).toBe('similar');
    expect(eventRelation('access-request', 'erasure-request')).toBe('similar');
    expect(eventRelation('first-use', 'placing-on-market')).toBeUndefined();
    expect(rulePolarity(parameter('dataCategoryRule', 'prohibited-unless-exception'))).toBe('prohibit');
    expect(rulePolarity(parameter('dataCategoryRule', 'permitted-exceptionally-if-strictly-necessary'))).toBe(
      'permit',
    );
  });

  it('keeps one conflict per requirement pair and never pairs a framework with itself', () => {
    const library = createLibrary({
      frameworks: [
        framework('one', [
          requirement('R1', 'Two parameters', {
            parameters: [
              parameter('retentionMin', 'P6M', { subject: 'logs' }),
              parameter('retentionMin', 'P2Y', { subject: 'logs' }),
            ],
          }),
          requirement('R3', 'Same framework', {
            parameters: [parameter('retentionMax', 'P1M', { subject: 'logs' })],
          }),
        ]),
        framework('two', [
          requirement('R2', 'Limit', { parameters: [parameter('retentionMax', 'P1Y', { subject: 'logs' })] }),
        ]),
      ],
    });
    const conflicts = computeConflicts(library);
    const pairs = conflicts.map((c) => c.requirements.map((r) => r.requirementId).join('-'));
    // Requirements are listed in framework order, so the pair within framework `one` never appears.
    expect(pairs.sort()).toEqual(['R1-R2', 'R3-R2']);
    expect(conflicts.find((c) => c.requirements.some((r) => r.requirementId === 'R1'))?.kind).toBe(
      'contradiction',
    );
  });

  it('drops computed conflicts whose pair a curated conflict already lists', () => {
    const computed = computeConflicts(
      pairLibrary(
        parameter('retentionMin', 'P6M', { subject: 'logs' }),
        parameter('retentionMax', 'P3M', { subject: 'logs' }),
      ),
    );
    const curated: Conflict = {
      conflictId: 'CF-X',
      kind: 'tension',
      severity: 'medium',
      requirements: [
        { frameworkId: 'two', requirementId: 'R2' },
        { frameworkId: 'zzz', requirementId: 'Z' },
        { frameworkId: 'one', requirementId: 'R1' },
      ],
      description: 'listed',
      resolution: 'listed',
      source: 'curated',
    };
    expect(mergeConflicts([curated], computed)).toEqual([curated]);
    expect(mergeConflicts([], computed)).toEqual(computed);
  });
});

describe('conflicts of the built-in library', () => {
  const library = loadBuiltinLibrary();
  const computed = computeConflicts(library);
  const between = (a: string, b: string) =>
    computed.find(
      (c) =>
        c.requirements.some((r) => r.requirementId === a) &&
        c.requirements.some((r) => r.requirementId === b),
    );

  it('derives the listed conflicts from parameters on its own', () => {
    expect(between('Art. 19', 'Art. 5(1)(e)')?.kind).toBe('tension');
    expect(between('Art. 10(5)', 'Art. 9')).toMatchObject({ kind: 'tension', severity: 'high' });
    const clocks = between('Art. 73(2)', 'Art. 33');
    expect(clocks?.kind).toBe('overlap');
    expect(clocks?.resolution).toContain('(PT72H) satisfies both');
  });

  it('merges curated and computed without repeating a listed pair', () => {
    const all = libraryConflicts(library);
    expect(all.filter((c) => c.source === 'curated')).toHaveLength(library.curatedConflicts.length);
    expect(all.some((c) => c.source === 'computed')).toBe(true);
    expect(
      all.find(
        (c) => c.source === 'computed' && c.requirements.some((r) => r.requirementId === 'Art. 10(5)'),
      ),
    ).toBeUndefined();
    for (const conflict of all) {
      expect(['contradiction', 'tension', 'overlap']).toContain(conflict.kind);
      expect(conflict.resolution.length).toBeGreaterThan(10);
    }
  });

  it('finds new conflicts when a framework with parameters is added', () => {
    const synthetic = framework(
      'acme-ai-law',
      [
        requirement('S-1', 'Report security incidents within 24 hours', {
          legal: true,
          parameters: [
            parameter('notificationDeadline', 'PT24H', {
              subject: 'incident-report',
              event: 'security-incident',
              recipient: 'data-protection-authority',
            }),
          ],
        }),
        requirement('S-2', 'Delete logs after one year', {
          legal: true,
          parameters: [parameter('retentionMax', 'P1Y', { subject: 'logs' })],
        }),
      ],
      'regulation',
    );
    const extended = extendLibrary(library, { frameworks: [synthetic] });
    const fresh = libraryConflicts(extended).filter((c) =>
      c.requirements.some((r) => r.frameworkId === 'acme-ai-law'),
    );
    expect(
      libraryConflicts(library).some((c) => c.requirements.some((r) => r.frameworkId === 'acme-ai-law')),
    ).toBe(false);
    const withGdpr = fresh.find((c) =>
      c.requirements.some((r) => r.frameworkId === 'gdpr' && r.requirementId === 'Art. 33'),
    );
    expect(withGdpr?.kind).toBe('overlap');
    expect(withGdpr?.resolution).toContain('The shortest deadline (PT24H) satisfies both');
    const logs = fresh.find((c) => c.requirements.some((r) => r.requirementId === 'Art. 19'));
    expect(logs?.kind).toBe('tension');
    expect(logs?.resolution).toContain('delete them by 1 year (P1Y)');
  });
});
