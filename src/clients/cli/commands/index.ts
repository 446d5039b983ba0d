import type { Command } from 'commander';
import type { Cli } from '../cli.js';
import { registerAssessCommand } from './assess.command.js';
import { registerAttestCommand } from './attest.command.js';
import { registerAttestationCommands } from './attestations.command.js';
import { registerAuditLogCommand } from './audit-log.command.js';
import { registerAuditCommands } from './audits.command.js';
import { registerCheckCommand } from './check.command.js';
import { registerConflictsCommand } from './conflicts.command.js';
import { registerControlCommands } from './controls.command.js';
import { registerCoverageCommand } from './coverage.command.js';
import { registerDocumentCommands } from './documents.command.js';
import { registerDueCommand } from './due.command.js';
import { registerEvidenceCommands } from './evidence.command.js';
import { registerExportCommands } from './export.command.js';
import { registerFindingCommands } from './findings.command.js';
import { registerFrameworksCommand } from './frameworks.command.js';
import { registerFrameworkStatusCommand } from './frameworks-status.command.js';
import { registerGapsCommand } from './gaps.command.js';
import { registerHistoryCommand } from './history.command.js';
import { registerImpactAssessmentCommands } from './impact-assessments.command.js';
import { registerImportCommand } from './import.command.js';
import { registerKeyCommands } from './keys.command.js';
import { registerMappingCommands } from './mappings.command.js';
import { registerMcpCommand } from './mcp.command.js';
import { registerMemberCommands } from './members.command.js';
import { registerOrgCommands } from './orgs.command.js';
import { registerRequirementCommands } from './requirements.command.js';
import { registerReviewCommands } from './reviews.command.js';
import { registerRiskCommands } from './risks.command.js';
import { registerScoreCommand } from './score.command.js';
import { registerSearchCommand } from './search.command.js';
import { registerServeCommand } from './serve.command.js';
import { registerSidecarCommands } from './sidecars.command.js';
import { registerSignInCommands } from './sign-in.command.js';
import { registerSimilarCommand } from './similar.command.js';
import { registerSnapshotCommands } from './snapshot.command.js';
import { registerSoaCommands } from './soa.command.js';
import { registerSystemCommands } from './systems.command.js';
import { registerWebhookCommands } from './webhooks.command.js';
import { registerWorkerCommand } from './worker.command.js';

/**
 * Every command of the CLI, registered here and only here, in the order `comply --help` lists them: the
 * daemon, sign-in, access, people and orgs, the audit trail; the frameworks and the crosswalk's analyses; records, scores and snapshots;
 * AI systems, their risks and assessments; internal audits, findings and management reviews; exports and
 * attestations; the gate and the MCP server; the worker.
 */
export function registerCommands(program: Command, cli: Cli): void {
  registerServeCommand(program);
  registerSignInCommands(program, cli);
  registerKeyCommands(program, cli);
  registerMemberCommands(program, cli);
  registerOrgCommands(program, cli);
  registerAuditLogCommand(program, cli);
  registerControlCommands(program, cli);
  const frameworks = registerFrameworksCommand(program, cli);
  registerFrameworkStatusCommand(frameworks, cli);
  registerGapsCommand(program, cli);
  registerCoverageCommand(program, cli);
  registerConflictsCommand(program, cli);
  registerSearchCommand(program, cli);
  registerImportCommand(program, cli);
  registerSimilarCommand(program, cli);
  registerMappingCommands(program, cli);
  registerRequirementCommands(program, cli);
  registerAssessCommand(program, cli);
  registerEvidenceCommands(program, cli);
  registerScoreCommand(program, cli);
  registerHistoryCommand(program, cli);
  registerSnapshotCommands(program, cli);
  registerSystemCommands(program, cli);
  registerRiskCommands(program, cli);
  registerImpactAssessmentCommands(program, cli);
  registerDocumentCommands(program, cli);
  registerAuditCommands(program, cli);
  registerFindingCommands(program, cli);
  registerReviewCommands(program, cli);
  registerDueCommand(program, cli);
  registerWebhookCommands(program, cli);
  registerExportCommands(program, cli);
  registerSoaCommands(program, cli);
  registerSidecarCommands(program, cli);
  registerAttestationCommands(program, cli);
  registerAttestCommand(program, cli);
  registerCheckCommand(program, cli);
  registerMcpCommand(program, cli);
  registerWorkerCommand(program);
}
