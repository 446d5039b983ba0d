import { IsolationLevel } from '@mikro-orm/core';
import type { Em } from '../../platform/db/database.js';
import { invalidField, resourceNotFound } from '../../platform/errors.js';
import { selectOrg } from '../../records/orgs.store.js';
import { lastRecordChange, readRecordStates, readRecords } from '../../records/records.store.js';
import { countStates, scoreOf } from '../../records/score.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { listAiSystems } from '../ai-systems/ai-systems.service.js';
import type { Principal } from '../auth/scopes.js';
import { getSnapshot, requireSnapshot, type SnapshotView } from '../compliance/snapshots.service.js';
import { controlJudgement, controlLibrary, withLibraryControls } from '../controls/library.seed.js';
import type { Framework } from '../cte/framework.types.js';
import { currentLibrary, requireFramework } from '../cte/library.service.js';
import { selectRecordEvidence, selectRequirementsWithEvidence } from '../evidence/evidence.store.js';
import { listAssessments } from '../impact-assessments/impact-assessments.service.js';
import { listRequirements } from '../requirements/requirements.service.js';
import { type RiskView, registerOf } from '../risks/risks.service.js';
import { scoreHistory } from '../scores/history.service.js';
import type {
  ExportCheck,
  ExportControl,
  ExportEvidence,
  ExportHistoryPoint,
  ExportImpactAssessment,
  ExportRequester,
  ExportRisk,
  OrgExportData,
} from './export.types.js';
import { exportFramework } from './framework.js';
import { soaChecks } from './soa/soa-checks.js';

export { requireSnapshot };

export interface ExportLoadOptions {
  /** When the export is produced. */
  generatedAt: Date;
  /** The framework to read (any of the library); ISO/IEC 42001 when absent. */
  frameworkId?: string;
  /** Evidence references per control, newest first; all of them when absent (OSCAL). */
  evidenceLimit?: number;
  /** Read the score history for the chart (the PDF SoA). */
  history?: boolean;
}

/** A control as read from the database, before its evidence is attached. */
type ControlRow = Omit<ExportControl, 'evidence'>;

/**
 * The org's ISO/IEC 42001 controls in library order, from its requirement records, each with whether all of
 * its evidence has expired at `asOf` (the records store's rule, which the CI gate and coverage read).
 */
async function readControls(tx: Em, orgId: string, asOf: Date): Promise<ControlRow[]> {
  const states = await readRecordStates(tx, orgId, { frameworkId: ISO_42001, now: asOf });
  const expired = new Set(
    states.filter((state) => state.evidenceExpired).map((state) => state.requirementId),
  );
  return withLibraryControls(await readRecords(tx, orgId, ISO_42001)).map(
    ({ controlId, domain, domainTitle, title, description, record }) => ({
      controlId,
      domain,
      domainTitle,
      title,
      description,
      ...controlJudgement(record),
      note: record.note,
      evidenceCount: record.evidenceCount,
      evidenceExpired: expired.has(controlId),
    }),
  );
}

/** One requirement's evidence as the export shows it, newest first, up to `limit` items. */
async function readControlEvidence(
  tx: Em,
  orgId: string,
  frameworkId: string,
  controlId: string,
  limit: number,
): Promise<ExportEvidence[]> {
  const rows = await selectRecordEvidence(tx, { orgId, frameworkId, requirementId: controlId }, limit);
  return rows.map((row) => ({
    evidenceId: row.evidenceId,
    controlId,
    type: row.type,
    title: row.title,
    description: row.description,
    fileUrl: row.fileUrl,
    createdAt: row.createdAt,
    effectiveDate: row.effectiveDate,
    expiresAt: row.expiresAt,
  }));
}

async function readOrg(em: Em, orgId: string): Promise<OrgExportData['org']> {
  const org = await selectOrg(em, orgId);
  if (!org) throw resourceNotFound('Organization', { orgId });
  return org;
}

/** The daily score over the 30 days before `until` (now for live data), oldest first. */
async function readHistory(em: Em, orgId: string, until?: Date): Promise<ExportHistoryPoint[]> {
  const query = until
    ? { from: new Date(until.getTime() - 29 * 86_400_000).toISOString(), to: until.toISOString() }
    : {};
  const { history } = await scoreHistory(em, orgId, ISO_42001, query);
  return history.points.map((point) => ({ periodStart: point.periodStart, score: point.score }));
}

