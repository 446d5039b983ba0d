import { Type } from 'typebox';
import { Nullable } from '../../shared/schemas.js';
import { ASSESSMENT_SOURCES, GAP_PRIORITIES, REQUIREMENT_STATUSES } from '../../shared/vocabulary.js';

const Text = (description: string) => Type.String({ description });
const Enum = <const T extends string[]>(values: readonly [...T], description: string) =>
  Type.Enum(values, { description });

export const FrameworkIdSchema = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'Framework id: iso-42001, nist-ai-rmf, eu-ai-act, iso-27001, gdpr, or an imported slug',
});
export const RequirementIdSchema = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "Requirement id in the framework's own notation: A.6.2.4, GOVERN 1.1, Art. 26(6), AC-2(1)",
});
export const FrameworkParams = Type.Object({ frameworkId: FrameworkIdSchema });
export const RequirementParams = Type.Object({
  frameworkId: FrameworkIdSchema,
  requirementId: RequirementIdSchema,
});

export const OrgQuery = Type.Object({
  orgId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The organization to analyse; required with a platform key, implied by a tenant key',
    }),
  ),
});

export const FrameworkSummarySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  controlCount: Type.Integer(),
  domains: Type.Optional(Type.Integer({ description: 'Present for frameworks grouped into domains' })),
});
export const FrameworkListSchema = Type.Object({ frameworks: Type.Array(FrameworkSummarySchema) });

export const ParameterSchema = Type.Object({
  type: Text('What the parameter sets: retentionMin, notificationDeadline, …'),
  value: Nullable(Type.Union([Type.String(), Type.Number()])),
  subject: Type.Optional(Type.String()),
  event: Type.Optional(Type.String()),
  recipient: Type.Optional(Type.String()),
  unit: Type.Optional(Type.String()),
  qualitative: Type.Optional(Type.String()),
  note: Type.Optional(Type.String()),
});

export const FrameworkControlSchema = Type.Object({
  controlId: Type.String(),
  domain: Type.Optional(Type.String()),
  title: Type.String(),
  description: Type.String(),
  legal: Type.Boolean({ description: 'A legally binding obligation' }),
  topics: Type.Optional(Type.Array(Type.String())),
  appliesTo: Type.Optional(Type.Array(Type.String())),
  scope: Type.Optional(
    Type.String({
      description:
        'Which AI systems or models a legal provision concerns: high-risk, prohibited-practices, gpai, ' +
        'certain-ai-systems (…), all-ai-systems; it decides which systems count toward a gap’s priority',
    }),
  ),
  bindsNoOne: Type.Optional(
    Type.Literal(true, {
      description:
        'Penalties, entry into force, transitional dates: no organization meets them, so never a gap',
    }),
  ),
  parameters: Type.Optional(Type.Array(ParameterSchema)),
});

export const FrameworkDetailSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  version: Type.String(),
  publisher: Type.String(),
  kind: Enum(['standard', 'regulation', 'guidance', 'catalog'], 'What kind of framework it is'),
  imported: Type.Boolean({ description: 'Imported from an OSCAL catalog (not built in)' }),
  controlCount: Type.Integer(),
  domains: Type.Optional(Type.Integer()),
  functions: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        title: Type.String(),
        domainCount: Type.Integer(),
        controlCount: Type.Integer(),
      }),
      { description: 'The level above domains, where a framework has one (NIST AI RMF: GOVERN … MANAGE)' },
    ),
  ),
  domainList: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String(),
        title: Type.String(),
        function: Type.Optional(Type.String({ description: 'The function the domain belongs to' })),
        controlCount: Type.Integer(),
      }),
    ),
  ),
  controls: Type.Array(FrameworkControlSchema),
});

export const ImportQuery = Type.Object({
  frameworkId: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9][a-z0-9-]{0,79}$',
      description: 'Id to store the framework under; default: a slug of the catalog title',
    }),
  ),
});
export const ImportBody = Type.Object(
  {},
  { additionalProperties: true, description: 'An OSCAL catalog document: {"catalog": {…}}' },
);
export const ImportResultSchema = Type.Object({
  ...FrameworkSummarySchema.properties,
  version: Type.String(),
  skippedWithdrawn: Type.Integer({ description: 'Withdrawn controls and enhancements left out' }),
  outcome: Enum(['created', 'replaced', 'unchanged'], 'What the import did'),
});

