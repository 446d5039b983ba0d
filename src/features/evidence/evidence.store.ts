/**
 * Evidence items: the module that writes `evidence` and reads it for every feature (the evidence routes,
 * snapshots, exports). Rows come back with ISO timestamps. Two statements elsewhere touch the table as part
 * of a larger single statement: the attestation batch (attestations.store) inserts attestation evidence,
 * and the records' views (records.store) read the latest few items of each record.
 */
import { randomUUID } from 'node:crypto';
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
import {
  addEvidenceRollups,
  type EvidenceRollupDelta,
  evidenceTotalSql,
  type RecordKey,
} from '../../records/records.store.js';
import type { EvidenceType } from '../../shared/vocabulary.js';

/** One evidence item as stored. */
export interface EvidenceRow {
  evidenceId: string;
  frameworkId: string;
  requirementId: string;
  type: EvidenceType;
  title: string;
  description: string | null;
  fileUrl: string | null;
  attestationId: string | null;
  effectiveDate: string | null;
  expiresAt: string | null;
  createdAt: string;
  createdBy: string | null;
}

export const EVIDENCE_COLUMNS = `evidence_id as "evidenceId", framework_id as "frameworkId",
  requirement_id as "requirementId", type, title, description, file_url as "fileUrl",
  attestation_id as "attestationId", effective_date as "effectiveDate", expires_at as "expiresAt",
  created_at as "createdAt", created_by as "createdBy"`;

const toRow = (row: EvidenceRow): EvidenceRow => ({
  ...row,
  effectiveDate: toIsoOrNull(row.effectiveDate),
  expiresAt: toIsoOrNull(row.expiresAt),
  createdAt: toIso(row.createdAt),
});

/** From this offset on, skipped rows are read from the index only. */
const DEEP_OFFSET = 500;

/**
 * One page of a record's evidence, newest first (ties broken by id, so pages are stable), with the total,
 * read by one statement: a single round trip and a single snapshot for the page and its total. The page is
 * an index scan and the totals are the record's roll-up columns, so the cost is O(offset + page) whatever
 * the table size.
 */
export async function selectEvidencePage(
  em: Em,
  key: RecordKey,
  query: { type?: EvidenceType; limit: number; offset: number },
): Promise<{ total: number; evidence: EvidenceRow[] }> {
  const { orgId, frameworkId, requirementId } = key;
  // The page names the record as values, not as references to an outer row: only then does the planner
  // see how selective they are and walk the index instead of sorting the record's whole slice.
  const match = `org_id = ? and framework_id = ? and requirement_id = ?${query.type ? ' and type = ?' : ''}`;
  const order = 'order by created_at desc, evidence_id desc';
  // Deep pages skip rows in the index alone (it holds every ordering column), then fetch only the page.
  const page =
    query.offset < DEEP_OFFSET
      ? `select ${EVIDENCE_COLUMNS} from evidence where ${match} ${order} limit ? offset ?`
      : `select ${EVIDENCE_COLUMNS} from evidence join (select evidence_id from evidence where ${match}
           ${order} limit ? offset ?) deep using (evidence_id)`;
  const [row] = await em.execute<{ total: number; evidence: EvidenceRow[] }[]>(
    `select ${evidenceTotalSql(query.type)} as total,
       coalesce((select json_agg(page order by page."createdAt" desc, page."evidenceId" desc) from (${page}) page),
         '[]'::json) as evidence`,
    [
      orgId,
      frameworkId,
      requirementId,
      orgId,
      frameworkId,
      requirementId,
      ...(query.type ? [query.type] : []),
      query.limit,
      query.offset,
    ],
  );
  return { total: row.total, evidence: row.evidence.map(toRow) };
}

export async function selectEvidenceItem(
  em: Em,
  key: RecordKey,
  evidenceId: string,
): Promise<EvidenceRow | null> {
  const [row] = await em.execute<EvidenceRow[]>(
    `select ${EVIDENCE_COLUMNS} from evidence
     where org_id = ? and framework_id = ? and requirement_id = ? and evidence_id = ?`,
    [key.orgId, key.frameworkId, key.requirementId, evidenceId],
  );
  return row ? toRow(row) : null;
}

/** An item of the expiring list: where it is and when it expires. */
export type ExpiringEvidenceRow = Pick<
  EvidenceRow,
  'evidenceId' | 'frameworkId' | 'requirementId' | 'type' | 'title'
> & { expiresAt: string };

/**
 * The org's evidence whose expiry falls in [from, to), soonest first, across every framework, with the
 * total, read by one statement on the partial expiry index: O(matches) for the total, O(offset + page)
 * for the page.
 */
export async function selectExpiringEvidence(
  em: Em,
  orgId: string,
  query: { from: Date; to: Date; limit: number; offset: number },
): Promise<{ total: number; evidence: ExpiringEvidenceRow[] }> {
  const { from, to } = query;
  const match = 'org_id = ? and expires_at is not null and expires_at >= ? and expires_at < ?';
  const [row] = await em.execute<{ total: number; evidence: ExpiringEvidenceRow[] }[]>(
    `select (select count(*)::int from evidence where ${match}) as total,
       coalesce((select json_agg(page order by page."expiresAt", page."evidenceId") from (
         select evidence_id as "evidenceId", framework_id as "frameworkId", requirement_id as "requirementId", type,
           title, expires_at as "expiresAt"
         from evidence where ${match} order by expires_at, evidence_id limit ? offset ?) page), '[]'::json) as evidence`,
    [orgId, from, to, orgId, from, to, query.limit, query.offset],
  );
  return {
    total: row.total,
    evidence: row.evidence.map((item) => ({ ...item, expiresAt: toIso(item.expiresAt) })),
  };
}