/** A risk of the register as the exports carry it. */
function exportRisk(risk: RiskView): ExportRisk {
  return {
    riskId: risk.riskId,
    title: risk.title,
    description: risk.description,
    category: risk.category,
    owner: risk.owner,
    systemIds: risk.systemIds,
    likelihood: risk.likelihood,
    impact: risk.impact,
    residualLikelihood: risk.residualLikelihood,
    residualImpact: risk.residualImpact,
    inherent: risk.inherent,
    residual: risk.residual,
    treatment: risk.treatment && {
      option: risk.treatment.option,
      requirements: risk.treatment.requirements.map(({ frameworkId, requirementId }) => ({
        frameworkId,
        requirementId,
      })),
      plan: risk.treatment.plan ?? null,
      dueDate: risk.treatment.dueDate ?? null,
    },
    treatmentProgress: {
      implemented: risk.treatmentProgress.implemented,
      total: risk.treatmentProgress.total,
    },
    treatmentOverdue: risk.treatmentOverdue,
    acceptance: risk.acceptance && {
      state: risk.acceptance.state,
      acceptedBy: risk.acceptance.acceptedBy.name,
      acceptedAt: risk.acceptance.acceptedAt,
      expiresAt: risk.acceptance.expiresAt,
    },
    state: risk.state,
    updatedAt: risk.updatedAt,
  };
}

/** The org's risk register, assessed against its records as they are now (oldest first). */
async function readRisks(tx: Em, orgId: string): Promise<ExportRisk[]> {
  return (await registerOf(tx, orgId)).risks.map(exportRisk);
}

/** Assessments read per page for the checks (the list's largest page). */
const ASSESSMENT_PAGE = 200;

/**
 * The org's approved AI system impact assessments, for the checks: the only ones they look at (a system
 * without one is flagged; an approved one may be due for reassessment).
 */
async function readImpactAssessments(tx: Em, orgId: string): Promise<ExportImpactAssessment[]> {
  const approved: ExportImpactAssessment[] = [];
  const now = new Date();
  for (let offset = 0; ; offset += ASSESSMENT_PAGE) {
    const page = await listAssessments(tx, orgId, { state: 'approved', limit: ASSESSMENT_PAGE, offset }, now);
    for (const assessment of page.assessments) {
      approved.push({
        assessmentId: assessment.assessmentId,
        systemId: assessment.systemId,
        state: assessment.state,
        reassessment: {
          due: assessment.reassessment.due,
          reasons: assessment.reassessment.reasons.map((reason) => reason.message),
        },
      });
    }
    if (page.assessments.length < ASSESSMENT_PAGE || offset + ASSESSMENT_PAGE >= page.total) return approved;
  }
}

/** The SoA's checks from what the export read, and the impact assessments. */
async function checksOf(
  tx: Em,
  orgId: string,
  data: Omit<Parameters<typeof soaChecks>[0], 'assessments'>,
): Promise<ExportCheck[]> {
  return soaChecks({ ...data, assessments: await readImpactAssessments(tx, orgId) });
}

/**
 * The checks of the org's Statement of Applicability (`GET /orgs/{orgId}/soa/checks`): its ISO/IEC 42001
 * controls, risks, AI systems and impact assessments read in one repeatable-read transaction.
 */
