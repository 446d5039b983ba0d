/**
 * Requirement records: an organization's own judgement on one requirement of one framework (status,
 * applicability with justification and reviewer, owner, note) and the roll-up of its evidence. This module
 * is the only one that reads or writes `requirement_records` and `requirement_changes`; every feature that
 * needs requirement state asks it.
 *
 * Data access in this project is typed SQL with bind parameters (`em.execute`), one store module per table
 * or group of tables that share rules; MikroORM provides connections, transactions and migrations.
 *
 * Rules kept here:
 * - ISO/IEC 42001 controls always have a record with a status and an applicability (created with the org).
 *   Records of other frameworks exist once the org records something on the requirement; `status` or
 *   `applicable` null means the org has not judged that part (the crosswalk may infer the status).
 * - Every change of status or applicability is appended to the change log in the same transaction, with
 *   the row locked, so the log's from/to values chain exactly and history can be rebuilt from it.
 * - Expiry: a requirement's evidence has "all expired" when it has evidence, none of it is open-ended and
 *   the latest expiry is not after the instant asked about (`EVIDENCE_EXPIRED`); an item is expired from
 *   the instant its `expiresAt` is reached (`isExpired`).
 * - A record's evidence roll-up is its columns plus its attestation evidence pieces
 *   (`requirement_evidence_pieces`): ingest appends pieces instead of locking the record's row, every read
 *   of a roll-up goes through `RECORDS`, and `foldEvidencePieces` moves pieces into the columns now and then.
 */
import { autocommitted, type Database, type Em } from '../platform/db/database.js';
import { toIso } from '../platform/db/instant.js';
import { type EvidenceType, ISO_42001, type RequirementStatus } from '../shared/vocabulary.js';

export type ChangedField = 'status' | 'applicable';

/** An item is expired from the instant `expiresAt` is reached. */
export const isExpired = (expiresAt: string | null, now: Date) =>
  expiresAt !== null && new Date(expiresAt).getTime() <= now.getTime();

/**
 * The nonconformity rule (see `capStatus` in score.ts): an open major nonconformity on a requirement caps the
 * status its record counts with at `in_progress` (alias `r`). The cap rows are kept by `capRequirements`.
 */
const CAPPED = `exists (select 1 from requirement_caps c where c.org_id = r.org_id and c.framework_id = r.framework_id
    and c.requirement_id = r.requirement_id)`;

/**
 * `requirement_records` with the attestation evidence pieces not yet folded in, as every read of a roll-up
 * sees it (alias it `r`). A piece carries the latest expiry of the evidence it counts; a piece without one
 * counts evidence stored when attestation evidence did not expire, which is open-ended. The per-record sum is
 * an index range scan over the few pieces left since the last fold.
 */
const RECORDS = `(select r.org_id, r.framework_id, r.requirement_id,
    case when r.status = 'implemented' and ${CAPPED} then 'in_progress' else r.status end as status,
    ${CAPPED} as capped, r.applicable, r.justification,
    r.reviewer, r.owner, r.note, r.updated_at, r.evidence_document_count, r.evidence_link_count,
    greatest(r.evidence_expires_max, p.expires_max) as evidence_expires_max,
    r.evidence_count + coalesce(p.attestations, 0) as evidence_count,
    r.evidence_attestation_count + coalesce(p.attestations, 0) as evidence_attestation_count,
    r.evidence_never_expires or coalesce(p.never_expires, false) as evidence_never_expires
  from requirement_records r cross join lateral (select sum(p.attestations)::int as attestations,
      max(p.expires_max) as expires_max, bool_or(p.expires_max is null) as never_expires
    from requirement_evidence_pieces p
    where p.org_id = r.org_id and p.framework_id = r.framework_id and p.requirement_id = r.requirement_id) p)`;

/** The "all evidence expired" rule over a record's roll-up (alias `r`); its one parameter is the instant. */
const EVIDENCE_EXPIRED = `coalesce(r.evidence_count > 0 and not r.evidence_never_expires
  and r.evidence_expires_max <= ?::timestamptz, false)`;

const LATEST_EVIDENCE = 3;

