import { describe, expect, it } from 'vitest';
import {
  crosswalkGraph,
  describeHop,
  type OrgControlState,
  propagateCoverage,
  reachingControls,
} from '../../src/features/cte/graph.js';
import { createLibrary, extendLibrary } from '../../src/features/cte/library.js';
import { edge, framework, requirement, smallLibrary } from './hand-built.js';

const implemented: OrgControlState = { status: 'implemented', applicable: true };
const inProgress: OrgControlState = { status: 'in_progress', applicable: true };

describe('crosswalk propagation', () => {
  it('leaves everything uncovered when nothing is implemented', () => {
    const result = propagateCoverage(smallLibrary(), new Map());
    expect(result.requirements.every((row) => row.status === 'uncovered')).toBe(true);
    expect(result.get('iso-42001', 'A.1')?.orgStatus).toBe('not_started');
  });

  it('gives full credit from a control whose scope contains the target (reverse of subset)', () => {
    const result = propagateCoverage(smallLibrary(), new Map([['A.1', implemented]]));
    const l1 = result.get('law', 'L1')!;
    expect(l1.status).toBe('covered');
    expect(l1.justifications).toHaveLength(1);
    const [why] = l1.justifications;
    expect(why.controlId).toBe('A.1');
    expect(why.credit).toBe('full');
    expect(why.path).toHaveLength(1);
    expect(why.path[0]).toMatchObject({ relationship: 'subset', direction: 'reverse', credit: 'full' });
    expect(describeHop(why.path[0])).toBe('A.1 superset of L1');
  });

  it('gives only partial credit from a subset: implementing L1 does not cover all of A.1', () => {
    const library = smallLibrary();
    const graph = crosswalkGraph(library);
    const reach = graph.reachFrom(graph.nodeOf({ frameworkId: 'law', requirementId: 'L1' })!);
    const a1 = reach.find((entry) => graph.refs[entry.node].requirementId === 'A.1');
    expect(a1?.strength).toBe(0.5);
  });

  it('follows equal edges in both directions and over two hops', () => {
    const result = propagateCoverage(
      smallLibrary(),
      new Map([
        ['A.1', implemented],
        ['A.2', implemented],
      ]),
    );
    expect(result.get('law', 'L2')?.status).toBe('covered');
    const g1 = result.get('guide', 'G1')!;
    expect(g1.status).toBe('covered');
    expect(g1.justifications[0].path.map((hop) => hop.to.requirementId)).toEqual(['L1', 'G1']);
  });

  it('halves credit at each partial hop past the mapped controls and drops links weaker than a quarter', () => {
    // L3's only mapped control is A.3, a partial overlap (intersect): partial at most; G2 is two intersect
    // hops away.
    const full = propagateCoverage(smallLibrary(), new Map([['A.3', implemented]]));
    expect(full.get('law', 'L3')).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(full.get('guide', 'G2')).toMatchObject({ status: 'partial', strength: 0.25 });
    expect(full.get('guide', 'G2')?.justifications[0]).toMatchObject({ credit: 'partial', strength: 0.25 });
    const started = propagateCoverage(smallLibrary(), new Map([['A.3', inProgress]]));
    expect(started.get('law', 'L3')).toMatchObject({ status: 'partial', strength: 0.25 });
    expect(started.get('guide', 'G2')).toMatchObject({ status: 'uncovered', justifications: [] });
  });

  it('marks an in-progress control partial on itself and downstream', () => {
    const result = propagateCoverage(smallLibrary(), new Map([['A.2', inProgress]]));
    expect(result.get('iso-42001', 'A.2')).toMatchObject({ status: 'partial', orgStatus: 'in_progress' });
    expect(result.get('law', 'L2')).toMatchObject({ status: 'partial', strength: 0.5 });
  });

  it('propagates an implemented control whose evidence has all expired as in progress, and says why', () => {
    const expired: OrgControlState = { ...implemented, evidenceExpired: true };
    const result = propagateCoverage(smallLibrary(), new Map([['A.1', expired]]));
    expect(result.get('iso-42001', 'A.1')).toMatchObject({
      status: 'partial',
      strength: 0.5,
      orgStatus: 'implemented',
      evidenceExpired: true,
    });
    const l1 = result.get('law', 'L1')!;
    expect(l1).toMatchObject({ status: 'partial', strength: 0.5 });
    expect(l1.justifications).toEqual([
      expect.objectContaining({ controlId: 'A.1', controlStatus: 'implemented', evidenceExpired: true }),
    ]);
    // Two full hops away, G1 gets what an in-progress A.1 gives.
    expect(result.get('guide', 'G1')).toMatchObject({ status: 'partial', strength: 0.5 });
    const renewed = propagateCoverage(smallLibrary(), new Map([['A.1', implemented]]));
    expect(renewed.get('law', 'L1')?.status).toBe('covered');
    expect(renewed.get('law', 'L1')?.justifications[0].evidenceExpired).toBeUndefined();
    expect(renewed.get('iso-42001', 'A.1')?.evidenceExpired).toBeUndefined();
  });

  it('gives no credit from a control marked not applicable', () => {
    const result = propagateCoverage(
      smallLibrary(),
      new Map([['A.2', { status: 'implemented', applicable: false }]]),
    );
    expect(result.get('iso-42001', 'A.2')?.applicable).toBe(false);
    expect(result.get('law', 'L2')?.status).toBe('uncovered');
  });

  it('respects the hop bound', () => {
    const chain = createLibrary({
      frameworks: [
        framework('iso-42001', [requirement('A.1', 'Root')]),
        framework('x', [requirement('X1', 'One')]),
        framework('y', [requirement('Y1', 'Two')]),
        framework('z', [requirement('Z1', 'Three')]),
        framework('w', [requirement('W1', 'Four')]),
      ],
      edges: [
        edge('iso-42001:A.1', 'equal', 'x:X1'),
        edge('x:X1', 'equal', 'y:Y1'),
        edge('y:Y1', 'equal', 'z:Z1'),
        edge('z:Z1', 'equal', 'w:W1'),
      ],
    });
    const statuses = new Map([['A.1', implemented]]);
    const bounded = propagateCoverage(chain, statuses);
    expect(bounded.get('z', 'Z1')?.status).toBe('covered');
    expect(bounded.get('w', 'W1')?.status).toBe('uncovered');
    expect(propagateCoverage(chain, statuses, { maxHops: 4 }).get('w', 'W1')?.status).toBe('covered');
    expect(propagateCoverage(chain, statuses, { maxHops: 1 }).get('y', 'Y1')?.status).toBe('uncovered');
  });

  it('prefers a stronger longer path within the bound over a weaker direct one', () => {
    const library = createLibrary({
      frameworks: [
        framework('iso-42001', [requirement('A.1', 'Root')]),
        framework('x', [requirement('X1', 'Bridge')]),
        framework('y', [requirement('Y1', 'Target')]),
      ],
      edges: [
        edge('iso-42001:A.1', 'intersect', 'y:Y1'),
        edge('iso-42001:A.1', 'superset', 'x:X1'),
        edge('x:X1', 'equal', 'y:Y1'),
      ],
    });
    const y1 = propagateCoverage(library, new Map([['A.1', implemented]])).get('y', 'Y1')!;
    expect(y1.status).toBe('covered');
    expect(y1.justifications[0].path).toHaveLength(2);
  });

  it('never credits a base control from another base control', () => {
    const library = createLibrary({
      frameworks: [
        framework('iso-42001', [requirement('A.1', 'One'), requirement('A.2', 'Two')]),
        framework('x', [requirement('X1', 'Shared')]),
      ],
      edges: [edge('iso-42001:A.1', 'equal', 'x:X1'), edge('x:X1', 'equal', 'iso-42001:A.2')],
    });
    const result = propagateCoverage(library, new Map([['A.1', implemented]]));
    expect(result.get('iso-42001', 'A.2')?.status).toBe('uncovered');
    expect(result.get('x', 'X1')?.status).toBe('covered');
  });

  it('can drop inferred edges', () => {
    const library = createLibrary({
      frameworks: [
        framework('iso-42001', [requirement('A.1', 'One')]),
        framework('x', [requirement('X1', 'Two')]),
      ],
      edges: [edge('iso-42001:A.1', 'equal', 'x:X1', { inferred: true })],
    });
    const statuses = new Map([['A.1', implemented]]);
    expect(propagateCoverage(library, statuses).get('x', 'X1')?.status).toBe('covered');
    expect(propagateCoverage(library, statuses, { authoritativeOnly: true }).get('x', 'X1')?.status).toBe(
      'uncovered',
    );
  });

  it('lists the controls that could cover a requirement, strongest first', () => {
    const library = extendLibrary(smallLibrary(), { edges: [edge('law:L3', 'subset', 'iso-42001:A.2')] });
    const controls = reachingControls(library, { frameworkId: 'law', requirementId: 'L3' });
    expect(controls.map((control) => [control.controlId, control.strength])).toEqual([
      ['A.2', 1],
      ['A.3', 0.5],
    ]);
  });
});

describe('framework library', () => {
  it('keeps edges with a missing end apart and rejects duplicate ids', () => {
    const library = createLibrary({
      frameworks: [framework('iso-42001', [requirement('A.1', 'One')])],
      edges: [edge('iso-42001:A.1', 'equal', 'iso-42001:4.1')],
    });
    expect(library.edges).toHaveLength(0);
    expect(library.unresolvedEdges).toHaveLength(1);
    expect(() =>
      createLibrary({ frameworks: [framework('a', [requirement('R', 'x'), requirement('R', 'y')])] }),
    ).toThrow(/defined twice/);
  });

  it('replaces a framework of the same id when extended', () => {
    const base = smallLibrary();
    const next = extendLibrary(base, { frameworks: [framework('guide', [requirement('G9', 'Only one')])] });
    expect(next.framework('guide')?.requirements.map((r) => r.id)).toEqual(['G9']);
    expect(next.frameworks.map((f) => f.id)).toEqual(['iso-42001', 'law', 'guide']);
    expect(next.requirement('law', 'L1')?.title).toBe('Record-keeping');
    expect(next.edges.some((e) => e.source.requirementId === 'G1')).toBe(false);
    expect(base.framework('guide')?.requirements).toHaveLength(2);
  });
});
