// The daemon's vocabularies, declared once (src/vocabulary.ts has no imports, so the bundle can take it).
import {
  ASSESSMENT_SOURCES,
  type AssessmentSource,
  type GapPriority,
  REQUIREMENT_STATUSES,
  type RequirementStatus,
} from '../../src/shared/vocabulary.js';

/**
 * The console's HTTP client: every call goes to /api/v1 on the page's own origin with the signed-in key in
 * the Authorization header, and the API's error envelope becomes an ApiError.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Sent on the window when the API refuses the key (revoked, say): the console signs out. */
export const UNAUTHORIZED = 'comply:unauthorized';

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface Counts {
  implemented: number;
  inProgress: number;
  notStarted: number;
  notApplicable: number;
}

export type Status = RequirementStatus;
export const STATUSES: readonly Status[] = REQUIREMENT_STATUSES;
export type Assessment = AssessmentSource;
export const ASSESSMENTS: readonly Assessment[] = ASSESSMENT_SOURCES;

export interface Me {
  keyId: string;
  orgId: string | null;
  platform: boolean;
  scopes: string[];
  can: { read: boolean; write: boolean; attest: boolean; export: boolean; admin: boolean };
}
export interface OrgFramework {
  frameworkId: string;
  name: string;
  controlCount: number;
  score: number | null;
  directScore: number | null;
  counts: Counts;
  assessed: { direct: number; inferred: number; none: number };
  coverage: number | null;
}
export interface DomainScore {
  domain: string;
  domainTitle: string;
  score: number | null;
  controlCount: number;
  counts: Counts;
}
export interface FrameworkCompliance {
  frameworkId: string;
  score: number | null;
  directScore: number | null;
  counts: Counts;
  assessed: { direct: number; inferred: number; none: number };
  byDomain: DomainScore[];
  computedAt: string;
}
export interface HistoryPoint {
  periodStart: string;
  periodEnd: string;
  asOf: string;
  score: number | null;
  counts: Counts;
}
export interface EvidenceRef {
  evidenceId: string;
  type: string;
  title: string;
  createdAt: string;
  expired: boolean;
}
export interface PathStep {
  from: { frameworkId: string; requirementId: string };
  to: { frameworkId: string; requirementId: string };
  relationship: string;
  credit: string;
  origin: string;
  text: string;
}
export interface Justification {
  frameworkId: string;
  controlId: string;
  controlStatus: Status;
  evidenceExpired?: boolean;
  credit: string;
  strength: number;
  path: PathStep[];
}
export interface Requirement {
  requirementId: string;
  title: string;
  domain?: string;
  status: Status;
  applicable: boolean;
  justification: string | null;
  reviewer: string | null;
  owner: string | null;
  note: string | null;
  updatedAt: string | null;
  assessment: Assessment;
  inferred: {
    status: Status;
    coverage: 'covered' | 'partial' | 'uncovered';
    from: { frameworkId: string; requirementId: string }[];
    justifications?: Justification[];
  };
  evidenceCount: number;
  evidenceExpired: boolean;
  evidence: EvidenceRef[];
}
export interface Evidence {
  evidenceId: string;
  type: 'attestation' | 'document' | 'link';
  title: string;
  description: string | null;
  fileUrl: string | null;
  effectiveDate: string | null;
  expiresAt: string | null;
  expired: boolean;
  createdAt: string;
  createdBy: string | null;
}
export interface Gap {
  controlId: string;
  priority: GapPriority;
  assessment: Assessment;
  status: string;
  recommendation: string;
}
export interface CoverageReport {
  frameworks: {
    frameworkId: string;
    total: number;
    covered: number;
    partial: number;
    uncovered: number;
    coverage: number | null;
    notApplicable: number;
    excluded: number;
  }[];
  pairwise: { from: string; to: string; coverage: number }[];
}
export interface Conflict {
  conflictId: string;
  kind: string;
  severity: 'high' | 'medium' | 'low';
  requirements: { frameworkId: string; requirementId: string; parameter?: string }[];
  description: string;
  resolution: string;
  source: string;
}
export interface Attestation {
  attestationId: string;
  level: 'L0' | 'L2';
  epochId: string;
  systemId: string | null;
  systemIdAsPosted?: string;
  controlIds: string[];
  timestamp: string;
  claims: Record<string, unknown>;
  contentHash: string;
  serverAssignedId: boolean;
  receivedAt: string;
}
export interface Epoch {
  epochId: string;
  count: number;
  levels: { L0: number; L2: number };
  firstTimestamp: string;
  lastTimestamp: string;
  merkleRoot: string;
}
export interface AiSystem {
  systemId: string;
  name: string;
  description: string | null;
  owner: string;
  purpose: string;
  riskLevel: string;
  lifecycleStage: string;
  updatedAt: string;
}
export interface Snapshot {
  snapshotId: string;
  label: string;
  notes: string | null;
  createdAt: string;
  score: number | null;
  counts: Counts;
  contentHash: string;
}
export class Api {
  constructor(private readonly key: string) {}

  private url(path: string, query: Query = {}): string {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
    }
    const search = params.toString();
    return `/api/v1${path}${search ? `?${search}` : ''}`;
  }

  async response(method: string, path: string, options: { query?: Query; body?: unknown } = {}) {
    const response = await fetch(this.url(path, options.query), {
      method,
      headers: {
        authorization: `Bearer ${this.key}`,
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'omit',
    });
    if (response.status === 401) window.dispatchEvent(new Event(UNAUTHORIZED));
    if (!response.ok) {
      let envelope: { error?: { code?: string; message?: string } } = {};
      try {
        envelope = (await response.json()) as typeof envelope;
      } catch {
        // Not the API's envelope: the status alone says it.
      }
      throw new ApiError(
        response.status,
        envelope.error?.code ?? `HTTP_${response.status}`,
        envelope.error?.message ?? response.statusText,
      );
    }
    return response;
  }

  async json<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const response = await this.response(method, path, options);
    return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
  }

  get<T>(path: string, query?: Query): Promise<T> {
    return this.json<T>('GET', path, { query });
  }
}

/** A path segment: requirement ids hold spaces, parentheses and slashes. */
export const seg = (value: string) => encodeURIComponent(value);
