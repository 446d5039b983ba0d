/**
 * The subset of the OSCAL 1.2.1 JSON model that the export produces. Optional arrays are omitted rather
 * than left empty, because the schemas reject empty arrays.
 */

export type EmptyObject = Record<string, never>;

export interface OscalProperty {
  name: string;
  value: string;
  ns?: string;
  remarks?: string;
}

export interface OscalLink {
  href: string;
  rel?: string;
  'media-type'?: string;
  text?: string;
}

export interface OscalRole {
  id: string;
  title: string;
  description?: string;
}

export interface OscalParty {
  uuid: string;
  type: 'organization' | 'person';
  name: string;
  'member-of-organizations'?: string[];
}

export interface OscalResponsibleRole {
  'role-id': string;
  'party-uuids'?: string[];
}

export interface OscalMetadata {
  title: string;
  published?: string;
  'last-modified': string;
  version: string;
  'oscal-version': string;
  props?: OscalProperty[];
  roles?: OscalRole[];
  parties?: OscalParty[];
  remarks?: string;
}

export interface OscalHash {
  algorithm: 'SHA-256';
  value: string;
}

export interface OscalResource {
  uuid: string;
  title?: string;
  description?: string;
  props?: OscalProperty[];
  rlinks?: { href: string; 'media-type'?: string; hashes?: OscalHash[] }[];
  remarks?: string;
}

export interface OscalBackMatter {
  resources: OscalResource[];
}

export interface OscalPart {
  id: string;
  name: string;
  prose: string;
}

export interface OscalControl {
  id: string;
  title: string;
  props?: OscalProperty[];
  parts?: OscalPart[];
}

export interface OscalGroup {
  id: string;
  title: string;
  props?: OscalProperty[];
  parts?: OscalPart[];
  controls?: OscalControl[];
}

export interface OscalCatalogDocument {
  catalog: {
    uuid: string;
    metadata: OscalMetadata;
    controls?: OscalControl[];
    groups?: OscalGroup[];
  };
}

export interface OscalProfileDocument {
  profile: {
    uuid: string;
    metadata: OscalMetadata;
    imports: { href: string; 'include-all': EmptyObject }[];
    merge: { 'as-is': boolean };
    'back-matter': OscalBackMatter;
  };
}

export interface OscalImplementationStatus {
  state: 'implemented' | 'partial' | 'planned' | 'alternative' | 'not-applicable';
  remarks?: string;
}

export interface OscalComponent {
  uuid: string;
  type: string;
  title: string;
  description: string;
  purpose?: string;
  props?: OscalProperty[];
  status: { state: 'under-development' | 'operational' | 'disposition' | 'other' };
  'responsible-roles'?: OscalResponsibleRole[];
}

export interface OscalByComponent {
  'component-uuid': string;
  uuid: string;
  description: string;
  'implementation-status': OscalImplementationStatus;
}

export interface OscalImplementedRequirement {
  uuid: string;
  'control-id': string;
  props?: OscalProperty[];
  links?: OscalLink[];
  'responsible-roles'?: OscalResponsibleRole[];
  'by-components': OscalByComponent[];
  remarks?: string;
}

export interface OscalSspDocument {
  'system-security-plan': {
    uuid: string;
    metadata: OscalMetadata;
    'import-profile': { href: string };
    'system-characteristics': {
      'system-ids': { 'identifier-type': string; id: string }[];
      'system-name': string;
      description: string;
      props?: OscalProperty[];
      'system-information': {
        'information-types': { uuid: string; title: string; description: string }[];
      };
      status: { state: 'operational' };
      'authorization-boundary': { description: string };
    };
    'system-implementation': { components: OscalComponent[] };
    'control-implementation': {
      description: string;
      'implemented-requirements': OscalImplementedRequirement[];
    };
    'back-matter'?: OscalBackMatter;
  };
}

export interface OscalControlSelection {
  'include-all': EmptyObject;
}

export interface OscalAssessmentPlanDocument {
  'assessment-plan': {
    uuid: string;
    metadata: OscalMetadata;
    'import-ssp': { href: string };
    'reviewed-controls': { 'control-selections': OscalControlSelection[] };
    'assessment-subjects': { type: 'component'; 'include-all': EmptyObject }[];
    'assessment-assets': {
      components: OscalComponent[];
      'assessment-platforms': {
        uuid: string;
        title: string;
        'uses-components': { 'component-uuid': string }[];
      }[];
    };
  };
}

export interface OscalObservation {
  uuid: string;
  title: string;
  description: string;
  methods: ['EXAMINE'];
  'relevant-evidence': { href: string; description: string }[];
  collected: string;
  /** When the evidence stops being valid, for evidence that expires. */
  expires?: string;
}

export interface OscalFinding {
  uuid: string;
  title: string;
  description: string;
  props: OscalProperty[];
  origins: { actors: { type: 'tool'; 'actor-uuid': string }[] }[];
  target: {
    type: 'statement-id';
    'target-id': string;
    status: { state: 'satisfied' | 'not-satisfied'; reason: 'pass' | 'fail' | 'other'; remarks?: string };
    'implementation-status': OscalImplementationStatus;
  };
  'implementation-statement-uuid': string;
  'related-observations'?: { 'observation-uuid': string }[];
  'related-risks'?: { 'risk-uuid': string }[];
}

export type OscalOrigin = { actors: { type: 'tool'; 'actor-uuid': string }[] };

/** OSCAL's risk status tokens (the schema admits any token; we use these only). */
export type OscalRiskStatus =
  | 'open'
  | 'investigating'
  | 'remediating'
  | 'deviation-requested'
  | 'deviation-approved'
  | 'closed';

export interface OscalFacet {
  name: string;
  system: string;
  value: string;
}

export interface OscalRisk {
  uuid: string;
  title: string;
  description: string;
  statement: string;
  props?: OscalProperty[];
  status: OscalRiskStatus;
  origins: OscalOrigin[];
  characterizations: { origin: OscalOrigin; facets: OscalFacet[] }[];
  'mitigating-factors'?: { uuid: string; 'implementation-uuid'?: string; description: string }[];
  deadline?: string;
  remediations?: {
    uuid: string;
    lifecycle: 'recommendation' | 'planned' | 'completed';
    title: string;
    description: string;
    props?: OscalProperty[];
  }[];
}

export interface OscalResult {
  uuid: string;
  title: string;
  description: string;
  start: string;
  end: string;
  props?: OscalProperty[];
  'reviewed-controls': { 'control-selections': OscalControlSelection[] };
  observations?: OscalObservation[];
  risks?: OscalRisk[];
  findings?: OscalFinding[];
}

export interface OscalAssessmentResultsDocument {
  'assessment-results': {
    uuid: string;
    metadata: OscalMetadata;
    'import-ap': { href: string };
    results: OscalResult[];
  };
}

export interface OscalDocuments {
  'catalog.json': OscalCatalogDocument;
  'profile.json': OscalProfileDocument;
  'ssp.json': OscalSspDocument;
  'assessment-plan.json': OscalAssessmentPlanDocument;
  'assessment-results.json': OscalAssessmentResultsDocument;
}

/** Our envelope (not an OSCAL model): the file names are the ones the documents' relative hrefs use. */
export interface OscalPackage {
  'oscal-package': {
    'oscal-version': string;
    documents: OscalDocuments;
  };
}
