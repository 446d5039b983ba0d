import { isTransientDatabaseError } from '../../platform/db/transient.js';
import { AppError, badRequest, conflict, invalidField } from '../../platform/errors.js';
import { reportIngestBatch } from '../../platform/metrics/events.js';
import { whenReady } from '../../platform/ready.js';
import { EvidenceFolding } from '../../records/evidence-folding.js';
import { signedContent } from '../../shared/attestation-content.js';
import { contentHashOf } from '../../shared/content-hash.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { AiSystemDirectory } from '../ai-systems/ai-systems.directory.js';
import { SidecarKeyCache } from '../sidecars/sidecar-keys.cache.js';
import { checkSignature } from './attestation.signature.js';
import { findAttestationRows, recordFromPrepared, recordFromRow, rowKey, storeAttestationBatch, } from './attestations.store.js';
import { Batcher } from './batcher.js';
import { KnownControls } from './known-controls.js';
const MAX_CONTENT_BYTES = 64 * 1024;
const RETRY_DELAY_MS = { first: 50, max: 1000 };
const ok = (value) => ({ ok: true, value });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const unavailable = () => new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; the attestation may not be stored. Retry with the same attestationId.', { retryable: true });
/** A check that failed before the write; a cold cache (keys, controls) needs the database too. */
const refused = (error) => Promise.reject(isTransientDatabaseError(error) ? unavailable() : error);
/** A re-post of a stored id: the same content is a harmless replay, different content a conflict. */
function replayOf(row, stored) {
    if (stored.contentHash === row.contentHash)
        return ok({ created: false, record: stored });
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
    db;
    batcher;
    controls;
    sidecarKeys;
    folding;
    systems;
    retryWindowMs;
    freshnessDays;
    constructor(db, options = {}) {
        this.db = db;
        this.controls = options.caches?.knownControls ?? new KnownControls(db);
        this.sidecarKeys = options.caches?.sidecarKeys ?? new SidecarKeyCache(db);
        this.folding = new EvidenceFolding(db);
        this.systems = options.systems ?? new AiSystemDirectory(db);
        this.retryWindowMs = options.retryWindowMs ?? 15_000;
        this.freshnessDays = options.freshnessDays ?? 90;
        const maxEvidence = options.maxBatchEvidenceRows ?? 2048;
        this.batcher = new Batcher((items) => this.writeBatch(items), {
            maxItems: options.maxBatchItems ?? 256,
            maxWeight: maxEvidence,
            weight: (item) => item.controlIds.length,
            maxInFlight: options.maxInFlight ?? (db.kind === 'pglite' ? 1 : 2),
        });
    }
    /**
     * Checks, signs off and durably stores one posted attestation. With the org's key, the control ids and
     * the org's AI systems cached, the checks run at once and the request waits only for its batch.
     */
    ingest(orgId, body, postedBy) {
        // A request queued behind batches that are themselves retrying must not start a fresh window when its
        // own batch begins: the window is counted from its arrival.
        const deadline = Date.now() + this.retryWindowMs;
        let prepared;
        try {
            prepared = this.prepare(orgId, body, postedBy, deadline);
        }
        catch (error) {
            return refused(error);
        }
        if (prepared instanceof Promise)
            return prepared.then((item) => this.batcher.add(item), refused);
        return this.batcher.add(prepared);
    }
    /** Waits for every write in progress (shutdown). */
    async close() {
        await this.batcher.idle();
        await this.folding.close();
    }
    prepare(orgId, body, postedBy, deadline) {
        const time = new Date(body.timestamp);
        if (Number.isNaN(time.getTime()) || time.toISOString() !== body.timestamp) {
            throw invalidField('body.timestamp', 'is not a valid date');
        }
        let content;
        try {
            content = signedContent(body);
        }
        catch {
            throw invalidField('body.claims', 'holds values JSON cannot represent faithfully (e.g. lone surrogates)');
        }
        if (Buffer.byteLength(content) > MAX_CONTENT_BYTES) {
            const message = `exceeds ${MAX_CONTENT_BYTES} bytes of canonical JSON`;
            throw badRequest(`The attestation ${message}`, {
                fields: [{ field: 'body.claims', message }],
                maxBytes: MAX_CONTENT_BYTES,
            });
        }
        const signed = checkSignature(this.sidecarKeys, orgId, body, content);
        return whenReady(signed, () => whenReady(this.controls.unknown(body.controlIds), (unknown) => {
            if (unknown.length > 0) {
                throw badRequest(`Unknown control ids: ${unknown.join(', ')}`, {
                    fields: [{ field: 'body.controlIds', message: 'names controls that do not exist' }],
                    unknownControlIds: unknown,
                });
            }
            return whenReady(this.systemOf(orgId, body.systemId), (systemId) => {
                const attestationId = body.attestationId ?? crypto.randomUUID();
                return {
                    orgId,
                    attestationId,
                    serverAssignedId: body.attestationId === undefined,
                    level: body.level,
                    epochId: body.epochId,
                    systemId,
                    ...(body.systemId !== undefined && body.systemId !== systemId
                        ? { systemIdAsPosted: body.systemId }
                        : {}),
                    controlIds: body.controlIds,
                    timestamp: body.timestamp,
                    claims: body.claims,
                    signature: body.signature
                        ? { alg: 'Ed25519', keyId: body.signature.keyId, value: body.signature.value }
                        : null,
                    content,
                    contentHash: contentHashOf(content),
                    postedBy,
                    key: rowKey(orgId, attestationId),
                    deadline,
                };
            });
        }));
    }
    /** The id of the AI system the body names, by id or by name; refused when it names none of the org's. */
    systemOf(orgId, named) {
        if (named === undefined)
            return null;
        return whenReady(this.systems.resolve(orgId, named), (systemId) => {
            if (systemId === null) {
                throw invalidField('body.systemId', "names no AI system of the organization: give an AI system's systemId or its name", { systemId: named });
            }
            return systemId;
        });
    }
    async writeBatch(items) {
        // The batch gives up when its oldest request's window closes; one attempt is always made.
        let deadline = Number.POSITIVE_INFINITY;
        for (const item of items)
            deadline = Math.min(deadline, item.deadline);
        try {
            return await this.write(items, deadline);
        }
        catch {
            return Promise.all(items.map((item) => this.writeOne(item, deadline)));
        }
    }
    /** One row on its own, retried while the database is unreachable and the window lasts. */
    async writeOne(item, deadline) {
        for (let delay = RETRY_DELAY_MS.first;; delay = Math.min(delay * 2, RETRY_DELAY_MS.max)) {
            try {
                const [outcome] = await this.write([item], deadline);
                return outcome;
            }
            catch (error) {
                if (!isTransientDatabaseError(error))
                    return { ok: false, error };
                if (Date.now() + delay > deadline)
                    return { ok: false, error: unavailable() };
                await sleep(delay);
            }
        }
    }
    /**
     * Writes the rows, their evidence and its roll-up in one statement, then settles each item: new rows are
     * created; rows whose id was taken (before, or earlier in this batch) are compared with what is
     * stored. Throws only if the statement failed, i.e. nothing of it was stored.
     */
    async write(items, deadline) {
        const receivedAt = new Date();
        const primaries = new Map();
        for (const item of items)
            if (!primaries.has(item.key))
                primaries.set(item.key, item);
        const rows = [...primaries.values()];
        const started = performance.now();
        const created = await storeAttestationBatch(this.db, rows, ISO_42001, receivedAt, this.freshnessDays).finally(() => reportIngestBatch({ rows: rows.length, seconds: (performance.now() - started) / 1000 }));
        for (const row of rows)
            if (created.has(row.key))
                this.folding.touched(row.orgId);
        const outcomes = new Array(items.length);
        const taken = [];
        items.forEach((item, index) => {
            const primary = primaries.get(item.key);
            if (!created.has(item.key))
                taken.push(index);
            else if (primary === item)
                outcomes[index] = ok({ created: true, record: recordFromPrepared(item, receivedAt) });
            else
                outcomes[index] = replayOf(item, recordFromPrepared(primary, receivedAt));
        });
        if (taken.length === 0)
            return outcomes;
        let stored;
        try {
            stored = await findAttestationRows(this.db.em(), taken.map((index) => items[index]));
        }
        catch (error) {
            // The write committed; only the comparison is left, and writeOne redoes it idempotently.
            const retry = isTransientDatabaseError(error) && Date.now() + RETRY_DELAY_MS.first < deadline;
            if (retry)
                await sleep(RETRY_DELAY_MS.first);
            for (const index of taken) {
                outcomes[index] = retry
                    ? await this.writeOne(items[index], deadline)
                    : { ok: false, error: isTransientDatabaseError(error) ? unavailable() : error };
            }
            return outcomes;
        }
        for (const index of taken) {
            const row = stored.get(items[index].key);
            // A row gone since the insert saw it can only be written again.
            outcomes[index] = row
                ? replayOf(items[index], recordFromRow(row))
                : await this.writeOne(items[index], deadline);
        }
        return outcomes;
    }
}
//# sourceMappingURL=attestations.ingest.js.map