/** Evidence rows read per query: large enough that 100k rows take a few round trips, small enough to stream. */
const KEYSET_PAGE_SIZE = 20_000;

/**
 * A record's evidence, newest first, up to `limit` items (all of them for Infinity), read in keyset pages
 * over the `(org, framework, requirement, created_at desc, evidence_id desc)` index.
 */
export async function selectRecordEvidence(em: Em, key: RecordKey, limit: number): Promise<EvidenceRow[]> {
  const evidence: EvidenceRow[] = [];
  // The last row as the driver returned it: its timestamp keeps full precision for the keyset.
  let after: EvidenceRow | undefined;
  while (evidence.length < limit) {
    const pageSize = Math.min(KEYSET_PAGE_SIZE, limit - evidence.length);
    const match = 'org_id = ? and framework_id = ? and requirement_id = ?';
    const rows = await em.execute<EvidenceRow[]>(
      after
        ? `select ${EVIDENCE_COLUMNS} from evidence where ${match}
             and (created_at, evidence_id) < (?::timestamptz, ?)
           order by created_at desc, evidence_id desc limit ?`
        : `select ${EVIDENCE_COLUMNS} from evidence where ${match}
           order by created_at desc, evidence_id desc limit ?`,
      after
        ? [key.orgId, key.frameworkId, key.requirementId, after.createdAt, after.evidenceId, pageSize]
        : [key.orgId, key.frameworkId, key.requirementId, pageSize],
    );
    for (const row of rows) evidence.push(toRow(row));
    if (rows.length < pageSize) break;
    after = rows[rows.length - 1];
  }
  return evidence;
}

/** The requirements of one framework that have evidence in the org: one index scan, no per-requirement probe. */
export async function selectRequirementsWithEvidence(
  em: Em,
  orgId: string,
  frameworkId: string,
): Promise<Set<string>> {
  const rows = await em.execute<{ requirementId: string }[]>(
    'select distinct requirement_id as "requirementId" from evidence where org_id = ? and framework_id = ?',
    [orgId, frameworkId],
  );
  return new Set(rows.map((row) => row.requirementId));
}

/** Every evidence item of the org, by framework and requirement, each record's newest first. */
export async function selectOrgEvidence(em: Em, orgId: string): Promise<EvidenceRow[]> {
  const rows = await em.execute<EvidenceRow[]>(
    `select ${EVIDENCE_COLUMNS} from evidence where org_id = ?
     order by framework_id, requirement_id, created_at desc, evidence_id desc`,
    [orgId],
  );
  return rows.map(toRow);
}

export interface NewEvidence {
  orgId: string;
  frameworkId: string;
  requirementId: string;
  type: EvidenceType;
  title: string;
  description?: string | null;
  fileUrl?: string | null;
  attestationId?: string | null;
  effectiveDate?: Date | null;
  expiresAt?: Date | null;
  createdAt: Date;
  createdBy?: string | null;
}

const COLUMNS = [
  'evidence_id',
  'org_id',
  'framework_id',
  'requirement_id',
  'type',
  'title',
  'description',
  'file_url',
  'attestation_id',
  'effective_date',
  'expires_at',
  'created_at',
  'created_by',
];

/**
 * Inserts evidence rows (one multi-row statement) and moves each requirement record's roll-up (counts, expiry)
 * with one statement per control. Call it inside the caller's transaction: evidence and roll-up commit
 * together. Returns the new ids in input order.
 */
export async function insertEvidence(tx: Em, rows: NewEvidence[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const ids = rows.map(() => randomUUID());
  const placeholders = rows.map(() => `(${COLUMNS.map(() => '?').join(', ')})`).join(', ');
  const params = rows.flatMap((row, index) => [
    ids[index],
    row.orgId,
    row.frameworkId,
    row.requirementId,
    row.type,
    row.title,
    row.description ?? null,
    row.fileUrl ?? null,
    row.attestationId ?? null,
    row.effectiveDate ?? null,
    row.expiresAt ?? null,
    row.createdAt,
    row.createdBy ?? null,
  ]);
  await tx.execute(`insert into evidence (${COLUMNS.join(', ')}) values ${placeholders}`, params);

  const deltas = new Map<string, EvidenceRollupDelta>();
  for (const row of rows) {
    const key = `${row.orgId}\u0000${row.frameworkId}\u0000${row.requirementId}`;
    const delta = deltas.get(key) ?? {
      orgId: row.orgId,
      frameworkId: row.frameworkId,
      requirementId: row.requirementId,
      count: 0,
      byType: { attestation: 0, document: 0, link: 0 },
      neverExpires: false,
      expiresMax: null,
    };
    delta.count += 1;
    delta.byType[row.type] += 1;
    if (!row.expiresAt) delta.neverExpires = true;
    else if (!delta.expiresMax || row.expiresAt > delta.expiresMax) delta.expiresMax = row.expiresAt;
    deltas.set(key, delta);
  }
  await addEvidenceRollups(tx, [...deltas.values()]);
  return ids;
}

/**
 * The org's evidence that expires, of the kinds people keep (documents and links; attestations are renewed by
 * their sidecars), for the agenda of what is due.
 */
export async function selectDatedEvidence(
  em: Em,
  orgId: string,
): Promise<
  { evidenceId: string; frameworkId: string; requirementId: string; title: string; expiresAt: string }[]
> {
  const rows = await em.execute<
    { evidenceId: string; frameworkId: string; requirementId: string; title: string; expiresAt: string }[]
  >(
    `select evidence_id as "evidenceId", framework_id as "frameworkId", requirement_id as "requirementId", title,
       expires_at as "expiresAt"
     from evidence where org_id = ? and expires_at is not null and type <> 'attestation'`,
    [orgId],
  );
  return rows.map((row) => ({ ...row, expiresAt: toIso(row.expiresAt) }));
}