/** A record's judgement, as propagation and scores read it. */
export interface RecordState {
  frameworkId: string;
  requirementId: string;
  status: RequirementStatus | null;
  applicable: boolean | null;
  /** It has evidence and all of it has expired. */
  evidenceExpired: boolean;
  /** When `evidenceExpired` turns true by itself (its last evidence expires later); null if it never will. */
  expiresAt: string | null;
}

export interface EvidenceRef {
  evidenceId: string;
  type: EvidenceType;
  title: string;
  createdAt: string;
  expired: boolean;
}

/** A record with its evidence summary (latest few items), as the list and item routes show it. */
export interface RecordView {
  requirementId: string;
  status: RequirementStatus | null;
  applicable: boolean | null;
  justification: string | null;
  reviewer: string | null;
  owner: string | null;
  note: string | null;
  updatedAt: string;
  evidenceCount: number;
  evidenceExpired: boolean;
  evidence: EvidenceRef[];
}

interface RecordViewRow extends Omit<RecordView, 'evidence'> {
  evidenceExpiresMax: string | null;
  evidence: {
    evidenceId: string;
    type: EvidenceType;
    title: string;
    createdAt: string;
    expiresAt: string | null;
  }[];
}

/** Creates the ISO/IEC 42001 records of one org (or of every org, for controls added to the library). */
export async function seedIsoRecords(tx: Em, orgId?: string): Promise<void> {
  await tx.execute(
    `insert into requirement_records (org_id, framework_id, requirement_id, status, applicable, updated_at)
     select o.org_id, ?, c.control_id, 'not_started', true, o.created_at from orgs o cross join controls c
     ${orgId === undefined ? '' : 'where o.org_id = ?'}
     on conflict do nothing`,
    orgId === undefined ? [ISO_42001] : [ISO_42001, orgId],
  );
}

/** Every record of the org (of one framework when given), in no particular order. */
export async function readRecordStates(
  em: Em,
  orgId: string,
  options: { frameworkId?: string; now?: Date } = {},
): Promise<RecordState[]> {
  const frameworkFilter = options.frameworkId === undefined ? '' : ' and r.framework_id = ?';
  const now = options.now ?? new Date();
  const states = await em.execute<RecordState[]>(
    `select r.framework_id as "frameworkId", r.requirement_id as "requirementId", r.status, r.applicable,
       ${EVIDENCE_EXPIRED} as "evidenceExpired",
       case when r.evidence_count > 0 and not r.evidence_never_expires and r.evidence_expires_max > ?::timestamptz
         then r.evidence_expires_max end as "expiresAt"
     from ${RECORDS} r where r.org_id = ?${frameworkFilter}`,
    [now, now, orgId, ...(options.frameworkId === undefined ? [] : [options.frameworkId])],
  );
  return states.map((state) =>
    state.expiresAt === null ? state : { ...state, expiresAt: toIso(state.expiresAt) },
  );
}

/**
 * The records of one framework with their evidence summaries: counts and expiry from the roll-up columns,
 * the latest few items from one lateral join (an index scan of a few rows per record).
 */
export async function readRecordViews(
  em: Em,
  orgId: string,
  frameworkId: string,
  options: { requirementId?: string; now?: Date } = {},
): Promise<{ records: RecordView[]; validUntil: number }> {
  const now = options.now ?? new Date();
  const params: unknown[] = [now, orgId, frameworkId];
  let filter = '';
  if (options.requirementId !== undefined) {
    filter = ' and r.requirement_id = ?';
    params.push(options.requirementId);
  }
  const rows = await em.execute<RecordViewRow[]>(
    `select r.requirement_id as "requirementId", r.status, r.applicable, r.justification, r.reviewer, r.owner,
       r.note, r.updated_at as "updatedAt", r.evidence_count as "evidenceCount",
       ${EVIDENCE_EXPIRED} as "evidenceExpired", r.evidence_expires_max as "evidenceExpiresMax",
       coalesce(latest.items, '[]'::json) as evidence
     from ${RECORDS} r
     left join lateral (
       select json_agg(json_build_object('evidenceId', e.evidence_id, 'type', e.type, 'title', e.title,
         'createdAt', e.created_at, 'expiresAt', e.expires_at) order by e.created_at desc, e.evidence_id desc) items
       from (select evidence_id, type, title, created_at, expires_at from evidence
         where org_id = r.org_id and framework_id = r.framework_id and requirement_id = r.requirement_id
         order by created_at desc, evidence_id desc limit ${LATEST_EVIDENCE}) e
     ) latest on true
     where r.org_id = ? and r.framework_id = ?${filter}`,
    params,
  );
  return { records: rows.map((row) => toView(row, now)), validUntil: nextExpiry(rows, now) };
}

