import { describe, expect, it } from 'vitest';
import { frameworkCoverage, pairwiseCoverage } from '../../src/features/cte/coverage.js';
import { computeGaps } from '../../src/features/cte/gaps.js';
import {
  baseFamily,
  type ControlStatus,
  crosswalkGraph,
  jointStrength,
  type OrgControlState,
  propagateCoverage,
  propagateRecords,
  reachingControls,
  uncoveredByExclusion,
} from '../../src/features/cte/graph.js';
import { loadBuiltinLibrary } from '../../src/features/cte/library.js';
import { ISO_42001, ISO_42001_CLAUSES } from '../../src/shared/vocabulary.js';
import { jointLibrary } from './hand-built.js';

const library = jointLibrary();

/**
 * Statuses from a compact form: `{ 'A.1': 'implemented', 'A.3': 'excluded' }`, with the controls whose
 * evidence has all expired.
 */
function org(states: Record<string, ControlStatus | 'excluded'>, expired: readonly string[] = []) {
  return new Map<string, OrgControlState>(
    Object.entries(states).map(([id, status]) => [
      id,
      {
        ...(status === 'excluded'
          ? { status: 'not_started', applicable: false }
          : { status, applicable: true }),
        ...(expired.includes(id) ? { evidenceExpired: true } : {}),
      },
    ]),
  );
}

const reg = (states: Record<string, ControlStatus | 'excluded'>, id: string) =>
  propagateCoverage(library, org(states)).get('reg', id)!;

const credits = (row: ReturnType<typeof reg>) =>
  row.justifications.map((why) => [why.controlId, why.credit, why.strength]);

