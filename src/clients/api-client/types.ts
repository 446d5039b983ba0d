import type { Static } from 'typebox';
import type { AgendaSchema, DueItemSchema } from '../../features/agenda/agenda.schemas.js';
import type { AiSystemListSchema, AiSystemSchema } from '../../features/ai-systems/ai-systems.schemas.js';
import type { ProfileBody, ProfileViewSchema } from '../../features/applicability/applicability.schemas.js';
import type {
  AttestationListSchema,
  AttestationSchema,
  EpochSchema,
} from '../../features/attestations/attestations.schemas.js';
import type {
  AuditEventSchema,
  AuditLogSchema,
  AuditVerificationSchema,
} from '../../features/audit-trail/audit-trail.schemas.js';
import type {
  AuditListSchema,
  AuditSchema,
  FindingListSchema,
  FindingSchema,
} from '../../features/audits/audits.schemas.js';
import type { CreatedKeySchema, KeyListSchema, KeySchema } from '../../features/auth/keys.schemas.js';
import type { MeSchema, SignedInSchema, SsoConfigSchema } from '../../features/auth/sessions.schemas.js';
import type {
  ComplianceSchema,
  SnapshotListSchema,
  SnapshotSchema,
  SnapshotSummarySchema,
  SnapshotVerificationSchema,
} from '../../features/compliance/compliance.schemas.js';
import type {
  ControlListSchema,
  ControlSchema,
  OrgControlListSchema,
  OrgControlSchema,
} from '../../features/controls/controls.schemas.js';
import type {
  ConflictListSchema,
  CoverageSchema,
  EdgeSchema,
  FrameworkCoverageSchema,
  FrameworkDetailSchema,
  FrameworkListSchema,
  GapReportSchema,
  ImportResultSchema,
  JustificationSchema,
  MappingCollectionSchema,
  RequirementCoverageSchema,
  SearchResultSchema,
  SimilarResultSchema,
  SuggestionListSchema,
} from '../../features/cte/cte.schemas.js';
import type {
  DocumentPageSchema,
  DocumentSchema,
  VersionDiffSchema,
  VersionListSchema,
  VersionSchema,
} from '../../features/documents/documents.schemas.js';
import type {
  EvidenceListSchema,
  EvidenceSchema,
  ExpiringEvidenceListSchema,
} from '../../features/evidence/evidence.schemas.js';
import type { SoaChecksSchema } from '../../features/exports/export.schemas.js';
import type {
  AssessmentPageSchema,
  AssessmentSchema,
  SystemAssessmentListSchema,
  TemplateListSchema,
  TemplateSchema,
} from '../../features/impact-assessments/impact-assessments.schemas.js';
import type {
  CreatedMemberSchema,
  MemberListSchema,
  MemberSchema,
} from '../../features/members/members.schemas.js';
import type {
  CreatedWebhookSchema,
  DeliveryLogSchema,
  WebhookListSchema,
  WebhookSchema,
} from '../../features/notifications/notifications.schemas.js';
import type { OrgListSchema, OrgSchema } from '../../features/orgs/orgs.schemas.js';
import type {
  FrameworkComplianceSchema,
  FrameworkScoreSchema,
  OrgFrameworkListSchema,
  RequirementEvidenceListSchema,
  RequirementEvidenceSchema,
  ImportBody as RequirementImportBodySchema,
  ImportResultSchema as RequirementImportResultSchema,
  ImportRowErrorSchema as RequirementImportRowErrorSchema,
  RequirementItemSchema,
  RequirementListSchema,
} from '../../features/requirements/requirements.schemas.js';
import type { ReviewListSchema, ReviewSchema } from '../../features/reviews/reviews.schemas.js';
import type {
  AcceptanceSchema,
  RiskCriteriaSchema,
  RiskListSchema,
  RiskSchema,
  RiskSummarySchema,
} from '../../features/risks/risks.schemas.js';
import type {
  DomainScoreSchema,
  HistoryPointSchema,
  HistorySchema,
} from '../../features/scores/scores.schemas.js';
import type { SidecarKeyListSchema, SidecarKeySchema } from '../../features/sidecars/sidecar-keys.schemas.js';
import type { CountsSchema, EvidenceRefSchema } from '../../shared/schemas.js';

