/**
 * Assessments of every framework, propagation side: direct records of any framework propagate along the
 * crosswalk (graph.ts), a direct record wins for its own requirement while `inferred` still shows what the
 * crosswalk gives, a withdrawal falls back to the inference, scores per framework say how much rests on
 * inference, and history of a framework other than ISO 42001 is rebuilt exactly from the change log.
 *
 * Expectations come from the rule (an independent oracle in helpers.ts and hand counts), and every premise
 * about the shipped crosswalk is asserted where it is used.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { propagateRecords } from '../../src/features/cte/graph.js';
import { createLibrary } from '../../src/features/cte/library.js';
import { edge, framework, requirement } from '../cte/hand-built.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import {
  BUILTIN,
  type Counts,
  counts,
  crosswalk,
  enc,
  expectStatus,
  inferenceFrom,
  neighbourIds,
  neighbours,
  type OrgApi,
  orgApi,
  type Ref,
  requirementIds,
  type Status,
  scoreFor,
  statusOfStrength,
  strengthOf,
} from './helpers.js';

const ref = (frameworkId: string, requirementId: string): Ref => ({ frameworkId, requirementId });

/**
 * Checks every requirement of every built-in framework against the oracle, for an org whose only records
 * are the given implemented ones (ISO 42001 controls otherwise at their default).
 */
async function expectEveryFrameworkToFollowTheRule(a: OrgApi, sources: Ref[]) {
  const strengths = inferenceFrom(sources);
  const bySource = sources.map((source) => inferenceFrom([source]));
  for (const frameworkId of BUILTIN) {
    const entries = await a.list(frameworkId);
    const actual = entries.map((entry) => [
      entry.requirementId,
      entry.assessment,
      entry.status,
      entry.inferred.status,
      entry.inferred.from.map((from) => `${from.frameworkId} ${from.requirementId}`).sort(),
    ]);
    const expected = requirementIds(frameworkId).map((id) => {
      const strength = strengthOf(strengths, frameworkId, id);
      const inferred = statusOfStrength(strength);
      // Every source that reaches it: by a path or as a member of its mapped set.
      const from = sources
        .filter((_, index) => strengthOf(bySource[index], frameworkId, id) > 0)
        .map((source) => `${source.frameworkId} ${source.requirementId}`)
        .sort();
      const own = sources.some((source) => source.frameworkId === frameworkId && source.requirementId === id);
      if (own) return [id, 'direct', 'implemented', inferred, from];
      if (frameworkId === 'iso-42001') return [id, 'direct', 'not_started', inferred, from];
      return [id, strength >= 0.25 ? 'inferred' : 'none', inferred, inferred, from];
    });
    expect(actual, frameworkId).toEqual(expected);

    // The framework's score counts those statuses; the direct score only the sources.
    const statuses = expected.map(([, , status]) => status as Status);
    const effective = countOf(statuses);
    const score = await a.compliance(frameworkId);
    expect(score.counts, frameworkId).toEqual(effective);
    expect(score.score, frameworkId).toBe(scoreFor(effective));
    const direct = expected.filter(([, assessment]) => assessment === 'direct');
    expect(score.assessed, frameworkId).toEqual({
      direct: direct.length,
      inferred: expected.filter(([, assessment]) => assessment === 'inferred').length,
      none: expected.filter(([, assessment]) => assessment === 'none').length,
    });
    const directImplemented = direct.filter(([, , status]) => status === 'implemented').length;
    expect(score.directScore, frameworkId).toBe(
      scoreFor(counts(directImplemented, 0, statuses.length - directImplemented)),
    );
  }
}

function countOf(statuses: Status[], notApplicable = 0): Counts {
  return counts(
    statuses.filter((status) => status === 'implemented').length,
    statuses.filter((status) => status === 'in_progress').length,
    statuses.filter((status) => status === 'not_started').length - notApplicable,
    notApplicable,
  );
}