/** What a gap report adds to the spec's four members when a client asks for it. */
export const GAP_INCLUDES = ['assessment'] as const;
export type GapInclude = (typeof GAP_INCLUDES)[number];
export const GapQuery = Type.Object({
  ...OrgQuery.properties,
  include: Type.Optional(
    Enum(
      GAP_INCLUDES,
      'assessment: add to each gap where its status comes from (direct | inferred | none); without it a gap has exactly controlId, priority, status and recommendation',
    ),
  ),
});

export const GapReportSchema = Type.Object({
  frameworkId: Type.String(),
  gaps: Type.Array(
    Type.Object({
      controlId: Type.String(),
      priority: Enum(GAP_PRIORITIES, 'critical | important | minor'),
      assessment: Type.Optional(
        Enum(
          ASSESSMENT_SOURCES,
          'Only with include=assessment. Where the requirement’s status comes from: direct (the org recorded it), inferred (the crosswalk), none',
        ),
      ),
      status: Text(
        'Own controls: not_started | in_progress | implemented (evidence expired); other frameworks: uncovered | partial | excluded (every mapped control excluded)',
      ),
      recommendation: Type.String(),
    }),
  ),
  summary: Type.Object({ critical: Type.Integer(), important: Type.Integer(), minor: Type.Integer() }),
});

const CoverageStatus = Enum(['covered', 'partial', 'uncovered'], 'covered | partial | uncovered');
const OrgStatus = Enum(REQUIREMENT_STATUSES, "The org's own recorded status");
const EvidenceExpired = Type.Optional(
  Type.Literal(true, {
    description: 'Every piece of the control’s evidence has expired: implemented then counts as in progress',
  }),
);
const Counts = {
  total: Type.Integer({ description: 'Requirements counted (excluded base controls are not)' }),
  covered: Type.Integer(),
  partial: Type.Integer(),
  uncovered: Type.Integer(),
  coverage: Nullable(Type.Number({ description: '(covered + 0.5 × partial) / total, 0..1' })),
  notApplicable: Type.Integer(),
  excluded: Type.Integer({
    description: 'Uncovered requirements (in total) whose mapped base controls the org all excluded',
  }),
};

const JointSchema = Type.Object(
  {
    controls: Type.Array(Type.String(), { description: 'Applicable mapped base controls' }),
    remaining: Type.Array(Type.String(), { description: 'Those still to implement for joint coverage' }),
    excluded: Type.Array(Type.String(), { description: 'Mapped controls excluded as not applicable' }),
    inferred: Type.Boolean({ description: 'The set rests on inferred edges (no source maps it)' }),
    canCover: Type.Boolean({ description: 'False for one control stated narrower than the requirement' }),
    status: Enum(['covered', 'partial', 'uncovered', 'excluded'], 'What the set gives on its own'),
  },
  { description: 'The base controls mapped straight to the requirement, which cover it together' },
);

export const CoverageSchema = Type.Object({
  orgId: Type.String(),
  baseFrameworkId: Text('The framework whose control statuses the org maintains'),
  frameworks: Type.Array(Type.Object({ frameworkId: Type.String(), ...Counts })),
  pairwise: Type.Array(
    Type.Object({
      from: Text('Framework assumed fully implemented'),
      to: Text('Framework covered through the crosswalk'),
      coverage: Type.Number(),
    }),
  ),
});

export const FrameworkCoverageSchema = Type.Object({
  orgId: Type.String(),
  frameworkId: Type.String(),
  ...Counts,
  requirements: Type.Array(
    Type.Object({
      requirementId: Type.String(),
      title: Type.String(),
      status: CoverageStatus,
      strength: Type.Number(),
      applicable: Type.Boolean(),
      orgStatus: Type.Optional(OrgStatus),
      evidenceExpired: EvidenceExpired,
      coveredBy: Type.Array(Type.String(), { description: 'Base controls behind the status' }),
      joint: Type.Optional(JointSchema),
    }),
  ),
});

