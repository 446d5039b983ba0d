import { IsolationLevel } from '@mikro-orm/core';
import type { Em } from '../../platform/db/database.js';
import { invalidField, resourceNotFound } from '../../platform/errors.js';
import { readRecords } from '../../records/records.store.js';
import { countStates, scoreOf } from '../../records/score.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { getSnapshot, type SnapshotView } from '../compliance/snapshots.service.js';
import { controlJudgement, controlLibrary, withLibraryControls } from '../controls/library.seed.js';
import type { Framework } from '../cte/framework.types.js';
import { currentLibrary, requireFramework } from '../cte/library.service.js';
import { listRequirements } from '../requirements/requirements.service.js';
import { scoreHistory } from '../scores/history.service.js';
import type {
  EvidenceType,
  ExportAiSystem,
  ExportControl,
  ExportEvidence,
  ExportHistoryPoint,
  OrgExportData,
} from './export.types.js';
import { exportFramework } from './framework.js';

/** Evidence rows read per query: large enough that 100k rows take a few round trips, small enough to stream. */
const EVIDENCE_PAGE_SIZE = 20_000;

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

type DbInstant = string | Date;

// PostgreSQL's ISO output of a timestamptz: `2026-11-22 10:00:00.123456+00` (fraction and minutes optional).
const PG_INSTANT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?([+-]\d\d)(?::?(\d\d))?$/;

/**
 * A timestamptz as `Date#toISOString` writes it, from the text the driver returns. Parsing it into a
 * Date and back costs more than the rest of a row; an offset other than UTC takes the slow way.
 */
export function isoInstant(value: DbInstant): string {
  if (value instanceof Date) return value.toISOString();
  const match = PG_INSTANT.exec(value);
  if (!match) return new Date(value).toISOString();
  const [, date, time, fraction = '', hours, minutes = '00'] = match;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  if (hours === '+00' && minutes === '00') return `${date}T${time}.${millis}Z`;
  return new Date(`${date}T${time}.${millis}${hours}:${minutes}`).toISOString();
}

/** A control as read from the database, before its evidence is attached. */
type ControlRow = Omit<ExportControl, 'evidence'>;

/** The org's ISO/IEC 42001 controls in library order, from its requirement records. */
async function readControls(tx: Em, orgId: string): Promise<ControlRow[]> {
  return withLibraryControls(await readRecords(tx, orgId, ISO_42001)).map(
    ({ controlId, domain, domainTitle, title, description, record }) => ({
      controlId,
      domain,
      domainTitle,
      title,
      description,
      ...controlJudgement(record),
      evidenceCount: record.evidenceCount,
    }),
  );
}

const EVIDENCE_COLUMNS = `evidence_id as "evidenceId", type, title, description, file_url as "fileUrl",
  created_at as "createdAt"`;

interface EvidenceRow {
  evidenceId: string;
  type: EvidenceType;
  title: string;
  description: string | null;
  fileUrl: string | null;
  /** Kept as the driver returns it for the keyset: full precision, whatever the session's time zone. */
  createdAt: DbInstant;
}

/**
 * One requirement's evidence, newest first, read in keyset pages over the `(org, framework, requirement,
 * created_at desc, evidence_id desc)` index: only the columns the export shows, no entity hydration.
 */
async function readControlEvidence(
  tx: Em,
  orgId: string,
  frameworkId: string,
  controlId: string,
  limit: number,
): Promise<ExportEvidence[]> {
  const evidence: ExportEvidence[] = [];
  let after: EvidenceRow | undefined;
  while (evidence.length < limit) {
    const pageSize = Math.min(EVIDENCE_PAGE_SIZE, limit - evidence.length);
    const rows: EvidenceRow[] = await tx.execute<EvidenceRow[]>(
      after
        ? `select ${EVIDENCE_COLUMNS} from evidence where org_id = ? and framework_id = ? and requirement_id = ?
             and (created_at, evidence_id) < (?::timestamptz, ?)
           order by created_at desc, evidence_id desc limit ?`
        : `select ${EVIDENCE_COLUMNS} from evidence where org_id = ? and framework_id = ? and requirement_id = ?
           order by created_at desc, evidence_id desc limit ?`,
      after
        ? [orgId, frameworkId, controlId, after.createdAt, after.evidenceId, pageSize]
        : [orgId, frameworkId, controlId, pageSize],
    );
    for (const row of rows) {
      evidence.push({
        evidenceId: row.evidenceId,
        controlId,
        type: row.type,
        title: row.title,
        description: row.description,
        fileUrl: row.fileUrl,
        createdAt: isoInstant(row.createdAt),
      });
    }
    if (rows.length < pageSize) break;
    after = rows[rows.length - 1];
  }
  return evidence;
}