function toView({ evidenceExpiresMax: _, ...row }: RecordViewRow, now: Date): RecordView {
  return {
    ...row,
    updatedAt: toIso(row.updatedAt),
    evidence: row.evidence.map((item) => ({
      evidenceId: item.evidenceId,
      type: item.type,
      title: item.title,
      createdAt: toIso(item.createdAt),
      expired: isExpired(item.expiresAt, now),
    })),
  };
}

/** The first instant after `now` at which an expiry changes what the views show (Infinity if none). */
function nextExpiry(rows: RecordViewRow[], now: Date): number {
  let next = Number.POSITIVE_INFINITY;
  const consider = (value: string | null) => {
    const at = value === null ? Number.NaN : new Date(value).getTime();
    if (at > now.getTime() && at < next) next = at;
  };
  for (const row of rows) {
    consider(row.evidenceExpiresMax);
    for (const item of row.evidence) consider(item.expiresAt);
  }
  return next;
}

export interface RecordKey {
  orgId: string;
  frameworkId: string;
  requirementId: string;
}

export interface Judgement {
  status?: RequirementStatus | null;
  applicable?: boolean | null;
  justification?: string | null;
  reviewer?: string | null;
  owner?: string | null;
  note?: string | null;
}

export interface ChangeAuthor {
  actor: string;
  keyId: string | null;
  /** Kept in the change log beside the change. */
  note?: string | null;
}

interface CurrentJudgement {
  status: RequirementStatus | null;
  applicable: boolean | null;
}

/**
 * Writes a judgement (the columns given; `undefined` leaves a column as it is) and logs every change of
 * status or applicability, in one transaction with the row locked. A record of another framework than ISO
 * 42001 is created on its first write. `check` sees the current values first and may refuse the change.
 * Returns the values the record had before.
 */