const RefSchema = Type.Object({ frameworkId: Type.String(), requirementId: Type.String() });
const HopSchema = Type.Object({
  from: RefSchema,
  to: RefSchema,
  relationship: Enum(['equal', 'subset', 'superset', 'intersect'], 'The edge as stored, source to target'),
  direction: Enum(['forward', 'reverse'], 'forward when the hop follows the edge from its source'),
  credit: Enum(['full', 'partial'], 'full when the start of the hop contains its end'),
  origin: Text('Where the edge comes from'),
  inferred: Type.Boolean(),
  edgeId: Text('The edge followed (DELETE /cte/mappings/{edgeId} removes one an analyst added)'),
  text: Text('The hop in words: "A.6.2.8 equal to Art. 12"'),
});

export const JustificationSchema = Type.Object({
  frameworkId: Text('The framework of the record that gives the credit'),
  controlId: Text('The requirement (a control, in ISO/IEC 42001) whose record gives the credit'),
  controlStatus: OrgStatus,
  evidenceExpired: EvidenceExpired,
  credit: Enum(
    ['full', 'partial', 'joint'],
    'full or partial through the path; joint as one of the mapped set',
  ),
  strength: Type.Number(),
  path: Type.Array(HopSchema),
});
export const RequirementCoverageSchema = Type.Object({
  orgId: Type.String(),
  frameworkId: Type.String(),
  requirementId: Type.String(),
  title: Type.String(),
  status: CoverageStatus,
  strength: Type.Number(),
  applicable: Type.Boolean(),
  orgStatus: Type.Optional(OrgStatus),
  evidenceExpired: EvidenceExpired,
  justifications: Type.Array(JustificationSchema),
  joint: Type.Optional(JointSchema),
  candidates: Type.Array(
    Type.Object({
      controlId: Type.String(),
      title: Type.String(),
      orgStatus: OrgStatus,
      strength: Type.Number({ description: 'What implementing this control alone would give' }),
      credit: Enum(['full', 'partial', 'joint'], 'How: through the path, or as one of the mapped set'),
      path: Type.Array(HopSchema),
    }),
    { description: 'Base controls that reach the requirement: what to implement to cover it' },
  ),
});

const CONFLICT_KINDS = ['contradiction', 'tension', 'overlap'] as const;
const SEVERITIES = ['high', 'medium', 'low'] as const;
export const ConflictQuery = Type.Object({
  orgId: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description:
        'Leave out conflicts that touch a requirement this organization excluded as not applicable; a tenant key ' +
        'implies its own organization, a platform key without it lists every conflict of the library',
    }),
  ),
  frameworkId: Type.Optional(FrameworkIdSchema),
  kind: Type.Optional(Enum(CONFLICT_KINDS, 'contradiction | tension | overlap')),
  severity: Type.Optional(Enum(SEVERITIES, 'high | medium | low')),
});
export const ConflictListSchema = Type.Object({
  conflicts: Type.Array(
    Type.Object({
      conflictId: Type.String(),
      kind: Enum(CONFLICT_KINDS, 'contradiction | tension | overlap'),
      severity: Enum(SEVERITIES, 'high | medium | low'),
      requirements: Type.Array(
        Type.Object({
          frameworkId: Type.String(),
          requirementId: Type.String(),
          parameter: Type.Optional(Type.String()),
        }),
      ),
      description: Type.String(),
      resolution: Type.String(),
      source: Enum(['curated', 'computed'], 'curated (reviewed list) or computed from parameters'),
    }),
  ),
});

export const SearchBody = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 2000, pattern: '\\S', description: 'Free text' }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
    frameworkId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: 'Only requirements of this framework (its `limit` nearest); an unknown framework → 404',
      }),
    ),
  },
  { additionalProperties: false },
);
export const SearchResultSchema = Type.Object({
  query: Type.String(),
  model: Text('The embedding model that ranked the results'),
  orgId: Type.Optional(Text('The organization whose status each result carries (when the caller is one)')),
  results: Type.Array(
    Type.Object({
      frameworkId: Type.String(),
      requirementId: Type.String(),
      title: Type.String(),
      distance: Type.Number({
        description:
          '1 − relevance, where relevance blends cosine similarity with the BM25 word match (best match of the query = 1); 0 = same meaning',
      }),
      orgStatus: Type.Optional(
        Enum(
          REQUIREMENT_STATUSES,
          "The org's effective status of the requirement: its own record's, else what the crosswalk infers",
        ),
      ),
      applicable: Type.Optional(Type.Boolean({ description: 'False when the org excluded the requirement' })),
      assessment: Type.Optional(
        Enum(
          ASSESSMENT_SOURCES,
          'Where orgStatus comes from: direct (the org recorded it), inferred (the crosswalk), none',
        ),
      ),
    }),
  ),
});