/**
 * The API's response bodies, taken from the schemas the server validates and documents them with. Type-only
 * imports: no server code reaches a client's bundle.
 */

/** The key or the signed-in person making the request (`type` tells which). */
export type SoaChecks = Static<typeof SoaChecksSchema>;
export type Me = Static<typeof MeSchema>;
export type SignedIn = Static<typeof SignedInSchema>;
export type SsoConfig = Static<typeof SsoConfigSchema>;
export type Member = Static<typeof MemberSchema>;
export type CreatedMember = Static<typeof CreatedMemberSchema>;
export type MemberList = Static<typeof MemberListSchema>;
export type AuditEvent = Static<typeof AuditEventSchema>;
export type AuditLog = Static<typeof AuditLogSchema>;
export type AuditVerification = Static<typeof AuditVerificationSchema>;
export type ApiKey = Static<typeof KeySchema>;
export type CreatedApiKey = Static<typeof CreatedKeySchema>;
export type ApiKeyList = Static<typeof KeyListSchema>;

export type Counts = Static<typeof CountsSchema>;
export type Org = Static<typeof OrgSchema>;
export type OrgList = Static<typeof OrgListSchema>;

export type Control = Static<typeof ControlSchema>;
export type ControlList = Static<typeof ControlListSchema>;
export type OrgControl = Static<typeof OrgControlSchema>;
export type OrgControlList = Static<typeof OrgControlListSchema>;
export type EvidenceRef = Static<typeof EvidenceRefSchema>;

export type Evidence = Static<typeof EvidenceSchema>;
export type EvidenceList = Static<typeof EvidenceListSchema>;
export type ExpiringEvidenceList = Static<typeof ExpiringEvidenceListSchema>;

export type AiSystem = Static<typeof AiSystemSchema>;
export type AiSystemList = Static<typeof AiSystemListSchema>;
export type ImpactAssessmentTemplate = Static<typeof TemplateSchema>;
export type ImpactAssessmentTemplateList = Static<typeof TemplateListSchema>;
export type ImpactAssessment = Static<typeof AssessmentSchema>;
export type ImpactAssessmentPage = Static<typeof AssessmentPageSchema>;
export type SystemImpactAssessmentList = Static<typeof SystemAssessmentListSchema>;
export type ControlledDocument = Static<typeof DocumentSchema>;
export type ControlledDocumentPage = Static<typeof DocumentPageSchema>;
export type DocumentVersion = Static<typeof VersionSchema>;
export type DocumentVersionList = Static<typeof VersionListSchema>;
export type DocumentVersionDiff = Static<typeof VersionDiffSchema>;

export type Attestation = Static<typeof AttestationSchema>;
export type AttestationList = Static<typeof AttestationListSchema>;
export type Epoch = Static<typeof EpochSchema>;

export type Compliance = Static<typeof ComplianceSchema>;
export type DomainScore = Static<typeof DomainScoreSchema>;
export type History = Static<typeof HistorySchema>;
export type HistoryPoint = Static<typeof HistoryPointSchema>;
export type Snapshot = Static<typeof SnapshotSchema>;
export type SnapshotSummary = Static<typeof SnapshotSummarySchema>;
export type SnapshotList = Static<typeof SnapshotListSchema>;
export type SnapshotVerification = Static<typeof SnapshotVerificationSchema>;

