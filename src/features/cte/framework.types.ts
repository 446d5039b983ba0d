/** Shapes of the framework library shipped in fixtures/frameworks and of imported catalogs. */

export type FrameworkKind = 'standard' | 'regulation' | 'guidance' | 'catalog';

/**
 * A typed, machine-comparable parameter of a requirement. Durations are ISO 8601 (`P6M`, `PT72H`);
 * qualitative-only values ("without undue delay") have `value: null` and a `qualitative` text.
 * `subject` names what the parameter constrains (e.g. `logs`, `personal-data`, `technical-documentation`)
 * and `event` the triggering event of a deadline (e.g. `serious-incident`, `personal-data-breach`), so that
 * parameters of different frameworks about the same thing can be compared.
 */
export interface RequirementParameter {
  type: string;
  value: string | number | null;
  subject?: string;
  event?: string;
  recipient?: string;
  unit?: string;
  qualitative?: string;
  note?: string;
}

export interface Requirement {
  id: string;
  domain?: string;
  title: string;
  description: string;
  /** true for legally binding obligations (regulations), false for voluntary standards/guidance. */
  legal: boolean;
  parameters?: RequirementParameter[];
  /** Roles a legal obligation applies to (e.g. `provider`, `deployer`, `controller`). */
  appliesTo?: string[];
  /**
   * Which AI systems or models a legal provision concerns, as the regulation's structure gives it: `high-risk`,
   * `prohibited-practices`, `gpai`, `all-ai-systems`, `certain-ai-systems (emotion recognition, …)` and the like.
   */
  scope?: string;
  /** Penalties, entry into force, transitional dates: provisions no organization meets, so never a gap. */
  bindsNoOne?: true;
  /** Topic tags (e.g. `logging`, `transparency`, `data-governance`) used for search and conflict finding. */
  topics?: string[];
}

export interface FrameworkDomain {
  id: string;
  title: string;
  /** The function the domain belongs to, in frameworks that group domains into functions. */
  function?: string;
}

/** A grouping above domains: the NIST AI RMF functions GOVERN, MAP, MEASURE and MANAGE. */
export interface FrameworkFunction {
  id: string;
  title: string;
}

export interface Framework {
  id: string;
  name: string;
  version: string;
  publisher: string;
  kind: FrameworkKind;
  /** Present only for frameworks that group their domains into functions. */
  functions?: FrameworkFunction[];
  /** Present only for frameworks that group requirements into domains (themes, categories). */
  domains?: FrameworkDomain[];
  requirements: Requirement[];
}

export type Relationship = 'equal' | 'subset' | 'superset' | 'intersect';

export interface RequirementRef {
  frameworkId: string;
  requirementId: string;
}

/** `source RELATIONSHIP target`, e.g. `source subset target`: the source's scope is inside the target's. */
export interface CrosswalkEdge {
  source: RequirementRef;
  target: RequirementRef;
  relationship: Relationship;
  /** Where the edge comes from (`nist-airc-crosswalk`, `ai-act-cross-reference`, `analyst`, ...). */
  origin: string;
  inferred: boolean;
  confidence?: 'high' | 'medium' | 'low';
  rationale?: string;
}

/** Who added an edge through the API, and when; absent on the edges shipped in `fixtures/`. */
export interface EdgeAuthorship {
  /** The API key that added it. */
  createdBy: string;
  createdAt: string;
  /** The published mapping the analyst took the edge from, when there is one. */
  reference?: string;
}

/** An edge of a library: every one has a stable id; edges added through the API carry their authorship. */
export interface LibraryEdge extends CrosswalkEdge {
  edgeId: string;
  added?: EdgeAuthorship;
}

export type ConflictKind = 'contradiction' | 'tension' | 'overlap';
export type ConflictSeverity = 'high' | 'medium' | 'low';

export interface ConflictRequirementRef extends RequirementRef {
  parameter?: string;
}

export interface Conflict {
  conflictId: string;
  kind: ConflictKind;
  severity: ConflictSeverity;
  requirements: ConflictRequirementRef[];
  description: string;
  resolution: string;
  /** `curated` for fixtures/conflicts.json entries, `computed` for those derived from parameters. */
  source: 'curated' | 'computed';
}