export const MappingCollectionSchema = Type.Object(
  { 'mapping-collection': Type.Record(Type.String(), Type.Unknown()) },
  { description: 'OSCAL 1.2.1 mapping-collection (NIST IR 8477 relationships)' },
);

const RELATIONSHIPS = ['equal', 'subset', 'superset', 'intersect'] as const;
const RelationshipSchema = Enum(
  RELATIONSHIPS,
  'NIST IR 8477 set relation of the source to the target: equal | subset | superset | intersect',
);
const EdgeId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  description: 'The edge id (a UUID; also the uuid of its map in the OSCAL mapping export)',
});

export const SimilarQuery = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
  frameworkId: Type.Optional(
    Type.String({ ...FrameworkIdSchema, description: 'Only requirements of this (other) framework' }),
  ),
});
export const SimilarResultSchema = Type.Object({
  frameworkId: Type.String(),
  requirementId: Type.String(),
  model: Text('The embedding model whose vectors were compared'),
  results: Type.Array(
    Type.Object({
      frameworkId: Type.String(),
      requirementId: Type.String(),
      title: Type.String(),
      distance: Type.Number({ description: 'Cosine distance, 0 = same meaning' }),
      mapped: Type.Boolean({ description: 'An edge of the crosswalk already joins the two requirements' }),
    }),
  ),
});

export const SuggestionQuery = Type.Object({
  from: Type.String({
    ...FrameworkIdSchema,
    description: 'Framework the edges start from (e.g. an imported catalog)',
  }),
  to: Type.String({ ...FrameworkIdSchema, description: 'Framework the edges lead to' }),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  minScore: Type.Number({ minimum: 0, maximum: 1, default: 0, description: 'Leave out weaker candidates' }),
});
export const SuggestionListSchema = Type.Object({
  from: Type.String(),
  to: Type.String(),
  model: Text('The embedding model whose vectors were compared'),
  suggestions: Type.Array(
    Type.Object({
      sourceId: Text('Requirement of `from`'),
      targetId: Text('Requirement of `to`'),
      relationship: RelationshipSchema,
      score: Type.Number({
        description:
          'Half vector similarity, half the weight of the distinctive terms both share, a little more for mutual best matches; 0..1, best first',
      }),
      rationale: Text(
        'The distinctive terms and concepts the two share, and how much of each is in the other',
      ),
    }),
  ),
});

const Prose = (maxLength: number, description: string) =>
  Type.String({ minLength: 1, maxLength, pattern: '\\S', description });
export const NewEdgeBody = Type.Object(
  {
    sourceFrameworkId: FrameworkIdSchema,
    sourceId: RequirementIdSchema,
    targetFrameworkId: FrameworkIdSchema,
    targetId: RequirementIdSchema,
    relationship: RelationshipSchema,
    rationale: Prose(2000, 'Why the two requirements relate: what an auditor reads in the mapping export'),
    source: Type.Optional(
      Prose(
        500,
        'The published mapping the edge is taken from; with it the edge counts as stated (inferred: false), without it as the analyst’s inference',
      ),
    ),
  },
  { additionalProperties: false },
);
export const EdgeSchema = Type.Object({
  edgeId: EdgeId,
  sourceFrameworkId: Type.String(),
  sourceId: Type.String(),
  targetFrameworkId: Type.String(),
  targetId: Type.String(),
  relationship: RelationshipSchema,
  rationale: Type.String(),
  source: Type.Optional(Type.String({ description: 'The published mapping it is taken from' })),
  origin: Type.Literal('analyst'),
  inferred: Type.Boolean({ description: 'True unless a published mapping was named (`source`)' }),
  createdBy: Text('The API key that added it'),
  createdAt: Type.String({ format: 'date-time' }),
});
export const EdgeParams = Type.Object({ edgeId: EdgeId });
