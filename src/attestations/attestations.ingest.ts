import type { Static } from 'typebox';
import type { Database } from '../db.js';
import { AppError, badRequest, conflict, invalidField } from '../errors.js';
import { reportIngestBatch } from '../metrics/events.js';
import { sidecarKeyCache } from '../sidecars/sidecar-keys.cache.js';
import { ISO_42001 } from '../vocabulary.js';
import { checkSignature } from './attestation.signature.js';
import { type AttestationRecord, contentHashOf, signedContent } from './attestation-content.js';
import type { AttestationBodySchema } from './attestations.schemas.js';
import {
  type AttestationRow,
  findAttestationRows,
  type PreparedAttestation,
  recordFromPrepared,
  recordFromRow,
  rowKey,
  storeAttestationBatch,
} from './attestations.store.js';
import { Batcher, type Outcome } from './batcher.js';
import { KnownControls } from './known-controls.js';
import { isTransientDatabaseError } from './transient.js';

export interface IngestResult {
  /** True when this request stored the attestation (201); false for a replay of a stored one (200). */
  created: boolean;
  record: AttestationRecord;
}

export interface IngestOptions {
  /** Attestations per multi-row statement. */
  maxBatchItems?: number;
  /** Evidence rows per batch (one per attestation and control), bounding statement size. */
  maxBatchEvidenceRows?: number;
  /** Batch statements at once; PGlite has a single connection, so one there. */
  maxInFlight?: number;
  /** How long a write keeps retrying while the database is unreachable before answering 503. */
  retryWindowMs?: number;
}

/** A body as the route validated it; the signature's algorithm is checked here, with a reason. */
export type PostedAttestation = Static<typeof AttestationBodySchema>;

const MAX_CONTENT_BYTES = 64 * 1024;
const RETRY_DELAY_MS = { first: 50, max: 1000 };

const ok = <R>(value: R): Outcome<R> => ({ ok: true, value });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const keyOf = (row: PreparedAttestation) => rowKey(row.orgId, row.attestationId);

const unavailable = () =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'The database is unavailable; the attestation may not be stored. Retry with the same attestationId.',
    { retryable: true },
  );

/** A re-post of a stored id: the same content is a harmless replay, different content a conflict. */
function replayOf(row: PreparedAttestation, stored: AttestationRecord): Outcome<IngestResult> {
  if (stored.contentHash === row.contentHash) return ok({ created: false, record: stored });
  return {
    ok: false,
    error: conflict('An attestation with this id exists with different content', {
      attestationId: row.attestationId,
      contentHash: row.contentHash,
      storedContentHash: stored.contentHash,
    }),
  };
}

/**
 * The attestation write path. Checks that need no database (shape, signature against a cached key,
 * known controls) run first; concurrent writes then coalesce into one statement per batch (attestations,
 * evidence and roll-up), and each caller hears back only after that statement committed. If a batch fails,
 * its rows are retried one by one, so a bad row cannot fail its neighbours, and writes that meet an
 * unreachable database keep retrying (they are idempotent) for a bounded window.
 */
export class AttestationIngest {
  private readonly batcher: Batcher<PreparedAttestation, IngestResult>;
  private readonly controls: KnownControls;
  private readonly retryWindowMs: number;
  /**
   * When each accepted attestation's retry window closes, counted from its arrival: a request queued
   * behind batches that are themselves retrying must not start a fresh window when its own batch begins.
   */
  private readonly deadlines = new WeakMap<PreparedAttestation, number>();

  constructor(
    private readonly db: Database,
    options: IngestOptions = {},
  ) {
    this.controls = new KnownControls(db);
    this.retryWindowMs = options.retryWindowMs ?? 15_000;
    const maxEvidence = options.maxBatchEvidenceRows ?? 2048;
    this.batcher = new Batcher((items) => this.writeBatch(items), {
      maxItems: options.maxBatchItems ?? 256,
      maxWeight: maxEvidence,
      weight: (item) => item.controlIds.length,
      maxInFlight: options.maxInFlight ?? (db.kind === 'pglite' ? 1 : 4),
    });
  }

  /** Checks, signs off and durably stores one posted attestation. */
  async ingest(orgId: string, body: PostedAttestation, postedBy: string | null): Promise<IngestResult> {
    const deadline = Date.now() + this.retryWindowMs;
    let prepared: PreparedAttestation;
    try {
      prepared = await this.prepare(orgId, body, postedBy);
    } catch (error) {
      // A cold cache (keys, controls) needs the database too.
      throw isTransientDatabaseError(error) ? unavailable() : error;
    }
    this.deadlines.set(prepared, deadline);
    return this.batcher.add(prepared);
  }

  /** Waits for every write in progress (shutdown). */
  close(): Promise<void> {
    return this.batcher.idle();
  }