describe('the hop rule on a hand-built crosswalk', () => {
  // src:S1 = mid:M1; from M1: T1 and T2 are narrower (full hops), T3, T4 and T5 partial; T1 = far:F1 = far2:G1.
  // src:S2 ∩ mid:M2 ∩ tgt:T6 ∩ mid:M3: two partial hops, then a third.
  const library = createLibrary({
    frameworks: [
      framework('iso-42001', [requirement('A.1', 'Base control')]),
      framework('src', [requirement('S1', 'Source'), requirement('S2', 'Second source')]),
      framework('mid', [
        requirement('M1', 'Middle'),
        requirement('M2', 'Middle 2'),
        requirement('M3', 'M 3'),
      ]),
      framework(
        'tgt',
        ['T1', 'T2', 'T3', 'T4', 'T5', 'T6'].map((id) => requirement(id, `Target ${id}`)),
      ),
      framework('far', [requirement('F1', 'Three hops away')]),
      framework('far2', [requirement('G1', 'Four hops away')]),
    ],
    edges: [
      edge('src:S1', 'equal', 'mid:M1'),
      edge('mid:M1', 'superset', 'tgt:T1'), // M1 ⊇ T1: full
      edge('tgt:T2', 'subset', 'mid:M1'), // read from M1: superset, full
      edge('mid:M1', 'subset', 'tgt:T3'), // M1 ⊆ T3: partial
      edge('tgt:T4', 'superset', 'mid:M1'), // read from M1: subset, partial
      edge('mid:M1', 'intersect', 'tgt:T5'),
      edge('tgt:T1', 'equal', 'far:F1'),
      edge('far:F1', 'equal', 'far2:G1'),
      edge('src:S2', 'intersect', 'mid:M2'),
      edge('mid:M2', 'intersect', 'tgt:T6'),
      edge('tgt:T6', 'intersect', 'mid:M3'),
    ],
  });
  const run = (src: Record<string, { status: Status; applicable?: boolean }>, tgt = {}) =>
    propagateRecords(
      library,
      new Map([
        [
          'src',
          new Map(Object.entries(src).map(([id, state]) => [id, { applicable: true, ...state }] as const)),
        ],
        ['tgt', new Map(Object.entries(tgt))],
      ]),
    );
  const view = (result: ReturnType<typeof run>, frameworkId: string, id: string) => {
    const row = result.get(frameworkId, id)!;
    return [row.assessment, row.status, row.strength, row.inferredStatus];
  };

  it('keeps the strength over full hops and halves it over partial ones, in either direction', () => {
    const result = run({ S1: { status: 'implemented' }, S2: { status: 'implemented' } });
    expect(view(result, 'mid', 'M1')).toEqual(['inferred', 'covered', 1, 'covered']);
    expect(view(result, 'tgt', 'T1')).toEqual(['inferred', 'covered', 1, 'covered']);
    expect(view(result, 'tgt', 'T2')).toEqual(['inferred', 'covered', 1, 'covered']);
    expect(view(result, 'tgt', 'T3')).toEqual(['inferred', 'partial', 0.5, 'partial']);
    expect(view(result, 'tgt', 'T4')).toEqual(['inferred', 'partial', 0.5, 'partial']);
    expect(view(result, 'tgt', 'T5')).toEqual(['inferred', 'partial', 0.5, 'partial']);
    // Three full hops still cover; a fourth is beyond the hop limit.
    expect(view(result, 'far', 'F1')).toEqual(['inferred', 'covered', 1, 'covered']);
    expect(view(result, 'far2', 'G1')).toEqual(['none', 'uncovered', 0, 'uncovered']);
    // Two partial hops give 0.25 (partial); a third, 0.125, is too indirect to claim.
    expect(view(result, 'tgt', 'T6')).toEqual(['inferred', 'partial', 0.25, 'partial']);
    expect(view(result, 'mid', 'M3')).toEqual(['none', 'uncovered', 0, 'uncovered']);
    const [why] = result.get('tgt', 'T1')!.justifications;
    expect(why).toMatchObject({ frameworkId: 'src', controlId: 'S1', credit: 'full', strength: 1 });
    expect(why.path.map((hop) => [hop.from.requirementId, hop.to.requirementId, hop.credit])).toEqual([
      ['S1', 'M1', 'full'],
      ['M1', 'T1', 'full'],
    ]);
    expect(result.get('tgt', 'T3')!.justifications[0].path.map((hop) => hop.credit)).toEqual([
      'full',
      'partial',
    ]);
    expect(result.get('tgt', 'T4')!.justifications[0].path[1]).toMatchObject({
      relationship: 'superset',
      direction: 'reverse',
      credit: 'partial',
    });
  });

  it('gives half for a source in progress, and nothing for one not applicable', () => {
    const inProgress = run({ S1: { status: 'in_progress' } });
    expect(view(inProgress, 'tgt', 'T1')).toEqual(['inferred', 'partial', 0.5, 'partial']);
    expect(view(inProgress, 'tgt', 'T3')).toEqual(['inferred', 'partial', 0.25, 'partial']);
    const excluded = run({ S1: { status: 'implemented', applicable: false } });
    expect(view(excluded, 'tgt', 'T1')).toEqual(['none', 'uncovered', 0, 'uncovered']);
  });

  it('lets a direct record win for its own requirement, and still shows the inference', () => {
    const result = run(
      { S1: { status: 'implemented' } },
      { T1: { status: 'not_started', applicable: true }, T3: { status: 'implemented', applicable: true } },
    );
    const t1 = result.get('tgt', 'T1')!;
    expect(t1).toMatchObject({
      assessment: 'direct',
      orgStatus: 'not_started',
      status: 'uncovered',
      strength: 0,
      inferredStatus: 'covered',
      inferredStrength: 1,
    });
    // A direct record propagates on its own: T1 not started gives F1 nothing, but S1 still reaches it.
    expect(view(result, 'far', 'F1')).toEqual(['inferred', 'covered', 1, 'covered']);
    expect(view(result, 'tgt', 'T3')).toEqual(['direct', 'covered', 1, 'partial']);
  });
});