describe('joint coverage', () => {
  it('covers at most partly from one control whose edge is a partial overlap (intersect)', () => {
    const r1 = reg({ 'A.1': 'implemented' }, 'R1');
    expect(r1).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(r1.joint).toEqual({
      controls: ['A.1'],
      remaining: [],
      excluded: [],
      inferred: false,
      canCover: false,
      status: 'partial',
    });
    expect(r1.justifications).toHaveLength(1);
    expect(r1.justifications[0]).toMatchObject({ controlId: 'A.1', credit: 'joint', strength: 0.5 });
    expect(r1.justifications[0].path).toHaveLength(1);
    expect(r1.justifications[0].path[0]).toMatchObject({ relationship: 'intersect', credit: 'partial' });
    expect(reg({ 'A.1': 'in_progress' }, 'R1')).toMatchObject({ status: 'partial', strength: 0.25 });
    expect(reg({}, 'R1')).toMatchObject({ status: 'uncovered', justifications: [] });
  });

  it('covers at most partly from a set made only of intersect edges, however many', () => {
    const r7 = reg({ 'A.1': 'implemented', 'A.2': 'implemented' }, 'R7');
    expect(r7).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(r7.joint).toMatchObject({
      controls: ['A.1', 'A.2'],
      remaining: [],
      canCover: false,
      status: 'partial',
    });
    expect(jointStrength(['implemented', 'implemented'], false)).toBe(0.5);
  });

  it('covers a requirement mapped to two controls only when both are implemented', () => {
    const both = reg({ 'A.1': 'implemented', 'A.2': 'implemented' }, 'R2');
    expect(both.status).toBe('covered');
    expect(credits(both)).toEqual([
      ['A.1', 'joint', 1],
      ['A.2', 'joint', 1],
    ]);
    const one = reg({ 'A.1': 'implemented' }, 'R2');
    expect(one).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(one.joint).toMatchObject({ controls: ['A.1', 'A.2'], remaining: ['A.2'], status: 'partial' });
    // The control not started justifies nothing: it is what remains.
    expect(one.justifications.map((why) => why.controlId)).toEqual(['A.1']);
  });

  it('covers a requirement mapped to three controls, whatever the relationship of each', () => {
    const all = reg({ 'A.1': 'implemented', 'A.2': 'implemented', 'A.3': 'implemented' }, 'R3');
    expect(all.status).toBe('covered');
    expect(all.justifications.map((why) => why.controlId)).toEqual(['A.1', 'A.2', 'A.3']);
    expect(all.justifications.every((why) => why.credit === 'joint')).toBe(true);
  });

  it('gives partial when one of three is missing', () => {
    const missing = reg({ 'A.1': 'implemented', 'A.2': 'implemented' }, 'R3');
    expect(missing).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(missing.joint).toMatchObject({ remaining: ['A.3'], status: 'partial' });
  });

  it('gives partial when one of three is in progress, and credits it jointly', () => {
    const started = reg({ 'A.1': 'implemented', 'A.2': 'implemented', 'A.3': 'in_progress' }, 'R3');
    expect(started).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(started.joint?.remaining).toEqual(['A.3']);
    expect(credits(started)).toEqual([
      ['A.1', 'joint', 0.5],
      ['A.2', 'joint', 0.5],
      ['A.3', 'joint', 0.5],
    ]);
    const allStarted = reg({ 'A.1': 'in_progress', 'A.2': 'in_progress', 'A.3': 'in_progress' }, 'R3');
    expect(allStarted).toMatchObject({ status: 'partial', strength: 0.5 });
  });

  it('counts a mapped control whose evidence has all expired as in progress', () => {
    const r2 = propagateCoverage(library, org({ 'A.1': 'implemented', 'A.2': 'implemented' }, ['A.2'])).get(
      'reg',
      'R2',
    )!;
    expect(r2).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(r2.joint).toMatchObject({ controls: ['A.1', 'A.2'], remaining: ['A.2'], status: 'partial' });
    expect(r2.justifications.find((why) => why.controlId === 'A.2')).toMatchObject({
      controlStatus: 'implemented',
      evidenceExpired: true,
      credit: 'joint',
    });
  });

  it('gives nothing jointly when nothing is implemented and some are not started', () => {
    // A.1 in progress reaches R3 by its own intersect hop at a quarter; the set adds nothing.
    const row = reg({ 'A.1': 'in_progress' }, 'R3');
    expect(row.joint?.status).toBe('uncovered');
    expect(row).toMatchObject({ status: 'partial', strength: 0.25 });
    expect(credits(row)).toEqual([['A.1', 'partial', 0.25]]);
    expect(jointStrength(['in_progress', 'not_started'], true)).toBe(0);
    expect(jointStrength(['implemented', 'not_started', 'not_started'], true)).toBe(0.5);
    expect(jointStrength([], true)).toBe(0);
  });

  it('leaves an excluded control out of the set', () => {
    const row = reg({ 'A.1': 'implemented', 'A.2': 'implemented', 'A.3': 'excluded' }, 'R3');
    expect(row.status).toBe('covered');
    expect(row.joint).toMatchObject({ controls: ['A.1', 'A.2'], excluded: ['A.3'], status: 'covered' });
    expect(row.justifications.map((why) => why.controlId)).toEqual(['A.1', 'A.2']);
  });

  it('reports a requirement whose mapped controls are all excluded instead of covering it', () => {
    const statuses = org({ 'A.1': 'excluded', 'A.2': 'implemented' });
    const result = propagateCoverage(library, statuses);
    const r1 = result.get('reg', 'R1')!;
    expect(r1).toMatchObject({ status: 'uncovered', strength: 0, justifications: [] });
    expect(r1.joint).toMatchObject({ controls: [], excluded: ['A.1'], status: 'excluded' });
    expect(uncoveredByExclusion(r1)).toBe(true);
    // R2 keeps A.2 in its set: implemented, it covers R2.
    expect(result.get('reg', 'R2')).toMatchObject({ status: 'covered', joint: { excluded: ['A.1'] } });
    const reported = frameworkCoverage(library, result).find((row) => row.frameworkId === 'reg')!;
    // R3 is partial (A.2 of A.2, A.3), R7 too (intersect only); R1 and R4 (whose stated set is A.1 alone) are
    // uncovered by exclusion.
    expect(reported).toMatchObject({ total: 7, covered: 1, partial: 2, uncovered: 4, excluded: 2 });
    expect(reported.notApplicable).toBe(0);
  });

  it('reads inferred edges only when no source maps the requirement', () => {
    const r4 = reg({ 'A.1': 'implemented' }, 'R4');
    expect(r4.status).toBe('covered');
    expect(r4.joint).toMatchObject({ controls: ['A.1'], inferred: false });
    // A set of inferred edges only is an analyst's reading, not a source's statement: partial at most.
    const r5 = reg({ 'A.4': 'implemented', 'A.5': 'implemented' }, 'R5');
    expect(r5).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(r5.joint).toMatchObject({ controls: ['A.4', 'A.5'], inferred: true, canCover: false });
    expect(reg({ 'A.4': 'implemented' }, 'R5').status).toBe('partial');
    const strict = propagateCoverage(library, org({ 'A.4': 'implemented', 'A.5': 'implemented' }), {
      authoritativeOnly: true,
    });
    expect(strict.get('reg', 'R5')?.status).toBe('uncovered');
    expect(strict.get('reg', 'R5')?.joint).toBeUndefined();
  });

  it('covers at most partly from one control stated narrower than the requirement', () => {
    const r6 = reg({ 'A.5': 'implemented' }, 'R6');
    expect(r6).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(r6.joint).toMatchObject({ controls: ['A.5'], remaining: [], canCover: false, status: 'partial' });
    expect(credits(r6)).toEqual([['A.5', 'joint', 0.5]]);
  });

  it('does not carry joint credit past the mapped requirement', () => {
    const result = propagateCoverage(library, org({ 'A.1': 'implemented', 'A.2': 'implemented' }));
    expect(result.get('reg', 'R2')?.status).toBe('covered');
    // G1 = R2, but G1 has no ISO control of its own: hops from A.1 and A.2 are intersect, then equal.
    expect(result.get('guide', 'G1')).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(result.get('guide', 'G1')?.joint).toBeUndefined();
    expect(result.get('iso-42001', 'A.1')?.joint).toBeUndefined();
  });

  it('says what a control alone would give a requirement', () => {
    const only = reachingControls(library, { frameworkId: 'reg', requirementId: 'R1' });
    expect(only.map((control) => [control.controlId, control.strength, control.credit])).toEqual([
      ['A.1', 0.5, 'joint'],
    ]);
    expect(only[0].path).toHaveLength(1);
    const pair = reachingControls(library, { frameworkId: 'reg', requirementId: 'R2' });
    expect(pair.map((control) => [control.controlId, control.strength, control.credit])).toEqual([
      ['A.1', 0.5, 'joint'],
      ['A.2', 0.5, 'joint'],
    ]);
    const narrower = reachingControls(library, { frameworkId: 'reg', requirementId: 'R6' });
    expect(narrower.map((control) => [control.controlId, control.strength])).toEqual([['A.5', 0.5]]);
    // G1 has no mapped control: what reaches it is a path.
    const path = reachingControls(library, { frameworkId: 'guide', requirementId: 'G1' });
    expect(path.map((control) => [control.controlId, control.credit, control.path.length])).toEqual([
      ['A.1', 'partial', 2],
      ['A.2', 'partial', 2],
    ]);
  });

  it('counts joint coverage in the pairwise matrix', () => {
    const cell = (from: string, to: string) =>
      pairwiseCoverage(library).find((entry) => entry.from === from && entry.to === to)?.coverage;
    // All of ISO: R2–R4 covered; R1 and R7 (intersect only), R5 (inferred only) and R6 (narrower) partial.
    expect(cell('iso-42001', 'reg')).toBe(0.7143);
    // All of ISO reaches G1 through R2 at half strength only.
    expect(cell('iso-42001', 'guide')).toBe(0.5);
  });
});