  private async prepare(
    orgId: string,
    body: PostedAttestation,
    postedBy: string | null,
  ): Promise<PreparedAttestation> {
    const time = new Date(body.timestamp);
    if (Number.isNaN(time.getTime()) || time.toISOString() !== body.timestamp) {
      throw invalidField('body.timestamp', 'is not a valid date');
    }
    let content: string;
    try {
      content = signedContent(body);
    } catch {
      throw invalidField(
        'body.claims',
        'holds values JSON cannot represent faithfully (e.g. lone surrogates)',
      );
    }
    if (Buffer.byteLength(content) > MAX_CONTENT_BYTES) {
      const message = `exceeds ${MAX_CONTENT_BYTES} bytes of canonical JSON`;
      throw badRequest(`The attestation ${message}`, {
        fields: [{ field: 'body.claims', message }],
        maxBytes: MAX_CONTENT_BYTES,
      });
    }
    await checkSignature(sidecarKeyCache(this.db), orgId, body, content);
    const unknown = await this.controls.unknown(body.controlIds);
    if (unknown.length > 0) {
      throw badRequest(`Unknown control ids: ${unknown.join(', ')}`, {
        fields: [{ field: 'body.controlIds', message: 'names controls that do not exist' }],
        unknownControlIds: unknown,
      });
    }
    return {
      orgId,
      attestationId: body.attestationId ?? crypto.randomUUID(),
      serverAssignedId: body.attestationId === undefined,
      level: body.level,
      epochId: body.epochId,
      systemId: body.systemId ?? null,
      controlIds: body.controlIds,
      timestamp: body.timestamp,
      claims: body.claims,
      signature: body.signature
        ? { alg: 'Ed25519', keyId: body.signature.keyId, value: body.signature.value }
        : null,
      content,
      contentHash: contentHashOf(content),
      postedBy,
    };
  }

  private async writeBatch(items: PreparedAttestation[]): Promise<Outcome<IngestResult>[]> {
    // The batch gives up when its oldest request's window closes; one attempt is always made.
    const deadline = Math.min(
      ...items.map((item) => this.deadlines.get(item) ?? Date.now() + this.retryWindowMs),
    );
    try {
      return await this.write(items, deadline);
    } catch {
      return Promise.all(items.map((item) => this.writeOne(item, deadline)));
    }
  }

  /** One row on its own, retried while the database is unreachable and the window lasts. */
  private async writeOne(item: PreparedAttestation, deadline: number): Promise<Outcome<IngestResult>> {
    for (let delay = RETRY_DELAY_MS.first; ; delay = Math.min(delay * 2, RETRY_DELAY_MS.max)) {
      try {
        const [outcome] = await this.write([item], deadline);
        return outcome;
      } catch (error) {
        if (!isTransientDatabaseError(error)) return { ok: false, error };
        if (Date.now() + delay > deadline) return { ok: false, error: unavailable() };
        await sleep(delay);
      }
    }
  }

  /**
   * Writes the rows, their evidence and its roll-up in one statement, then settles each item: new rows are
   * created; rows whose id was taken (before, or earlier in this batch) are compared with what is
   * stored. Throws only if the statement failed, i.e. nothing of it was stored.
   */
  private async write(items: PreparedAttestation[], deadline: number): Promise<Outcome<IngestResult>[]> {
    const receivedAt = new Date();
    const primaries = new Map<string, PreparedAttestation>();
    for (const item of items) if (!primaries.has(keyOf(item))) primaries.set(keyOf(item), item);
    const rows = [...primaries.values()];
    const started = performance.now();
    const created = await storeAttestationBatch(this.db, rows, ISO_42001, receivedAt).finally(() =>
      reportIngestBatch({ rows: rows.length, seconds: (performance.now() - started) / 1000 }),
    );

    const outcomes: Outcome<IngestResult>[] = new Array(items.length);
    const taken: number[] = [];
    items.forEach((item, index) => {
      const primary = primaries.get(keyOf(item)) as PreparedAttestation;
      if (!created.has(keyOf(item))) taken.push(index);
      else if (primary === item)
        outcomes[index] = ok({ created: true, record: recordFromPrepared(item, receivedAt) });
      else outcomes[index] = replayOf(item, recordFromPrepared(primary, receivedAt));
    });
    if (taken.length === 0) return outcomes;

    let stored: Map<string, AttestationRow>;
    try {
      stored = await findAttestationRows(
        this.db.em(),
        taken.map((index) => items[index]),
      );
    } catch (error) {
      // The write committed; only the comparison is left, and writeOne redoes it idempotently.
      const retry = isTransientDatabaseError(error) && Date.now() + RETRY_DELAY_MS.first < deadline;
      if (retry) await sleep(RETRY_DELAY_MS.first);
      for (const index of taken) {
        outcomes[index] = retry
          ? await this.writeOne(items[index], deadline)
          : { ok: false, error: isTransientDatabaseError(error) ? unavailable() : error };
      }
      return outcomes;
    }
    for (const index of taken) {
      const row = stored.get(keyOf(items[index]));
      // A row gone since the insert saw it can only be written again.
      outcomes[index] = row
        ? replayOf(items[index], recordFromRow(row))
        : await this.writeOne(items[index], deadline);
    }
    return outcomes;
  }
}
