import { Migration20261122000100Foundation } from './Migration20261122000100Foundation.js';
import { Migration20261122000200Evidence } from './Migration20261122000200Evidence.js';
import { Migration20261122000300Compliance } from './Migration20261122000300Compliance.js';
import { Migration20261122000310EvidenceTypeCounts } from './Migration20261122000310EvidenceTypeCounts.js';
import { Migration20261122000400Attestations } from './Migration20261122000400Attestations.js';
import { Migration20261122000500Exports } from './Migration20261122000500Exports.js';
import { Migration20261122000501ExportResultEncoding } from './Migration20261122000501ExportResultEncoding.js';
import { Migration20261122000600Cte } from './Migration20261122000600Cte.js';
import { Migration20261124000700Assessments } from './Migration20261124000700Assessments.js';
import { Migration20261124000800EvidenceExpiry } from './Migration20261124000800EvidenceExpiry.js';
import { Migration20261124001000AnalystEdges } from './Migration20261124001000AnalystEdges.js';
import { Migration20261124001100AttestationEpochCounts } from './Migration20261124001100AttestationEpochCounts.js';
import { Migration20261125000100RequirementEvidencePieces } from './Migration20261125000100RequirementEvidencePieces.js';
import { Migration20261128000100AttestationEvidenceExpiry } from './Migration20261128000100AttestationEvidenceExpiry.js';
import { Migration20261128000200People } from './Migration20261128000200People.js';
import { Migration20261128000300Risks } from './Migration20261128000300Risks.js';
import { Migration20261128000500ImpactAssessments } from './Migration20261128000500ImpactAssessments.js';
import { Migration20261128000600Management } from './Migration20261128000600Management.js';
import { Migration20261128000650Reviews } from './Migration20261128000650Reviews.js';
import { Migration20261128000700Documents } from './Migration20261128000700Documents.js';
import { Migration20261128000800Notifications } from './Migration20261128000800Notifications.js';
import { Migration20261128000900ApplicabilityProfiles } from './Migration20261128000900ApplicabilityProfiles.js';
import { Migration20261129000100AttestationSystemIndex } from './Migration20261129000100AttestationSystemIndex.js';

/** Every migration, in the order of its name. Listed explicitly so the same set runs from source, tests and builds. */
export const migrations = [
  Migration20261122000100Foundation,
  Migration20261122000200Evidence,
  Migration20261122000300Compliance,
  Migration20261122000310EvidenceTypeCounts,
  Migration20261122000400Attestations,
  Migration20261122000500Exports,
  Migration20261122000501ExportResultEncoding,
  Migration20261122000600Cte,
  Migration20261124000700Assessments,
  Migration20261124000800EvidenceExpiry,
  Migration20261124001000AnalystEdges,
  Migration20261124001100AttestationEpochCounts,
  Migration20261125000100RequirementEvidencePieces,
  Migration20261128000100AttestationEvidenceExpiry,
  Migration20261128000200People,
  Migration20261128000300Risks,
  Migration20261128000500ImpactAssessments,
  Migration20261128000600Management,
  Migration20261128000650Reviews,
  Migration20261128000700Documents,
  Migration20261128000800Notifications,
  Migration20261128000900ApplicabilityProfiles,
  Migration20261129000100AttestationSystemIndex,
];