describe('gaps under the joint rule', () => {
  const gapsFor = (states: Record<string, ControlStatus | 'excluded'>, expired: string[] = []) => {
    const coverage = propagateCoverage(library, org(states, expired));
    return computeGaps(library, coverage, 'reg').gaps;
  };
  const gap = (gaps: ReturnType<typeof gapsFor>, id: string) => gaps.find((entry) => entry.controlId === id);

  it('names every control that remains to implement or finish', () => {
    const gaps = gapsFor({ 'A.1': 'implemented', 'A.2': 'in_progress' });
    const r3 = gap(gaps, 'R3')!;
    expect(r3.status).toBe('partial');
    expect(r3.recommendation).toMatch(
      /^Finish implementing iso-42001 A\.2 "Roles and responsibilities" and implement iso-42001 A\.3 "Event logging": with A\.1 \(implemented\) they are the 3 iso-42001 controls the crosswalk maps to R3 "Record-keeping", which cover it together once all are implemented\./,
    );
    expect(r3.recommendation).toContain('the records register with its retention schedule');
    expect(r3.recommendation).toContain('on A.2 and A.3');
    expect(gap(gaps, 'R1')?.status).toBe('partial');
    expect(gap(gaps, 'R2')?.recommendation).toMatch(/^Finish implementing iso-42001 A\.2 "Roles/);
  });

  it('closes the gap once the last mapped control is implemented', () => {
    const before = gapsFor({ 'A.1': 'implemented', 'A.2': 'implemented' });
    expect(gap(before, 'R3')?.recommendation).toMatch(
      /^Implement iso-42001 A\.3 "Event logging": with A\.1 and A\.2/,
    );
    const after = gapsFor({ 'A.1': 'implemented', 'A.2': 'implemented', 'A.3': 'implemented' });
    expect(gap(after, 'R3')).toBeUndefined();
  });

  it('reports a requirement whose mapped controls are all excluded', () => {
    const gaps = gapsFor({ 'A.1': 'excluded' });
    const r1 = gap(gaps, 'R1')!;
    expect(r1.status).toBe('excluded');
    expect(r1.recommendation).toMatch(
      /^Every iso-42001 control mapped to R1 "Policy" is marked not applicable \(A\.1 "AI policy"\): record why R1 does not apply to you either, or reconsider that exclusion/,
    );
    // R3 keeps A.2 and A.3: the exclusion is mentioned, the remaining controls named.
    const r3 = gap(gaps, 'R3')!;
    expect(r3.status).toBe('uncovered');
    expect(r3.recommendation).toMatch(/^Implement iso-42001 A\.2 "Roles and responsibilities" and A\.3/);
    expect(r3.recommendation).toContain('A.1 is also mapped but excluded as not applicable.');
  });

  it('asks to renew the expired evidence of a mapped control that is implemented', () => {
    const r2 = gap(gapsFor({ 'A.1': 'implemented', 'A.2': 'implemented' }, ['A.2']), 'R2')!;
    expect(r2.status).toBe('partial');
    expect(r2.recommendation).toMatch(
      /^Renew the expired evidence of iso-42001 A\.2 "Roles and responsibilities": with A\.1 \(implemented\) they are the 2 iso-42001 controls/,
    );
  });

  it('says when the mapping rests on inferred edges, and flags expired evidence', () => {
    const gaps = gapsFor({ 'A.4': 'implemented', 'A.5': 'not_started' }, ['A.5']);
    const r5 = gap(gaps, 'R5')!;
    expect(r5.recommendation).toMatch(
      /^Implement iso-42001 A\.5 "Impact assessment" \(renew its expired evidence\)/,
    );
    expect(r5.recommendation).toContain('inference, not a source’s');
    expect(gap(gaps, 'R4')?.recommendation).not.toContain('inference');
  });

  it('asks to document the rest when the one mapped control is stated narrower', () => {
    const r6 = gap(gapsFor({ 'A.5': 'implemented' }), 'R6')!;
    expect(r6.status).toBe('partial');
    expect(r6.recommendation).toContain('Extend the implementation of iso-42001 A.5');
    expect(r6.recommendation).toContain('only in part (A.5 subset of R6)');
  });
});

describe('the joint rule on the shipped crosswalk', () => {
  const shipped = loadBuiltinLibrary();
  const everything = (frameworkIds: readonly string[]) =>
    new Map(
      frameworkIds.map((frameworkId) => [
        frameworkId,
        new Map<string, OrgControlState>(
          shipped
            .framework(frameworkId)!
            .requirements.map((requirement) => [requirement.id, { status: 'implemented', applicable: true }]),
        ),
      ]),
    );

  it('reads EU AI Act Art. 9 as partial from ISO 42001, with the clauses that address it in its set', () => {
    const annexOnly = propagateRecords(shipped, everything([ISO_42001])).get('eu-ai-act', 'Art. 9')!;
    expect(annexOnly).toMatchObject({ status: 'partial', assessment: 'inferred' });
    expect(annexOnly.joint).toMatchObject({ canCover: false, inferred: true });
    expect(annexOnly.joint?.controls).toEqual(expect.arrayContaining(['A.6.2.4', '6.1.2', '6.1.3', '8.2']));
    expect(annexOnly.joint?.remaining).toEqual(expect.arrayContaining(['6.1.2', '6.1.3', '8.2']));
    const withClauses = propagateRecords(shipped, everything([ISO_42001, ISO_42001_CLAUSES]));
    expect(withClauses.get('eu-ai-act', 'Art. 9')).toMatchObject({
      status: 'partial',
      joint: { remaining: [] },
    });
  });

  it('covers nothing through a set made only of intersect or only of inferred edges', () => {
    const coverage = propagateRecords(shipped, everything([ISO_42001, ISO_42001_CLAUSES]));
    const graph = crosswalkGraph(shipped);
    const inferredCovered = coverage.requirements.filter(
      (row) => row.assessment === 'inferred' && row.status === 'covered',
    );
    for (const row of inferredCovered) {
      const fullPath = row.justifications.some((why) => why.credit === 'full');
      const set = graph.mappedSetsFrom(baseFamily(shipped, ISO_42001)).get(graph.nodeOf(row)!);
      const claimsWhole =
        set !== undefined &&
        !set.inferred &&
        set.members.some((member) => graph.relationshipAlong(member.step) !== 'intersect');
      expect(fullPath || claimsWhole, `${row.frameworkId} ${row.requirementId}`).toBe(true);
    }
    // Every set the shipped crosswalk forms from ISO 42001 is of partial overlaps: none can cover.
    for (const set of graph.mappedSetsFrom(baseFamily(shipped, ISO_42001)).values()) {
      const onlyIntersect = set.members.every(
        (member) => graph.relationshipAlong(member.step) === 'intersect',
      );
      if (onlyIntersect || set.inferred) expect(set.canCover).toBe(false);
    }
  });
});