export async function loadSoaChecks(em: Em, orgId: string): Promise<ExportCheck[]> {
  return em.transactional(
    async (tx) => {
      const controls = await readControls(tx, orgId, new Date());
      const risks = await readRisks(tx, orgId);
      const aiSystems = await listAiSystems(tx, orgId, {});
      return checksOf(tx, orgId, { controls, risks, aiSystems });
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

const latest = (instants: Iterable<string>, floor: string) => {
  let result = floor;
  for (const instant of instants) if (instant > result) result = instant;
  return result;
};

/**
 * What both loaders build the same way from the org's rows: each row's evidence (newest first, up to
 * `evidenceLimit`; only rows in `withEvidence` are read when it is given), the AI systems, the counts and
 * score, and when anything last changed (`lastChange`: a change-log entry the rows do not show).
 */
async function assemble(
  tx: Em,
  orgId: string,
  org: { createdAt: string },
  rows: ControlRow[],
  frameworkId: string,
  options: ExportLoadOptions,
  extra: { withEvidence?: Set<string>; lastChange?: string | null; risks?: ExportRisk[] } = {},
) {
  const limit = options.evidenceLimit ?? Number.POSITIVE_INFINITY;
  const controls: ExportControl[] = [];
  for (const row of rows) {
    const evidence =
      extra.withEvidence === undefined || extra.withEvidence.has(row.controlId)
        ? await readControlEvidence(tx, orgId, frameworkId, row.controlId, limit)
        : [];
    controls.push({
      ...row,
      // Complete lists are counted exactly; capped ones rely on the roll-up kept beside the record.
      evidenceCount: Number.isFinite(limit) ? Math.max(row.evidenceCount, evidence.length) : evidence.length,
      evidence,
    });
  }
  const systems = await listAiSystems(tx, orgId, {});
  const counts = countStates(controls);
  const lastModified = latest(
    [
      ...controls.map((control) => control.updatedAt),
      ...controls.map((control) => control.evidence[0]?.createdAt ?? ''),
      ...systems.map((system) => system.updatedAt),
      ...(extra.risks ?? []).flatMap((risk) => [risk.updatedAt, risk.acceptance?.acceptedAt ?? '']),
      extra.lastChange ?? '',
    ],
    org.createdAt,
  );
  return {
    generatedAt: options.generatedAt.toISOString(),
    lastModified,
    score: scoreOf(counts),
    counts,
    controls,
    aiSystems: systems.map(({ systemId, name, description, owner, purpose, riskLevel, lifecycleStage }) => ({
      systemId,
      name,
      description,
      owner,
      purpose,
      riskLevel,
      lifecycleStage,
    })),
    ...(extra.risks ? { risks: extra.risks } : {}),
  };
}

/**
 * The live compliance state of an org as every export renders it, read in one repeatable-read
 * transaction so that controls, evidence, AI systems and risks agree with each other and with the score;
 * for ISO/IEC 42001 with the Statement of Applicability's checks too. ISO/IEC 42001 unless
 * `options.frameworkId` names another framework of the library.
 */
export async function loadExportData(
  em: Em,
  orgId: string,
  options: ExportLoadOptions,
): Promise<OrgExportData> {
  if (options.frameworkId !== undefined && options.frameworkId !== ISO_42001) {
    return loadFrameworkExportData(em, orgId, options.frameworkId, options);
  }
  const data = await em.transactional(
    async (tx) => {
      const org = await readOrg(tx, orgId);
      const rows = await readControls(tx, orgId, options.generatedAt);
      const risks = await readRisks(tx, orgId);
      const assembled = await assemble(tx, orgId, org, rows, ISO_42001, options, { risks });
      return {
        org,
        ...assembled,
        checks: await checksOf(tx, orgId, { ...assembled, risks }),
      } satisfies OrgExportData;
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
  return options.history ? { ...data, history: await readHistory(em, orgId) } : data;
}

/**
 * The org's requirements of one framework, in library order, each with its effective status: the org's
 * direct record, else what the crosswalk infers from the org's direct records of other frameworks
 * (`assessment` says which; see the requirements service). A requirement the org never recorded anything
 * on is dated by the org's creation and marked `recorded: false`.
 */
async function readRequirements(
  tx: Em,
  orgId: string,
  framework: Framework,
  orgCreatedAt: string,
): Promise<ControlRow[]> {
  const { requirements } = await listRequirements(tx, orgId, framework.id);
  const entries = new Map(requirements.map((entry) => [entry.requirementId, entry]));
  const domainTitles = new Map((framework.domains ?? []).map((domain) => [domain.id, domain.title]));
  return framework.requirements.flatMap((requirement) => {
    const entry = entries.get(requirement.id);
    if (!entry) return [];
    const domain = requirement.domain ?? '';
    return [
      {
        controlId: requirement.id,
        domain,
        domainTitle: domain ? (domainTitles.get(domain) ?? domain) : '',
        title: requirement.title,
        description: requirement.description,
        status: entry.status,
        applicable: entry.applicable,
        justification: entry.justification,
        reviewer: entry.reviewer,
        note: entry.note,
        updatedAt: entry.updatedAt ?? orgCreatedAt,
        recorded: entry.updatedAt !== null,
        assessment: entry.assessment,
        ...(entry.assessment === 'inferred' ? { inferredFrom: entry.inferred.from } : {}),
        evidenceCount: entry.evidenceCount,
        evidenceExpired: entry.evidenceExpired,
      },
    ];
  });
}

/**
 * `loadExportData` for a framework other than ISO/IEC 42001: the framework and its requirements come from
 * the current library (built in or imported), the org's state from its requirement records and the
 * crosswalk, all read in one repeatable-read transaction. An unknown framework is a 404.
 */
async function loadFrameworkExportData(
  em: Em,
  orgId: string,
  frameworkId: string,
  options: ExportLoadOptions,
): Promise<OrgExportData> {
  return em.transactional(
    async (tx) => {
      // Read inside the transaction: the same library revision as the requirements service sees.
      const { library, importedIds } = await currentLibrary(tx);
      const framework = requireFramework(library, frameworkId);
      const org = await readOrg(tx, orgId);
      const rows = await readRequirements(tx, orgId, framework, org.createdAt);
      return {
        org,
        framework: exportFramework(framework, { imported: importedIds.has(framework.id) }),
        ...(await assemble(tx, orgId, org, rows, frameworkId, options, {
          withEvidence: await selectRequirementsWithEvidence(tx, orgId, frameworkId),
          lastChange: await lastRecordChange(tx, orgId),
          risks: await readRisks(tx, orgId),
        })),
      } satisfies OrgExportData;
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
}

/**
 * Who asks for an export, as its title page names them: a signed-in person with their role in the org (a
 * platform administrator has none), or an API key by its name.
 */
export function requesterOf(principal: Principal): ExportRequester {
  const { actor } = principal;
  if (actor.type === 'key') return { type: 'key', name: actor.name, email: null, role: null };
  return {
    type: 'user',
    name: actor.name,
    email: principal.session?.email ?? null,
    role: principal.membership?.role ?? (principal.platform ? 'platform administrator' : null),
  };
}

/**
 * Snapshots are exported as ISO/IEC 42001 only: another framework together with a snapshot is a 400 that
 * names `frameworkId`.
 */
export function refuseSnapshotOfOtherFramework(frameworkId: string, snapshotId: string | undefined): void {
  if (snapshotId === undefined || frameworkId === ISO_42001) return;
  throw invalidField(
    'frameworkId',
    `must be ${ISO_42001} when snapshotId is given: snapshots are exported as ISO/IEC 42001 only`,
    { frameworkId, snapshotId },
  );
}

/** Fails with 404 "Framework not found" unless the library (built in or imported) has this framework. */
export async function requireExportFramework(em: Em, frameworkId: string): Promise<void> {
  if (frameworkId === ISO_42001) return;
  requireFramework((await currentLibrary(em)).library, frameworkId);
}

/**
 * The state frozen in a snapshot: statuses and their notes, applicability, evidence references, score and
 * counts as they were. Only what the library defines (domain titles, control summaries) and the org's name are
 * read as they are now; AI systems, risks and the checks are not part of a snapshot and are left out.
 */
export async function loadSnapshotExportData(
  em: Em,
  orgId: string,
  snapshotId: string,
  options: ExportLoadOptions,
): Promise<OrgExportData> {
  const snapshot: SnapshotView = await getSnapshot(em, orgId, snapshotId);
  const org = await readOrg(em, orgId);
  const { domains, controls: libraryControls } = controlLibrary();
  const domainTitles = new Map(domains.map((domain) => [domain.id, domain.title]));
  const library = new Map(
    libraryControls.map((control) => [
      control.controlId,
      { domainTitle: domainTitles.get(control.domain) ?? control.domain, description: control.description },
    ]),
  );
  const limit = options.evidenceLimit ?? Number.POSITIVE_INFINITY;
  const controls: ExportControl[] = snapshot.controls.map((control) => ({
    controlId: control.controlId,
    domain: control.domain,
    domainTitle: library.get(control.controlId)?.domainTitle ?? control.domain,
    title: control.title,
    description: library.get(control.controlId)?.description ?? control.title,
    status: control.status,
    applicable: control.applicable,
    justification: control.justification,
    reviewer: control.reviewer,
    // Snapshots taken before notes were frozen have none.
    note: control.note ?? null,
    updatedAt: control.updatedAt,
    evidenceCount: control.evidenceCount,
    // Every item, flagged when the snapshot was taken: all of them expired then.
    evidenceExpired: control.evidence.length > 0 && control.evidence.every((item) => item.expired),
    evidence: control.evidence.slice(0, limit).map((item) => ({
      evidenceId: item.evidenceId,
      controlId: control.controlId,
      type: item.type,
      title: item.title,
      description: null,
      fileUrl: item.fileUrl,
      createdAt: item.createdAt,
      effectiveDate: item.effectiveDate,
      expiresAt: item.expiresAt,
    })),
  }));
  let history: ExportHistoryPoint[] | undefined;
  if (options.history) {
    const takenAt = new Date(snapshot.createdAt);
    // Days that ended before the snapshot, then the snapshot itself: the chart ends on the frozen score.
    const before = (await readHistory(em, orgId, takenAt)).filter(
      (point) => Date.parse(point.periodStart) + 86_400_000 <= takenAt.getTime(),
    );
    history = [...before, { periodStart: snapshot.createdAt, score: snapshot.score }];
  }
  return {
    org,
    generatedAt: options.generatedAt.toISOString(),
    lastModified: snapshot.createdAt,
    score: snapshot.score,
    counts: snapshot.counts,
    history,
    snapshot: {
      snapshotId: snapshot.snapshotId,
      label: snapshot.label,
      createdAt: snapshot.createdAt,
      contentHash: snapshot.contentHash,
    },
    snapshotHasNotes: snapshot.controls.length > 0 && snapshot.controls.every((c) => c.note !== undefined),
    controls,
    aiSystems: [],
  };
}