export async function writeJudgement(
  em: Em,
  key: RecordKey,
  judgement: Judgement,
  author: ChangeAuthor,
  check: (current: CurrentJudgement | undefined) => void = () => {},
  options: { create: boolean } = { create: true },
): Promise<CurrentJudgement | undefined> {
  return em.transactional(async (tx) => {
    const params = [key.orgId, key.frameworkId, key.requirementId];
    let [current] = await tx.execute<CurrentJudgement[]>(
      `select status, applicable from requirement_records
       where org_id = ? and framework_id = ? and requirement_id = ? for update`,
      params,
    );
    check(current);
    // Nothing to withdraw from a record that does not exist: leave no empty record behind.
    if (!current && !options.create) return undefined;
    if (!current) {
      // Concurrent first writes: one inserts, the other waits on the row lock of the winner.
      await tx.execute(
        `insert into requirement_records (org_id, framework_id, requirement_id, updated_at)
         values (?, ?, ?, ?) on conflict do nothing`,
        [...params, new Date()],
      );
      [current] = await tx.execute<CurrentJudgement[]>(
        `select status, applicable from requirement_records
         where org_id = ? and framework_id = ? and requirement_id = ? for update`,
        params,
      );
    }
    const columns = Object.entries(judgement).filter(([, value]) => value !== undefined);
    // Stamped now that the row is locked, not when the request began: writers of one record then carry
    // times in the order they commit, and history unwinds the log by time.
    const lockedAt = new Date();
    await tx.execute(
      `update requirement_records set ${columns.map(([column]) => `${column} = ?`).join(', ')}${columns.length ? ', ' : ''}updated_at = ?
       where org_id = ? and framework_id = ? and requirement_id = ?`,
      [...columns.map(([, value]) => value), lockedAt, ...params],
    );
    // A value written again is still a decision worth logging (a reviewer confirmed it); a withdrawal is
    // logged only when there was something to withdraw.
    const changes: [ChangedField, string | null, string | null][] = [];
    if (judgement.status !== undefined && (judgement.status !== null || current.status !== null)) {
      changes.push(['status', current.status, judgement.status]);
    }
    if (
      judgement.applicable !== undefined &&
      (judgement.applicable !== null || current.applicable !== null)
    ) {
      changes.push(['applicable', stringOf(current.applicable), stringOf(judgement.applicable)]);
    }
    for (const [field, from, to] of changes) {
      await tx.execute(
        `insert into requirement_changes
           (org_id, framework_id, requirement_id, field, from_value, to_value, actor, key_id, note, changed_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [...params, field, from, to, author.actor, author.keyId, author.note ?? null, lockedAt],
      );
    }
    return current;
  });
}

const stringOf = (value: boolean | null) => (value === null ? null : String(value));

/** True when the org has a record of the requirement (ISO 42001 controls always do). */
export async function recordExists(em: Em, key: RecordKey): Promise<boolean> {
  const rows = await em.execute(
    'select 1 from requirement_records where org_id = ? and framework_id = ? and requirement_id = ?',
    [key.orgId, key.frameworkId, key.requirementId],
  );
  return rows.length > 0;
}

/** Makes sure a record exists (with no judgement) so that evidence can roll up on it. */
export async function ensureRecord(tx: Em, key: RecordKey, now: Date): Promise<void> {
  await tx.execute(
    `insert into requirement_records (org_id, framework_id, requirement_id, updated_at)
     values (?, ?, ?, ?) on conflict do nothing`,
    [key.orgId, key.frameworkId, key.requirementId, now],
  );
}

export interface EvidenceRollupDelta extends RecordKey {
  count: number;
  byType: Record<EvidenceType, number>;
  /** Some new item has no expiry. */
  neverExpires: boolean;
  /** The latest expiry among the new items that have one. */
  expiresMax: Date | null;
}

/**
 * Moves the evidence roll-up of each record by the items just inserted, one statement per record, in a
 * fixed order so that concurrent batches lock the rows in the same order (no deadlocks). Call it in the
 * transaction that inserts the evidence.
 */
export async function addEvidenceRollups(tx: Em, deltas: EvidenceRollupDelta[]): Promise<void> {
  const ordered = [...deltas].sort((a, b) =>
    `${a.orgId}/${a.frameworkId}/${a.requirementId}`.localeCompare(
      `${b.orgId}/${b.frameworkId}/${b.requirementId}`,
    ),
  );
  for (const delta of ordered) {
    await tx.execute(
      `update requirement_records set evidence_count = evidence_count + ?,
         evidence_attestation_count = evidence_attestation_count + ?,
         evidence_document_count = evidence_document_count + ?,
         evidence_link_count = evidence_link_count + ?,
         evidence_never_expires = evidence_never_expires or ?,
         evidence_expires_max = greatest(evidence_expires_max, ?::timestamptz)
       where org_id = ? and framework_id = ? and requirement_id = ?`,
      [
        delta.count,
        delta.byType.attestation,
        delta.byType.document,
        delta.byType.link,
        delta.neverExpires,
        delta.expiresMax,
        delta.orgId,
        delta.frameworkId,
        delta.requirementId,
      ],
    );
  }
}

/**
 * A common table expression for a statement that inserted attestation evidence as `new_evidence(org_id,
 * framework_id, requirement_id, expires_at)`: appends one roll-up piece per record it added to, with the
 * latest expiry of the evidence it counts. Nothing it writes is
 * shared between statements, so concurrent ingest batches never wait on each other here (an update of the
 * records would hold their rows locked until commit).
 */
export const EVIDENCE_PIECES_CTE = `evidence_pieces as (
  insert into requirement_evidence_pieces (org_id, framework_id, requirement_id, attestations, expires_max)
  select org_id, framework_id, requirement_id, count(*)::int, max(expires_at) from new_evidence
  group by org_id, framework_id, requirement_id
)`;

/**
 * Moves an org's roll-up pieces into its records, in one statement: a reader sees the pieces or the moved
 * counts, never both or neither. Concurrent folds count nothing twice (a piece another fold deleted first is
 * skipped), and the records are locked in key order as `addEvidenceRollups` locks them. A piece of a record
 * that does not exist is dropped, as an update of the missing record would have been. Returns how many
 * pieces it folded.
 */
export async function foldEvidencePieces(db: Database, orgId: string): Promise<number> {
  const [row] = await autocommitted<{ folded: number }>(db, FOLD_PIECES, [orgId]);
  return row.folded;
}

const FOLD_PIECES = {
  name: 'comply-fold-evidence-pieces',
  text: `
with folded as (
  delete from requirement_evidence_pieces where org_id = $1
  returning framework_id, requirement_id, attestations, expires_max
), sums as (
  select framework_id, requirement_id, sum(attestations)::int as added, max(expires_max) as expires_max,
    bool_or(expires_max is null) as never_expires
  from folded
  group by framework_id, requirement_id
), locked as materialized (
  select r.framework_id, r.requirement_id, s.added, s.expires_max, s.never_expires
  from requirement_records r join sums s using (framework_id, requirement_id)
  where r.org_id = $1
  order by r.framework_id, r.requirement_id
  for update of r
), moved as (
  update requirement_records r set evidence_count = r.evidence_count + l.added,
    evidence_attestation_count = r.evidence_attestation_count + l.added,
    evidence_never_expires = r.evidence_never_expires or l.never_expires,
    evidence_expires_max = greatest(r.evidence_expires_max, l.expires_max)
  from locked l
  where r.org_id = $1 and r.framework_id = l.framework_id and r.requirement_id = l.requirement_id
)
select count(*)::int as folded from folded`,
};

/**
 * A scalar subquery giving a record's evidence total (of one type when given), 0 without a record; its
 * three parameters are org, framework and requirement. Lets an evidence page read its total in the same
 * statement as its rows.
 */
export function evidenceTotalSql(type?: EvidenceType): string {
  const column = type ? `evidence_${type}_count` : 'evidence_count';
  return `coalesce((select r.${column} from ${RECORDS} r
    where r.org_id = ? and r.framework_id = ? and r.requirement_id = ?), 0)`;
}

/** One logged change, as history and roll-ups unwind it. */
export interface LoggedChange {
  frameworkId: string;
  requirementId: string;
  field: ChangedField;
  fromValue: string | null;
  changedAt: number;
}

/** Changes at or after `since`, newest first (id breaks ties, so same-millisecond changes unwind in order). */
export async function readChangesSince(
  tx: Em,
  orgId: string,
  since: Date,
  frameworkId?: string,
): Promise<LoggedChange[]> {
  const rows = await tx.execute<(Omit<LoggedChange, 'changedAt'> & { changedAt: string })[]>(
    `select framework_id as "frameworkId", requirement_id as "requirementId", field, from_value as "fromValue",
       changed_at as "changedAt"
     from requirement_changes where org_id = ? and changed_at >= ?::timestamptz
     ${frameworkId === undefined ? '' : 'and framework_id = ?'}
     order by changed_at desc, id desc`,
    frameworkId === undefined ? [orgId, since] : [orgId, since, frameworkId],
  );
  return rows.map((row) => ({ ...row, changedAt: new Date(row.changedAt).getTime() }));
}

/**
 * The current records of one framework (or all), the changes since `since` (newest first) and, when asked,
 * the org's creation time, in one statement: one round trip and one consistent snapshot. `since` is a
 * value so that the planner walks the change-log index from it.
 */
export async function readStatesAndChanges(
  em: Em,
  orgId: string,
  since: Date,
  frameworkId?: string,
): Promise<{ states: RecordState[]; changes: LoggedChange[] }> {
  const frameworkFilter = frameworkId === undefined ? '' : ' and framework_id = ?';
  const frameworkParam = frameworkId === undefined ? [] : [frameworkId];
  const [row] = await em.execute<
    {
      states: [string, string, RequirementStatus | null, boolean | null][];
      changes: [string, string, ChangedField, string | null, string][];
    }[]
  >(
    `select
       coalesce((select json_agg(json_build_array(framework_id, requirement_id, status, applicable))
         from requirement_records where org_id = ?${frameworkFilter}), '[]'::json) as states,
       coalesce((select json_agg(json_build_array(framework_id, requirement_id, field, from_value, changed_at)
           order by changed_at desc, id desc)
         from requirement_changes where org_id = ? and changed_at >= ?::timestamptz${frameworkFilter}),
         '[]'::json) as changes`,
    [orgId, ...frameworkParam, orgId, since, ...frameworkParam],
  );
  return {
    states: row.states.map(([frameworkId, requirementId, status, applicable]) => ({
      frameworkId,
      requirementId,
      status,
      applicable,
      evidenceExpired: false,
      expiresAt: null,
    })),
    changes: row.changes.map(([frameworkId, requirementId, field, fromValue, changedAt]) => ({
      frameworkId,
      requirementId,
      field,
      fromValue,
      changedAt: Date.parse(changedAt),
    })),
  };
}

/** A record's full judgement, as snapshots and exports keep it. */
export interface RecordRow {
  frameworkId: string;
  requirementId: string;
  status: RequirementStatus | null;
  applicable: boolean | null;
  justification: string | null;
  reviewer: string | null;
  owner: string | null;
  note: string | null;
  updatedAt: string;
  evidenceCount: number;
}

/** Every record of the org (of one framework when given), ordered by framework and requirement id. */
export async function readRecords(em: Em, orgId: string, frameworkId?: string): Promise<RecordRow[]> {
  const rows = await em.execute<RecordRow[]>(
    `select framework_id as "frameworkId", requirement_id as "requirementId", status, applicable,
       justification, reviewer, owner, note, updated_at as "updatedAt", evidence_count::int as "evidenceCount"
     from ${RECORDS} r where org_id = ?${frameworkId === undefined ? '' : ' and framework_id = ?'}
     order by framework_id, requirement_id`,
    frameworkId === undefined ? [orgId] : [orgId, frameworkId],
  );
  return rows.map((row) => ({ ...row, updatedAt: toIso(row.updatedAt) }));
}

/** The last change of any of the org's requirement records (of any framework), or null if it has none. */
export async function lastRecordChange(em: Em, orgId: string): Promise<string | null> {
  const [row] = await em.execute<{ at: string | null }[]>(
    'select max(updated_at) as at from requirement_records where org_id = ?',
    [orgId],
  );
  return row?.at ? toIso(row.at) : null;
}

/** The requirements an open finding caps (see `capStatus`): set when it opens, released when it closes. */
export async function capRequirements(
  tx: Em,
  cap: { orgId: string; findingId: string; requirements: { frameworkId: string; requirementId: string }[] },
): Promise<void> {
  for (const { frameworkId, requirementId } of cap.requirements) {
    await tx.execute(
      `insert into requirement_caps (org_id, framework_id, requirement_id, finding_id) values (?, ?, ?, ?)
       on conflict do nothing`,
      [cap.orgId, frameworkId, requirementId, cap.findingId],
    );
  }
}

export async function releaseCaps(tx: Em, orgId: string, findingId: string): Promise<void> {
  await tx.execute('delete from requirement_caps where org_id = ? and finding_id = ?', [orgId, findingId]);
}

export interface RequirementCap {
  frameworkId: string;
  requirementId: string;
  findingId: string;
}

/** Every cap of the org (of one requirement when given). */
export async function readCaps(
  em: Em,
  orgId: string,
  requirement?: { frameworkId: string; requirementId: string },
): Promise<RequirementCap[]> {
  return em.execute<RequirementCap[]>(
    `select framework_id as "frameworkId", requirement_id as "requirementId", finding_id as "findingId"
     from requirement_caps where org_id = ?${requirement ? ' and framework_id = ? and requirement_id = ?' : ''}
     order by framework_id, requirement_id, finding_id`,
    requirement ? [orgId, requirement.frameworkId, requirement.requirementId] : [orgId],
  );
}