describe.each(dbKinds)('propagation of every framework’s records on %s', (kind) => {
  let t: TestApp;
  const org = (name: string) => `${kind}-${name}`;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const name of ['nist', 'iso27', 'logging', 'clauses', 'override', 'expired'])
      await t.createOrg(org(name));
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  describe('from a NIST AI RMF subcategory', () => {
    const source = ref('nist-ai-rmf', 'MAP 2.3');
    let a: OrgApi;
    beforeAll(async () => {
      a = orgApi(t, org('nist'));
      await a.status(source.frameworkId, source.requirementId, 'implemented', { reviewer: 'nina' });
    });

    it('gives a mapped ISO 42001 control an inferred status while its own stays direct', async () => {
      // A.7.6 is mapped to MAP 2.3 alone, by an intersect (a partial overlap): partial at most. A.7.3 is
      // mapped to two subcategories.
      expect(neighbourIds(ref('iso-42001', 'A.7.6'), 'nist-ai-rmf')).toEqual(['MAP 2.3']);
      expect(neighbourIds(ref('iso-42001', 'A.7.3'), 'nist-ai-rmf')).toEqual(['MAP 2.3', 'MEASURE 2.10']);
      const alone = await a.get('iso-42001', 'A.7.6');
      expect(alone).toMatchObject({
        status: 'not_started',
        assessment: 'direct',
        applicable: true,
        inferred: { status: 'in_progress', coverage: 'partial', from: [source] },
      });
      expect(alone.inferred.justifications).toEqual([
        expect.objectContaining({
          frameworkId: 'nist-ai-rmf',
          controlId: 'MAP 2.3',
          controlStatus: 'implemented',
          strength: 0.5,
        }),
      ]);
      const partial = await a.get('iso-42001', 'A.7.3');
      expect(partial).toMatchObject({
        status: 'not_started',
        assessment: 'direct',
        inferred: { status: 'in_progress', coverage: 'partial', from: [source] },
      });
      expect(partial.inferred.justifications?.[0].strength).toBe(0.5);
      // ISO 42001 scores count the records only.
      const iso = expectStatus(await a.call('GET', `${a.base}/compliance`), 200).json();
      expect(iso.counts).toEqual(counts(0, 0, 38));
      expect(await a.compliance('iso-42001')).toMatchObject({
        counts: counts(0, 0, 38),
        assessed: { direct: 38, inferred: 0, none: 0 },
        score: 0,
      });
      // The source itself: direct, and nothing reaches it.
      expect(await a.get(source.frameworkId, source.requirementId)).toMatchObject({
        status: 'implemented',
        assessment: 'direct',
        reviewer: 'nina',
        inferred: { status: 'not_started', coverage: 'uncovered', from: [] },
      });
    });

    it('reaches other frameworks over two partial hops, as in progress', async () => {
      expect(neighbourIds(ref('eu-ai-act', 'Art. 10(1)-(4)'), 'nist-ai-rmf')).toEqual([]);
      const entry = await a.get('eu-ai-act', 'Art. 10(1)-(4)');
      expect(entry).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
        reviewer: null,
        inferred: { status: 'in_progress', coverage: 'partial', from: [source] },
      });
      const [best] = entry.inferred.justifications!;
      expect(best).toMatchObject({ credit: 'partial', strength: 0.25 });
      expect(best.path).toHaveLength(2);
      expect(best.path[0].from).toEqual(source);
      expect(best.path[0].to.frameworkId).toBe('iso-42001');
      expect(best.path[1].to).toEqual(ref('eu-ai-act', 'Art. 10(1)-(4)'));
      expect(best.path.map((hop) => hop.credit)).toEqual(['partial', 'partial']);
    });

    it('follows the rule on every requirement of every framework', async () => {
      await expectEveryFrameworkToFollowTheRule(a, [source]);
    });

    it('names the disagreement in the gap of an ISO control recorded as not started', async () => {
      const gap = (await a.gaps('iso-42001')).find((g) => g.controlId === 'A.7.6');
      expect(gap).toMatchObject({ assessment: 'direct', status: 'not_started' });
      expect(gap!.recommendation).toContain(
        'The crosswalk infers partial from nist-ai-rmf MAP 2.3, more than the not started recorded: review the record of A.7.6.',
      );
      // A partial inference above the record is named too; the implemented source itself is no gap.
      const a73 = (await a.gaps('iso-42001')).find((g) => g.controlId === 'A.7.3');
      expect(a73!.recommendation).toContain('The crosswalk infers partial from nist-ai-rmf MAP 2.3');
      expect((await a.gaps('nist-ai-rmf')).some((g) => g.controlId === 'MAP 2.3')).toBe(false);
    });
  });

  describe('from an ISO 27001 control', () => {
    const source = ref('iso-27001', 'A.5.26');
    let a: OrgApi;
    beforeAll(async () => {
      a = orgApi(t, org('iso27'));
      await a.status(source.frameworkId, source.requirementId, 'implemented');
    });

    it('gives partial credit to a GDPR article mapped to it alone by an intersect, and to one mapped to several', async () => {
      expect(neighbourIds(ref('gdpr', 'Art. 34'), 'iso-27001')).toEqual(['A.5.26']);
      expect(neighbourIds(ref('gdpr', 'Art. 33'), 'iso-27001')).toHaveLength(5);
      expect(await a.get('gdpr', 'Art. 34')).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
        inferred: { status: 'in_progress', coverage: 'partial', from: [source] },
      });
      expect(await a.get('gdpr', 'Art. 33')).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
        inferred: { status: 'in_progress', from: [source] },
      });
      // Two partial hops through GDPR Art. 33: the EU AI Act and ISO 42001 (shown beside its record).
      const euAiAct = await a.get('eu-ai-act', 'Art. 73(2)');
      expect(euAiAct).toMatchObject({ assessment: 'inferred', status: 'in_progress' });
      expect(euAiAct.inferred.justifications![0].path.map((hop) => hop.to.requirementId)).toEqual([
        'Art. 33',
        'Art. 73(2)',
      ]);
      expect(await a.get('iso-42001', 'A.8.4')).toMatchObject({
        assessment: 'direct',
        status: 'not_started',
        inferred: { status: 'in_progress', from: [source] },
      });
    });

    it('follows the rule on every requirement of every framework', async () => {
      await expectEveryFrameworkToFollowTheRule(a, [source]);
    });
  });

  describe('from ISO 27001 logging (A.8.15)', () => {
    const source = ref('iso-27001', 'A.8.15');
    let a: OrgApi;
    beforeAll(async () => {
      a = orgApi(t, org('logging'));
      await a.status(source.frameworkId, source.requirementId, 'implemented');
    });

    it('gives ISO 42001 A.6.2.8 and, one hop further, EU AI Act Art. 12 partial credit', async () => {
      expect(neighbourIds(ref('iso-42001', 'A.6.2.8'), 'iso-27001')).toContain('A.8.15');
      expect(await a.get('iso-42001', 'A.6.2.8')).toMatchObject({
        assessment: 'direct',
        status: 'not_started',
        inferred: { status: 'in_progress', coverage: 'partial', from: [source] },
      });
      const article = await a.get('eu-ai-act', 'Art. 12');
      expect(article).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
        inferred: { status: 'in_progress', from: [source] },
      });
      expect(article.inferred.justifications![0].path.map((hop) => hop.to.requirementId)).toEqual([
        'A.6.2.8',
        'Art. 12',
      ]);
    });

    it('follows the rule on every requirement of every framework', async () => {
      await expectEveryFrameworkToFollowTheRule(a, [source]);
    });
  });

  describe('between the ISO management-system clauses', () => {
    const source = ref('iso-42001-clauses', '4.1');
    let a: OrgApi;
    beforeAll(async () => {
      a = orgApi(t, org('clauses'));
      await a.status(source.frameworkId, source.requirementId, 'implemented');
    });

    it('gives the namesake clause partial credit over the Harmonized Structure edge (an intersect)', async () => {
      const hs = crosswalk.filter(
        (e) =>
          e.origin === 'iso-harmonized-structure' &&
          e.source.frameworkId === 'iso-42001-clauses' &&
          e.source.requirementId === '4.1',
      );
      expect(hs.map((e) => e.target)).toEqual([ref('iso-27001-clauses', '4.1')]);
      // Its only mapped 42001 clause, but the edge is an intersect: a partial overlap covers partly at most.
      expect(neighbourIds(ref('iso-27001-clauses', '4.1'), 'iso-42001-clauses')).toEqual(['4.1']);
      expect(await a.get('iso-27001-clauses', '4.1')).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
        inferred: { status: 'in_progress', coverage: 'partial', from: [source] },
      });
      // The same id in the other clause framework is another requirement: no record there.
      expect((await a.get('iso-27001-clauses', '4.1')).updatedAt).toBeNull();
      // GOVERN 1.1 is stated to map to clauses 4.1 and 6.2: half its set.
      expect(neighbourIds(ref('nist-ai-rmf', 'GOVERN 1.1'), 'iso-42001-clauses')).toEqual(['4.1', '6.2']);
      expect(await a.get('nist-ai-rmf', 'GOVERN 1.1')).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
      });
    });

    it('follows the rule on every requirement of every framework', async () => {
      await expectEveryFrameworkToFollowTheRule(a, [source]);
    });
  });

  describe('a direct record over an inference, and its withdrawal', () => {
    const target = ref('nist-ai-rmf', 'GOVERN 1.1');
    const sources = [ref('iso-42001', 'A.2.2'), ref('iso-42001', 'A.2.4')];
    let a: OrgApi;
    const gapOf = async (id: string) => (await a.gaps('nist-ai-rmf')).find((gap) => gap.controlId === id);

    beforeAll(async () => {
      a = orgApi(t, org('override'));
      // GOVERN 1.1 is stated to map to these two ISO 42001 controls, each by an intersect: implementing both
      // covers it only in part.
      expect(neighbourIds(target, 'iso-42001')).toEqual(['A.2.2', 'A.2.4']);
      expect(neighbours(target).filter((n) => n.ref.frameworkId === 'iso-42001' && n.inferred)).toEqual([]);
      for (const source of sources) await a.control(source.requirementId, 'implemented');
    });

    it('infers in progress before anything is recorded', async () => {
      expect(await a.get(target.frameworkId, target.requirementId)).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
        updatedAt: null,
        inferred: { status: 'in_progress', coverage: 'partial' },
      });
      expect(await gapOf('GOVERN 1.1')).toMatchObject({ status: 'partial' });
    });

    it('lets a direct not started win, shows the inference beside it, and says so in the gap', async () => {
      const entry = await a.status(target.frameworkId, target.requirementId, 'not_started', {
        reviewer: 'quinn',
      });
      expect(entry).toMatchObject({
        assessment: 'direct',
        status: 'not_started',
        reviewer: 'quinn',
        inferred: { status: 'in_progress', coverage: 'partial' },
      });
      expect(entry.inferred.from).toHaveLength(2);
      expect(entry.inferred.from).toEqual(expect.arrayContaining(sources));
      const gap = await gapOf('GOVERN 1.1');
      expect(gap).toMatchObject({ assessment: 'direct', status: 'not_started' });
      expect(gap!.recommendation).toMatch(
        /The crosswalk infers partial from iso-42001 A\.2\.[24], more than the not started recorded: review the record of GOVERN 1\.1\./,
      );
      expect(await a.list('nist-ai-rmf', '?assessment=direct')).toEqual([
        expect.objectContaining({ requirementId: 'GOVERN 1.1', status: 'not_started' }),
      ]);
    });

    // Before the withdrawal GOVERN 1.1 counts as its record says; the two ISO controls give GOVERN 1.2 and
    // MAP 4.1 (each mapped to A.2.2 among others) in progress; MEASURE 1.1 is recorded implemented and
    // MANAGE 4.3 excluded (an exclusion only: it leaves the status to the crosswalk, which gives nothing).
    const before = {
      counts: counts(1, 2, 68, 1),
      assessed: { direct: 2, inferred: 2, none: 67 },
      directScore: scoreFor(counts(1, 0, 70, 1)),
    };
    const after = {
      counts: counts(1, 3, 67, 1),
      assessed: { direct: 1, inferred: 3, none: 67 },
      directScore: scoreFor(counts(1, 0, 70, 1)),
    };

    it('scores the framework with effective statuses and says how much rests on inference', async () => {
      // The hand count above agrees with the oracle.
      const strengths = inferenceFrom(sources);
      const reached = requirementIds('nist-ai-rmf').filter(
        (id) => strengthOf(strengths, 'nist-ai-rmf', id) > 0,
      );
      expect(reached.map((id) => [id, statusOfStrength(strengthOf(strengths, 'nist-ai-rmf', id))])).toEqual([
        ['GOVERN 1.1', 'in_progress'],
        ['GOVERN 1.2', 'in_progress'],
        ['MAP 4.1', 'in_progress'],
      ]);
      await a.status('nist-ai-rmf', 'MEASURE 1.1', 'implemented');
      const excluded = await a.applicability('nist-ai-rmf', 'MANAGE 4.3', false, 'We build no AI ourselves');
      expect(excluded).toMatchObject({ applicable: false, assessment: 'none', status: 'not_started' });
      const score = await a.compliance('nist-ai-rmf');
      expect(score).toMatchObject({
        orgId: org('override'),
        frameworkId: 'nist-ai-rmf',
        ...before,
        score: scoreFor(before.counts),
      });
      expect(score.score).toBe(2.8); // (1 + 0.5 × 2) / 71
      expect(score.directScore).toBe(1.4); // 1 / 71
    });

    it('falls back to the inference when the record is withdrawn, and logs the withdrawal', async () => {
      const entry = await a.withdraw(target.frameworkId, target.requirementId);
      expect(entry).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
        reviewer: null,
        justification: null,
        inferred: { status: 'in_progress', coverage: 'partial' },
      });
      expect(await gapOf('GOVERN 1.1')).toMatchObject({ status: 'partial', assessment: 'inferred' });
      expect(await a.list('nist-ai-rmf', '?assessment=direct')).toEqual([
        expect.objectContaining({ requirementId: 'MEASURE 1.1' }),
      ]);
      const score = await a.compliance('nist-ai-rmf');
      expect(score).toMatchObject({ ...after, score: scoreFor(after.counts) });
      expect(score.score).toBe(3.5); // (1 + 0.5 × 3) / 71
      const govern1 = score.byDomain.find((d: { domain: string }) => d.domain === 'GOVERN 1');
      expect(govern1).toEqual({
        domain: 'GOVERN 1',
        domainTitle: expect.any(String),
        controlCount: 7,
        counts: counts(0, 2, 5),
        score: scoreFor(counts(0, 2, 5)),
      });

      const log = await t.db
        .em()
        .execute<
          { field: string; fromValue: string | null; toValue: string | null; actor: string; note: string }[]
        >(
          `select field, from_value as "fromValue", to_value as "toValue", actor, note from requirement_changes
           where org_id = ? and framework_id = ? and requirement_id = ? order by changed_at, id`,
          [org('override'), target.frameworkId, target.requirementId],
        );
      expect(log).toEqual([
        { field: 'status', fromValue: null, toValue: 'not_started', actor: 'quinn', note: null },
        {
          field: 'status',
          fromValue: 'not_started',
          toValue: null,
          actor: expect.any(String),
          note: 'assessment withdrawn',
        },
      ]);
      // Withdrawing again changes nothing and logs nothing.
      expect(await a.withdraw(target.frameworkId, target.requirementId)).toMatchObject({
        assessment: 'inferred',
      });
      const again = await t.db
        .em()
        .execute(
          `select 1 from requirement_changes where org_id = ? and framework_id = ? and requirement_id = ?`,
          [org('override'), target.frameworkId, target.requirementId],
        );
      expect(again).toHaveLength(2);
    });

    it('keeps the current history point equal to the score, and no score before the org existed', async () => {
      const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
      const res = await a.call(
        'GET',
        `${a.base}/frameworks/nist-ai-rmf/compliance/history?interval=daily&from=${yesterday}`,
      );
      const { points } = expectStatus(res, 200).json();
      expect(points).toHaveLength(2);
      expect(points[0]).toMatchObject({ score: null, counts: counts(0, 0, 0) });
      expect(points[1]).toMatchObject({ score: scoreFor(after.counts), counts: after.counts });
    });

    it('lists every framework with its score and coverage, ISO 42001 as the org’s compliance', async () => {
      const res = expectStatus(await a.call('GET', `${a.base}/frameworks`), 200).json();
      expect(res.frameworks.map((f: { frameworkId: string }) => f.frameworkId)).toEqual([...BUILTIN]);
      for (const row of res.frameworks) {
        const score = await a.compliance(row.frameworkId);
        expect(row, row.frameworkId).toMatchObject({
          controlCount: requirementIds(row.frameworkId).length,
          score: score.score,
          counts: score.counts,
          assessed: score.assessed,
          directScore: score.directScore,
        });
        expect(row.name.length).toBeGreaterThan(0);
      }
      const iso = res.frameworks[0];
      const compliance = expectStatus(await a.call('GET', `${a.base}/compliance`), 200).json();
      expect(iso.score).toBe(compliance.score);
      expect(iso.counts).toEqual(compliance.counts);
      expect(iso).toMatchObject({ score: 5.3, coverage: 0.0526 }); // 2 of 38 implemented
      const nist = res.frameworks[1];
      // CTE coverage: MEASURE 1.1 covered, GOVERN 1.1, GOVERN 1.2 and MAP 4.1 partial, of 71.
      expect(nist.coverage).toBe(Math.round(((1 + 0.5 * 3) / 71) * 10_000) / 10_000);
      expect((await a.compliance('iso-42001')).byDomain).toEqual(compliance.byDomain);
    });
  });

  describe('a source whose evidence has all expired', () => {
    let a: OrgApi;
    beforeAll(async () => {
      a = orgApi(t, org('expired'));
      expect(neighbourIds(ref('eu-ai-act', 'Art. 12'), 'iso-42001')).toEqual(['A.6.2.8']);
      await a.control('A.6.2.8', 'implemented');
      const evidence = await a.call('POST', `${a.base}/controls/A.6.2.8/evidence`, {
        type: 'attestation',
        title: 'Logging attestation of 2020',
        effectiveDate: '2020-01-01',
        expiresAt: '2021-01-01',
      });
      expect(expectStatus(evidence, 201).json().expired).toBe(true);
    });

    it('keeps its own record but gives only what in progress gives', async () => {
      expect(await a.get('iso-42001', 'A.6.2.8')).toMatchObject({
        status: 'implemented',
        assessment: 'direct',
        evidenceExpired: true,
      });
      const art12 = await a.get('eu-ai-act', 'Art. 12');
      expect(art12).toMatchObject({
        assessment: 'inferred',
        status: 'in_progress',
        inferred: { status: 'in_progress', coverage: 'partial' },
      });
      expect(art12.inferred.justifications?.[0]).toMatchObject({
        controlStatus: 'implemented',
        evidenceExpired: true,
      });
      // Art. 12, 19 and 26(6): each mapped to A.6.2.8 alone, now in progress.
      expect((await a.compliance('eu-ai-act')).counts).toEqual(counts(0, 3, 57));
    });

    // The replayed history must take its current point from the live analysis: the change log knows nothing
    // of evidence expiry, so a replay alone would count A.6.2.8 (whose evidence expired) as implemented.
    it('gives the same counts in the current history point as in the current score', async () => {
      const score = await a.compliance('eu-ai-act');
      const res = await a.call('GET', `${a.base}/frameworks/eu-ai-act/compliance/history?interval=daily`);
      expect(expectStatus(res, 200).json().points.at(-1)).toMatchObject({
        score: score.score,
        counts: score.counts,
      });
    });
  });

  describe('history of a framework other than ISO 42001', () => {
    const at = (iso: string) => vi.setSystemTime(new Date(iso));
    let a: OrgApi;

    // Changes at chosen instants, through the API. NIST AI RMF counts at the end of each UTC day:
    const expected: [string, number | null, Counts][] = [
      ['2026-02-28', null, counts(0, 0, 0)], // before the org existed
      ['2026-03-01', 0, counts(0, 0, 72)],
      // GOVERN 1.1 in progress, GOVERN 1.2 implemented (at 23:59:59.999)
      ['2026-03-02', 2.1, counts(1, 1, 70)],
      // + ISO A.2.2 (at 00:00:00.000) and A.2.4 implemented: MAP 4.1 inferred in progress; GOVERN 1.1 and
      // 1.2 keep their records
      ['2026-03-03', 2.8, counts(1, 2, 69)],
      ['2026-03-04', 2.8, counts(1, 2, 68, 1)], // + MAP 1.1 excluded
      // GOVERN 1.1 withdrawn: the crosswalk gives it in progress, as its record said
      ['2026-03-05', 2.8, counts(1, 2, 68, 1)],
      ['2026-03-06', 2.8, counts(1, 2, 68, 1)], // today, as of now
    ];

    beforeAll(async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      at('2026-03-01T10:00:00Z');
      await t.createOrg(org('hist'));
      a = orgApi(t, org('hist'));
      at('2026-03-02T09:00:00Z');
      await a.status('nist-ai-rmf', 'GOVERN 1.1', 'in_progress');
      at('2026-03-02T23:59:59.999Z');
      await a.status('nist-ai-rmf', 'GOVERN 1.2', 'implemented');
      at('2026-03-03T00:00:00.000Z');
      await a.control('A.2.2', 'implemented');
      at('2026-03-03T12:00:00Z');
      await a.control('A.2.4', 'implemented');
      at('2026-03-04T12:00:00Z');
      await a.applicability('nist-ai-rmf', 'MAP 1.1', false);
      at('2026-03-05T00:00:00.000Z');
      await a.withdraw('nist-ai-rmf', 'GOVERN 1.1');
      at('2026-03-06T12:00:00Z');
    });
    afterAll(() => {
      vi.useRealTimers();
    });

    const history = async (frameworkId: string, query: string) => {
      const res = await a.call('GET', `${a.base}/frameworks/${enc(frameworkId)}/compliance/history?${query}`);
      return expectStatus(res, 200).json() as {
        interval: string;
        from: string;
        to: string;
        points: {
          periodStart: string;
          periodEnd: string;
          asOf: string;
          score: number | null;
          counts: Counts;
        }[];
      };
    };

    it('rebuilds every daily point exactly, a change at 23:59:59.999 in its day and one at 00:00 in the next', async () => {
      const { interval, points } = await history('nist-ai-rmf', 'interval=daily&from=2026-02-28');
      expect(interval).toBe('daily');
      expect(points.map((p) => [p.periodStart.slice(0, 10), p.score, p.counts])).toEqual(expected);
      expect(points[2]).toMatchObject({
        periodEnd: '2026-03-03T00:00:00.000Z',
        asOf: '2026-03-03T00:00:00.000Z',
      });
      expect(points.at(-1)!.asOf).toBe('2026-03-06T12:00:00.000Z');
      // Every point's score is the formula over its counts; the current one is the current score.
      for (const [, score, c] of expected.slice(1)) expect(score).toBe(scoreFor(c));
      const current = await a.compliance('nist-ai-rmf');
      expect(current.counts).toEqual(points.at(-1)!.counts);
    });

    it('answers a range inside one day, and weeks as of their last instant', async () => {
      const day = await history('nist-ai-rmf', 'from=2026-03-03T06:00:00Z&to=2026-03-03T07:00:00Z');
      expect(day.points.map((p) => [p.periodStart.slice(0, 10), p.counts])).toEqual([
        ['2026-03-03', counts(1, 2, 69)],
      ]);
      const weekly = await history('nist-ai-rmf', 'interval=weekly&from=2026-02-23');
      // ISO weeks: 23 Feb – 1 Mar (the org was created on the Sunday), then 2 – 8 Mar, current.
      expect(weekly.points.map((p) => [p.periodStart.slice(0, 10), p.score, p.counts])).toEqual([
        ['2026-02-23', 0, counts(0, 0, 72)],
        ['2026-03-02', 2.8, counts(1, 2, 68, 1)],
      ]);
    });

    it('rebuilds another framework from the same log: what reaches the EU AI Act, day by day', async () => {
      // Only GOVERN 1.2 (implemented from 2 March) reaches the EU AI Act: through ISO 42001 controls, two
      // partial hops. GOVERN 1.1 in progress gives half of that, too little; A.2.2 and A.2.4 have no EU AI
      // Act requirement within two hops outside ISO 42001.
      const strengths = inferenceFrom([ref('nist-ai-rmf', 'GOVERN 1.2')]);
      const statuses = requirementIds('eu-ai-act').map((id) =>
        statusOfStrength(strengthOf(strengths, 'eu-ai-act', id)),
      );
      const reached = countOf(statuses);
      expect(reached.inProgress).toBeGreaterThan(0);
      const { points } = await history('eu-ai-act', 'from=2026-03-01');
      expect(points.map((p) => [p.periodStart.slice(0, 10), p.counts])).toEqual([
        ['2026-03-01', counts(0, 0, 60)],
        ['2026-03-02', reached],
        ['2026-03-03', reached],
        ['2026-03-04', reached],
        ['2026-03-05', reached],
        ['2026-03-06', reached],
      ]);
      expect((await a.compliance('eu-ai-act')).counts).toEqual(reached);
      // The clauses: the current point is the current score.
      const current = await a.compliance('iso-42001-clauses');
      const now = await history('iso-42001-clauses', 'from=2026-03-06');
      expect(now.points[0].counts).toEqual(current.counts);
      expect(now.points[0].score).toBe(current.score);
    });

    it('reads ISO 42001 on the framework route as on the org’s history route', async () => {
      const query = 'from=2026-02-28&to=2026-03-06';
      const viaFramework = await history('iso-42001', query);
      const viaOrg = expectStatus(await a.call('GET', `${a.base}/compliance/history?${query}`), 200).json();
      expect(viaFramework).toEqual(viaOrg);
      expect(viaFramework.points.map((p) => p.counts.implemented)).toEqual([0, 0, 0, 2, 2, 2, 2]);
    });
  });
});
