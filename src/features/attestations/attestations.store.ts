import { autocommitted, type Database, type Em } from '../../platform/db/database.js';
import { toIso } from '../../platform/db/instant.js';
import { EVIDENCE_PIECES_CTE } from '../../records/records.store.js';
import type { AttestationLevel, AttestationRecord } from '../../shared/attestation-content.js';

/** An attestation checked and ready to write: everything but the database's verdict is known. */
export interface PreparedAttestation extends Omit<AttestationRecord, 'receivedAt'> {
  orgId: string;
  /** Canonical JSON of the body without signature. */
  content: string;
  /** API key that posted it. */
  postedBy: string | null;
}

export interface AttestationRow {
  org_id: string;
  attestation_id: string;
  content: string;
  content_hash: string;
  server_assigned_id: boolean;
  /** The AI system's id; the content holds the system as the body named it (perhaps by name). */
  system_id: string | null;
  signature_key_id: string | null;
  signature_value: string | null;
  received_at: string;
}

export const ROW_COLUMNS =
  'org_id, attestation_id, content, content_hash, server_assigned_id, system_id, signature_key_id, signature_value, received_at';

export const rowKey = (orgId: string, attestationId: string) => `${orgId}\u0000${attestationId}`;

/**
 * The whole write of an ingest batch as one statement: the attestations (a row whose id exists already,
 * committed or committed meanwhile by a concurrent writer the statement waits for, is skipped: the unique
 * key, not a prior read, decides), one evidence row per control of each attestation inserted, and the
 * roll-up pieces of those evidence rows (`EVIDENCE_PIECES_CTE`, which appends and locks no shared row, so
 * concurrent batches never wait on each other's commits). One statement commits on its own, so the batch
 * costs one round trip and holds no connection idle in a transaction. Attestations go in key order, so that
 * concurrent batches meet on the unique key in the same order.
 *
 * Parameters are arrays, one per column, so the text is the same for every batch size.
 */
const STORE_BATCH = {
  name: 'comply-store-attestations',
  text: `
with input as (
  select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[],
      $7::text[], $8::text[], $9::boolean[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[])
    as t(org_id, attestation_id, level, epoch_id, system_id, attested_at, content, content_hash,
      server_assigned_id, signature_key_id, signature_value, posted_by, title, description)
), inserted as (
  insert into attestations (org_id, attestation_id, level, epoch_id, system_id, attested_at, content,
    content_hash, server_assigned_id, signature_key_id, signature_value, posted_by, received_at)
  select org_id, attestation_id, level, epoch_id, system_id, attested_at, content, content_hash,
    server_assigned_id, signature_key_id, signature_value, posted_by, $15::timestamptz
  from input order by org_id, attestation_id collate "C"
  on conflict (org_id, attestation_id) do nothing
  returning org_id, attestation_id
), new_evidence as (
  insert into evidence (evidence_id, org_id, framework_id, requirement_id, type, title, description,
    attestation_id, effective_date, expires_at, created_at, created_by)
  select gen_random_uuid()::text, e.org_id, $16::text, e.requirement_id, 'attestation', i.title,
    i.description, e.attestation_id, i.attested_at, i.attested_at + make_interval(days => $20::int),
    $15::timestamptz, i.posted_by
  from unnest($17::text[], $18::text[], $19::text[]) as e(org_id, attestation_id, requirement_id)
  join inserted a on a.org_id = e.org_id and a.attestation_id = e.attestation_id collate "C"
  join input i on i.org_id = e.org_id and i.attestation_id = e.attestation_id
  returning org_id, framework_id, requirement_id, expires_at
), ${EVIDENCE_PIECES_CTE}
select org_id, attestation_id from inserted`,
};

/** What an attestation's evidence row says about it (one row per control it names). */
const evidenceTitle = (row: PreparedAttestation) => `${row.level} attestation ${row.attestationId}`;
const evidenceDescription = (row: PreparedAttestation) =>
  `Epoch ${row.epochId}${row.systemId ? `, AI system ${row.systemId}` : ''}`;

/**
 * Stores a batch of distinct attestations with their evidence (of `frameworkId`, expiring `freshnessDays`
 * after each attestation's time) and its roll-up pieces, in one autocommitted statement (STORE_BATCH), and
 * returns the keys of the attestations that were new.
 */
export async function storeAttestationBatch(
  db: Database,
  rows: PreparedAttestation[],
  frameworkId: string,
  receivedAt: Date,
  freshnessDays: number,
): Promise<Set<string>> {
  const column = <T>(pick: (row: PreparedAttestation) => T) => rows.map(pick);
  const evidence = rows.flatMap((row) => row.controlIds.map((controlId) => [row, controlId] as const));
  const inserted = await autocommitted<{ org_id: string; attestation_id: string }>(db, STORE_BATCH, [
    column((row) => row.orgId),
    column((row) => row.attestationId),
    column((row) => row.level),
    column((row) => row.epochId),
    column((row) => row.systemId),
    column((row) => row.timestamp),
    column((row) => row.content),
    column((row) => row.contentHash),
    column((row) => row.serverAssignedId),
    column((row) => row.signature?.keyId ?? null),
    column((row) => row.signature?.value ?? null),
    column((row) => row.postedBy),
    column(evidenceTitle),
    column(evidenceDescription),
    receivedAt,
    frameworkId,
    evidence.map(([row]) => row.orgId),
    evidence.map(([row]) => row.attestationId),
    evidence.map(([, controlId]) => controlId),
    freshnessDays,
  ]);
  return new Set(inserted.map((row) => rowKey(row.org_id, row.attestation_id)));
}