async function readAiSystems(tx: Em, orgId: string): Promise<(ExportAiSystem & { updatedAt: DbInstant })[]> {
  return tx.execute(
    `select system_id as "systemId", name, description, owner, purpose, risk_level as "riskLevel",
       lifecycle_stage as "lifecycleStage", updated_at as "updatedAt"
     from ai_systems where org_id = ? order by lower(name), system_id`,
    [orgId],
  );
}

async function readOrg(em: Em, orgId: string): Promise<OrgExportData['org']> {
  const [org] = await em.execute<{ orgId: string; name: string; createdAt: DbInstant }[]>(
    'select org_id as "orgId", name, created_at as "createdAt" from orgs where org_id = ?',
    [orgId],
  );
  if (!org) throw resourceNotFound('Organization', { orgId });
  return { ...org, createdAt: isoInstant(org.createdAt) };
}

/** The daily score over the 30 days before `until` (now for live data), oldest first. */
async function readHistory(em: Em, orgId: string, until?: Date): Promise<ExportHistoryPoint[]> {
  const query = until
    ? { from: new Date(until.getTime() - 29 * 86_400_000).toISOString(), to: until.toISOString() }
    : {};
  const { history } = await scoreHistory(em, orgId, ISO_42001, query);
  return history.points.map((point) => ({ periodStart: point.periodStart, score: point.score }));
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
  extra: { withEvidence?: Set<string>; lastChange?: string | null } = {},
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
  const systems = await readAiSystems(tx, orgId);
  const counts = countStates(controls);
  const lastModified = latest(
    [
      ...controls.map((control) => control.updatedAt),
      ...controls.map((control) => control.evidence[0]?.createdAt ?? ''),
      ...systems.map((system) => isoInstant(system.updatedAt)),
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
    aiSystems: systems.map(({ updatedAt: _updatedAt, ...system }) => system),
  };
}

/**
 * The live compliance state of an org as every export renders it, read in one repeatable-read
 * transaction so that controls, evidence and AI systems agree with each other and with the score.
 * ISO/IEC 42001 unless `options.frameworkId` names another framework of the library.
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
      const rows = await readControls(tx, orgId);
      return {
        org,
        ...(await assemble(tx, orgId, org, rows, ISO_42001, options)),
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
        updatedAt: entry.updatedAt ?? orgCreatedAt,
        recorded: entry.updatedAt !== null,
        assessment: entry.assessment,
        ...(entry.assessment === 'inferred' ? { inferredFrom: entry.inferred.from } : {}),
        evidenceCount: entry.evidenceCount,
      },
    ];
  });
}

/** The requirements of one framework that have evidence in the org: one index scan, no per-requirement probe. */
async function requirementsWithEvidence(tx: Em, orgId: string, frameworkId: string): Promise<Set<string>> {
  const rows = await tx.execute<{ requirementId: string }[]>(
    'select distinct requirement_id as "requirementId" from evidence where org_id = ? and framework_id = ?',
    [orgId, frameworkId],
  );
  return new Set(rows.map((row) => row.requirementId));
}

/** The last change of any of the org's requirement records: inferred statuses follow every framework's. */
async function lastRecordChange(tx: Em, orgId: string): Promise<string | null> {
  const [row] = await tx.execute<{ at: DbInstant | null }[]>(
    'select max(updated_at) as at from requirement_records where org_id = ?',
    [orgId],
  );
  return row?.at ? isoInstant(row.at) : null;
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
          withEvidence: await requirementsWithEvidence(tx, orgId, frameworkId),
          lastChange: await lastRecordChange(tx, orgId),
        })),
      } satisfies OrgExportData;
    },
    { isolationLevel: IsolationLevel.REPEATABLE_READ, readOnly: true },
  );
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

/** Fails with 404 "Snapshot not found" unless the org has this snapshot. */
export async function requireSnapshot(em: Em, orgId: string, snapshotId: string): Promise<void> {
  const [row] = await em.execute<{ found: number }[]>(
    'select 1 as found from compliance_snapshots where org_id = ? and snapshot_id = ?',
    [orgId, snapshotId],
  );
  if (!row) throw resourceNotFound('Snapshot', { snapshotId });
}

/**
 * The state frozen in a snapshot: statuses, applicability, evidence references, score and counts as
 * they were. Only what the library defines (domain titles, control summaries) and the org's name are
 * read as they are now; AI systems are not part of a snapshot and are left out.
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
    updatedAt: control.updatedAt,
    evidenceCount: control.evidenceCount,
    evidence: control.evidence.slice(0, limit).map((item) => ({
      evidenceId: item.evidenceId,
      controlId: control.controlId,
      type: item.type,
      title: item.title,
      description: null,
      fileUrl: item.fileUrl,
      createdAt: item.createdAt,
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
    controls,
    aiSystems: [],
  };
}
