/** Small hand-built frameworks and edges for the engine's tests. */
import type {
  CrosswalkEdge,
  Framework,
  FrameworkKind,
  Relationship,
  Requirement,
  RequirementParameter,
} from '../../src/features/cte/framework.types.js';
import { createLibrary, type FrameworkLibrary } from '../../src/features/cte/library.js';

export function requirement(id: string, title: string, extra: Partial<Requirement> = {}): Requirement {
  return { id, title, description: `${title}.`, legal: false, ...extra };
}

export function framework(
  id: string,
  requirements: Requirement[],
  kind: FrameworkKind = 'standard',
  domains?: Framework['domains'],
): Framework {
  return { id, name: `Framework ${id}`, version: '1', publisher: 'Test', kind, requirements, domains };
}

export function edge(
  source: string,
  relationship: Relationship,
  target: string,
  extra: Partial<CrosswalkEdge> = {},
): CrosswalkEdge {
  const [sourceFramework, sourceId] = source.split(':');
  const [targetFramework, targetId] = target.split(':');
  return {
    source: { frameworkId: sourceFramework, requirementId: sourceId },
    target: { frameworkId: targetFramework, requirementId: targetId },
    relationship,
    origin: 'analyst',
    inferred: false,
    ...extra,
  };
}

export function parameter(
  type: string,
  value: string | number | null,
  extra: Partial<RequirementParameter> = {},
) {
  return { type, value, ...extra };
}

/**
 * iso-42001 (base): A.1 logging, A.2 oversight, A.3 impact assessment.
 * law (legal): L1 ⊆ A.1, L2 = A.2, L3 ∩ A.3, L4 unmapped.
 * guide: G1 = L1 (two hops from A.1), G2 ∩ L3 (two partial hops from A.3).
 */
export function smallLibrary(): FrameworkLibrary {
  return createLibrary({
    frameworks: [
      framework('iso-42001', [
        requirement('A.1', 'Event logging', { topics: ['logging'] }),
        requirement('A.2', 'Human oversight', { topics: ['human-oversight'] }),
        requirement('A.3', 'Impact assessment', { topics: ['impact-assessment'] }),
      ]),
      framework(
        'law',
        [
          requirement('L1', 'Record-keeping', {
            legal: true,
            topics: ['logging'],
            parameters: [parameter('retentionMin', 'P6M', { subject: 'logs' })],
          }),
          requirement('L2', 'Oversight by natural persons', { legal: true, topics: ['human-oversight'] }),
          requirement('L3', 'Fundamental-rights assessment', { legal: true, topics: ['impact-assessment'] }),
          requirement('L4', 'Registration', { legal: true, topics: ['registration'] }),
        ],
        'regulation',
      ),
      framework('guide', [requirement('G1', 'Keep logs'), requirement('G2', 'Assess impacts')], 'guidance'),
    ],
    edges: [
      edge('law:L1', 'subset', 'iso-42001:A.1'),
      edge('iso-42001:A.2', 'equal', 'law:L2'),
      edge('law:L3', 'intersect', 'iso-42001:A.3'),
      edge('guide:G1', 'equal', 'law:L1'),
      edge('guide:G2', 'intersect', 'law:L3'),
    ],
  });
}

/**
 * For the joint rule. iso-42001 (base): A.1 … A.5. reg (legal); each stated edge says the control is part of
 * the requirement (`R ⊇ A`) unless noted: R1 → A.1 (stated intersect); R2 → A.1, A.2; R3 → A.1, A.2, A.3;
 * R4 → A.1 (stated equal) and, inferred, A.4; R5 → A.4, A.5, both inferred intersect; R6 ⊇ A.5 (the one
 * control is stated narrower); R7 → A.1, A.2, both stated intersect (partial overlaps only).
 * guide: G1 = R2, no ISO control of its own.
 */
export function jointLibrary(): FrameworkLibrary {
  const inferred = { inferred: true, origin: 'analyst' };
  return createLibrary({
    frameworks: [
      framework('iso-42001', [
        requirement('A.1', 'AI policy', { topics: ['governance'] }),
        requirement('A.2', 'Roles and responsibilities', { topics: ['accountability'] }),
        requirement('A.3', 'Event logging', { topics: ['logging'] }),
        requirement('A.4', 'Data quality', { topics: ['data-quality'] }),
        requirement('A.5', 'Impact assessment', { topics: ['impact-assessment'] }),
      ]),
      framework(
        'reg',
        [
          requirement('R1', 'Policy', { legal: true, topics: ['governance'] }),
          requirement('R2', 'Accountable governance', { legal: true, topics: ['governance'] }),
          requirement('R3', 'Record-keeping', { legal: true, topics: ['record-keeping'] }),
          requirement('R4', 'Governance of data', { legal: true, topics: ['data-governance'] }),
          requirement('R5', 'Data and impacts', { legal: true, topics: ['data-quality'] }),
          requirement('R6', 'Fundamental-rights assessment', { legal: true, topics: ['impact-assessment'] }),
          requirement('R7', 'Oversight and accountability', { legal: true, topics: ['accountability'] }),
        ],
        'regulation',
      ),
      framework('guide', [requirement('G1', 'Govern AI')], 'guidance'),
    ],
    edges: [
      edge('reg:R1', 'intersect', 'iso-42001:A.1'),
      edge('reg:R2', 'superset', 'iso-42001:A.1'),
      edge('iso-42001:A.2', 'subset', 'reg:R2'),
      edge('reg:R3', 'superset', 'iso-42001:A.1'),
      edge('reg:R3', 'intersect', 'iso-42001:A.2'),
      edge('reg:R3', 'superset', 'iso-42001:A.3'),
      edge('reg:R4', 'equal', 'iso-42001:A.1'),
      edge('reg:R4', 'intersect', 'iso-42001:A.4', inferred),
      edge('reg:R5', 'intersect', 'iso-42001:A.4', inferred),
      edge('reg:R5', 'intersect', 'iso-42001:A.5', inferred),
      edge('reg:R6', 'superset', 'iso-42001:A.5'),
      edge('reg:R7', 'intersect', 'iso-42001:A.1'),
      edge('reg:R7', 'intersect', 'iso-42001:A.2'),
      edge('guide:G1', 'equal', 'reg:R2'),
    ],
  });
}