export type FrameworkList = Static<typeof FrameworkListSchema>;
export type FrameworkDetail = Static<typeof FrameworkDetailSchema>;
export type ImportResult = Static<typeof ImportResultSchema>;
export type GapReport = Static<typeof GapReportSchema>;
export type Gap = GapReport['gaps'][number];
/** A gap report asked for with `include=assessment`: every gap says where its status comes from. */
export type AssessedGapReport = Omit<GapReport, 'gaps'> & { gaps: Required<Gap>[] };
export type Coverage = Static<typeof CoverageSchema>;
export type FrameworkCoverage = Static<typeof FrameworkCoverageSchema>;
export type RequirementCoverage = Static<typeof RequirementCoverageSchema>;
export type Justification = Static<typeof JustificationSchema>;
export type ConflictList = Static<typeof ConflictListSchema>;
export type Conflict = ConflictList['conflicts'][number];
export type SearchResult = Static<typeof SearchResultSchema>;
export type SimilarResult = Static<typeof SimilarResultSchema>;
export type MappingCollection = Static<typeof MappingCollectionSchema>;
export type SuggestionList = Static<typeof SuggestionListSchema>;
export type Edge = Static<typeof EdgeSchema>;

export type OrgFrameworkList = Static<typeof OrgFrameworkListSchema>;
export type OrgFramework = OrgFrameworkList['frameworks'][number];
export type FrameworkScore = Static<typeof FrameworkScoreSchema>;
export type FrameworkCompliance = Static<typeof FrameworkComplianceSchema>;
export type RequirementList = Static<typeof RequirementListSchema>;
export type Requirement = Static<typeof RequirementItemSchema>;
export type RequirementEvidence = Static<typeof RequirementEvidenceSchema>;
export type RequirementEvidenceList = Static<typeof RequirementEvidenceListSchema>;
/** `POST …/requirements/import`: its JSON body, its answer, and each refused row of a `400` (`details.rows`). */
export type RequirementImportBody = Static<typeof RequirementImportBodySchema>;
export type RequirementImportResult = Static<typeof RequirementImportResultSchema>;
export type RequirementImportRowError = Static<typeof RequirementImportRowErrorSchema>;

/**
 * The applicability profile (`GET`/`PUT …/applicability-profile`): its body, and the view every answer is — the
 * profile, the EU AI Act exclusions it implies with their state, and the provisions that bind no organization.
 */
export type ApplicabilityProfileBody = Static<typeof ProfileBody>;
export type ApplicabilityProfileView = Static<typeof ProfileViewSchema>;
export type ApplicabilityProfile = NonNullable<ApplicabilityProfileView['profile']>;
export type ProfileExclusion = ApplicabilityProfileView['exclusions'][number];

/** Internal audits (9.2), their findings (10.2) and management reviews (9.3). */
export type InternalAudit = Static<typeof AuditSchema>;
export type InternalAuditList = Static<typeof AuditListSchema>;
export type Finding = Static<typeof FindingSchema>;
export type FindingList = Static<typeof FindingListSchema>;
export type ManagementReview = Static<typeof ReviewSchema>;
export type ManagementReviewList = Static<typeof ReviewListSchema>;
export type ReviewDecision = ManagementReview['decisions'][number];

/** What is due: the agenda of dated obligations. */
export type Agenda = Static<typeof AgendaSchema>;
export type DueItem = Static<typeof DueItemSchema>;

export type SidecarKey = Static<typeof SidecarKeySchema>;
export type SidecarKeyList = Static<typeof SidecarKeyListSchema>;

export type Risk = Static<typeof RiskSchema>;
export type RiskList = Static<typeof RiskListSchema>;
export type RiskSummary = Static<typeof RiskSummarySchema>;
export type RiskCriteria = Static<typeof RiskCriteriaSchema>;
export type RiskAcceptance = Static<typeof AcceptanceSchema>;
export type Webhook = Static<typeof WebhookSchema>;
export type CreatedWebhook = Static<typeof CreatedWebhookSchema>;
export type WebhookList = Static<typeof WebhookListSchema>;
export type DeliveryLog = Static<typeof DeliveryLogSchema>;