/** The stored rows for the given (org, id) pairs, by `rowKey`. */
export async function findAttestationRows(
  em: Em,
  keys: { orgId: string; attestationId: string }[],
): Promise<Map<string, AttestationRow>> {
  if (keys.length === 0) return new Map();
  const rows = await em.execute<AttestationRow[]>(
    `select ${ROW_COLUMNS} from attestations
     where (org_id, attestation_id) in (${keys.map(() => '(?, ?)').join(', ')})`,
    keys.flatMap((key) => [key.orgId, key.attestationId]),
  );
  return new Map(rows.map((row) => [rowKey(row.org_id, row.attestation_id), row]));
}

export function recordFromRow(row: AttestationRow): AttestationRecord {
  const content = JSON.parse(row.content) as Omit<AttestationRecord, 'attestationId' | 'systemId'> & {
    systemId?: string;
  };
  return {
    attestationId: row.attestation_id,
    level: content.level,
    epochId: content.epochId,
    systemId: row.system_id,
    ...(content.systemId !== undefined && content.systemId !== row.system_id
      ? { systemIdAsPosted: content.systemId }
      : {}),
    controlIds: content.controlIds,
    timestamp: content.timestamp,
    claims: content.claims,
    signature:
      row.signature_key_id === null || row.signature_value === null
        ? null
        : { alg: 'Ed25519', keyId: row.signature_key_id, value: row.signature_value },
    contentHash: row.content_hash,
    serverAssignedId: row.server_assigned_id,
    receivedAt: toIso(row.received_at),
  };
}

export const recordFromPrepared = (row: PreparedAttestation, receivedAt: Date): AttestationRecord => ({
  attestationId: row.attestationId,
  level: row.level,
  epochId: row.epochId,
  systemId: row.systemId,
  ...(row.systemIdAsPosted === undefined ? {} : { systemIdAsPosted: row.systemIdAsPosted }),
  controlIds: row.controlIds,
  timestamp: row.timestamp,
  claims: row.claims,
  signature: row.signature,
  contentHash: row.contentHash,
  serverAssignedId: row.serverAssignedId,
  receivedAt: receivedAt.toISOString(),
});

/** What a page of attestations is filtered by; `after` is the keyset position of the previous page's end. */
export interface AttestationPageQuery {
  level?: AttestationLevel;
  epochId?: string;
  systemId?: string;
  from?: Date;
  to?: Date;
  after?: { timestamp: Date; attestationId: string };
  limit: number;
  offset: number;
  includeTotal?: boolean;
}

/**
 * A page of an org's attestations, newest first (timestamp, then id descending), with the keyset position
 * of its last row when more follow, and the total of the filter (without `after`) when asked. Each filter
 * shape has an index in this order, so a page costs O(page) through `after`; offset costs O(offset) as well.
 */
export async function selectAttestationPage(
  em: Em,
  orgId: string,
  query: AttestationPageQuery,
): Promise<{
  records: AttestationRecord[];
  next: { timestamp: string; attestationId: string } | null;
  total?: number;
}> {
  const where = ['org_id = ?'];
  const params: unknown[] = [orgId];
  if (query.level) {
    where.push('level = ?');
    params.push(query.level);
  }
  if (query.epochId) {
    where.push('epoch_id = ?');
    params.push(query.epochId);
  }
  if (query.systemId) {
    where.push('system_id = ?');
    params.push(query.systemId);
  }
  if (query.from) {
    where.push('attested_at >= ?');
    params.push(query.from);
  }
  if (query.to) {
    where.push('attested_at <= ?');
    params.push(query.to);
  }
  const countParams = [...params];
  const countWhere = [...where];
  if (query.after !== undefined) {
    where.push('(attested_at, attestation_id) < (?, ?)');
    params.push(query.after.timestamp, query.after.attestationId);
  }
  const rows = await em.execute<(AttestationRow & { attested_at: string })[]>(
    `select ${ROW_COLUMNS}, attested_at from attestations where ${where.join(' and ')}
     order by attested_at desc, attestation_id desc limit ? offset ?`,
    [...params, query.limit + 1, query.offset],
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const result: Awaited<ReturnType<typeof selectAttestationPage>> = {
    records: page.map(recordFromRow),
    next:
      rows.length > query.limit && last
        ? { timestamp: toIso(last.attested_at), attestationId: last.attestation_id }
        : null,
  };
  if (query.includeTotal) {
    const [{ total }] = await em.execute<{ total: number }[]>(
      `select count(*)::int as total from attestations where ${countWhere.join(' and ')}`,
      countParams,
    );
    result.total = total;
  }
  return result;
}

export async function selectAttestation(
  em: Em,
  orgId: string,
  attestationId: string,
): Promise<AttestationRecord | null> {
  const [row] = await em.execute<AttestationRow[]>(
    `select ${ROW_COLUMNS} from attestations where org_id = ? and attestation_id = ?`,
    [orgId, attestationId],
  );
  return row ? recordFromRow(row) : null;
}

/** The org's attestations attested within [from, to), counted by level (management-review inputs). */
export async function countAttestationsByLevel(
  em: Em,
  orgId: string,
  from: Date,
  to: Date,
): Promise<Record<string, number>> {
  const rows = await em.execute<{ level: string; total: number }[]>(
    `select level, count(*)::int as total from attestations
     where org_id = ? and attested_at >= ? and attested_at < ? group by level`,
    [orgId, from, to],
  );
  return Object.fromEntries(rows.map((row) => [row.level, row.total]));
}
