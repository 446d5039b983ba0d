import type { Pool } from 'pg';
import type { Database, Em } from '../db.js';
import type { AttestationRecord } from './attestation-content.js';

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
  signature_key_id: string | null;
  signature_value: string | null;
  received_at: Date | string;
}

export const ROW_COLUMNS =
  'org_id, attestation_id, content, content_hash, server_assigned_id, signature_key_id, signature_value, received_at';

export const rowKey = (orgId: string, attestationId: string) => `${orgId}\u0000${attestationId}`;

/**
 * The whole write of an ingest batch as one statement: the attestations (a row whose id exists already,
 * committed or committed meanwhile by a concurrent writer the statement waits for, is skipped: the unique
 * key, not a prior read, decides), one evidence row per control of each attestation inserted, and the
 * roll-up of those evidence rows into their requirement records (as `addEvidenceRollups` moves it for an
 * attestation's evidence, which never expires). One statement commits on its own, so the batch costs one
 * round trip and holds no connection idle in a transaction. Attestations go in key order and roll-up rows
 * are locked in key order, so that concurrent batches take their locks in the same order (without the
 * `order by … for update`, batches touching the same records deadlock).
 *
 * Parameters are arrays, one per column, so the text is the same for every batch size.
 */
const STORE_BATCH_SQL = `
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
    attestation_id, effective_date, created_at, created_by)
  select gen_random_uuid()::text, e.org_id, $16::text, e.requirement_id, 'attestation', i.title,
    i.description, e.attestation_id, i.attested_at, $15::timestamptz, i.posted_by
  from unnest($17::text[], $18::text[], $19::text[]) as e(org_id, attestation_id, requirement_id)
  join inserted a on a.org_id = e.org_id and a.attestation_id = e.attestation_id collate "C"
  join input i on i.org_id = e.org_id and i.attestation_id = e.attestation_id
  returning org_id, framework_id, requirement_id
), counts as (
  select org_id, framework_id, requirement_id, count(*)::int as added from new_evidence
  group by org_id, framework_id, requirement_id
), locked as materialized (
  select r.org_id, r.framework_id, r.requirement_id, c.added
  from requirement_records r join counts c using (org_id, framework_id, requirement_id)
  order by r.org_id, r.framework_id, r.requirement_id
  for update of r
), rolled_up as (
  update requirement_records r set evidence_count = r.evidence_count + l.added,
    evidence_attestation_count = r.evidence_attestation_count + l.added,
    evidence_never_expires = true
  from locked l
  where r.org_id = l.org_id and r.framework_id = l.framework_id and r.requirement_id = l.requirement_id
)
select org_id, attestation_id from inserted`;

/** What an attestation's evidence row says about it (one row per control it names). */
const evidenceTitle = (row: PreparedAttestation) => `${row.level} attestation ${row.attestationId}`;
const evidenceDescription = (row: PreparedAttestation) =>
  `Epoch ${row.epochId}${row.systemId ? `, AI system ${row.systemId}` : ''}`;

/**
 * Stores a batch of distinct attestations with their evidence (of `frameworkId`) and its roll-up, in one
 * statement (STORE_BATCH_SQL), and returns the keys of the attestations that were new. Runs on the
 * driver's own client with bind parameters: on PostgreSQL the pool (an autocommitted statement), on
 * PGlite the instance itself, whose queries wait for any transaction in progress to end (the ORM's
 * query layer would run it inside another caller's open transaction there).
 */
export async function storeAttestationBatch(
  db: Database,
  rows: PreparedAttestation[],
  frameworkId: string,
  receivedAt: Date,
): Promise<Set<string>> {
  const column = <T>(pick: (row: PreparedAttestation) => T) => rows.map(pick);
  const evidence = rows.flatMap((row) => row.controlIds.map((controlId) => [row, controlId] as const));
  const client = await db.orm.em.getConnection().getNativeClient();
  const values = [
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
  ];
  // PostgreSQL keeps the statement prepared on each pooled connection (named), so a batch is neither
  // parsed nor planned again; PGlite takes no name and parses it each time.
  const { rows: inserted } = (
    db.kind === 'postgresql'
      ? await (client as Pool).query({ name: 'comply-store-attestations', text: STORE_BATCH_SQL, values })
      : await (client as Pick<Pool, 'query'>).query(STORE_BATCH_SQL, values)
  ) as { rows: { org_id: string; attestation_id: string }[] };
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
  const content = JSON.parse(row.content) as Omit<AttestationRecord, 'attestationId'>;
  return {
    attestationId: row.attestation_id,
    level: content.level,
    epochId: content.epochId,
    systemId: content.systemId ?? null,
    controlIds: content.controlIds,
    timestamp: content.timestamp,
    claims: content.claims,
    signature:
      row.signature_key_id === null || row.signature_value === null
        ? null
        : { alg: 'Ed25519', keyId: row.signature_key_id, value: row.signature_value },
    contentHash: row.content_hash,
    serverAssignedId: row.server_assigned_id,
    receivedAt: new Date(row.received_at).toISOString(),
  };
}

export const recordFromPrepared = (row: PreparedAttestation, receivedAt: Date): AttestationRecord => ({
  attestationId: row.attestationId,
  level: row.level,
  epochId: row.epochId,
  systemId: row.systemId,
  controlIds: row.controlIds,
  timestamp: row.timestamp,
  claims: row.claims,
  signature: row.signature,
  contentHash: row.contentHash,
  serverAssignedId: row.serverAssignedId,
  receivedAt: receivedAt.toISOString(),
});
