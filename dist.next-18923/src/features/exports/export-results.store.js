import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';
/** Results nobody collected (the request gave up waiting) are dropped after this long. */
const ABANDONED_AFTER_MS = 60 * 60_000;
/** Text results larger than this travel gzipped; zip and PDF are compressed already. */
const GZIP_FROM_BYTES = 64 * 1024;
const INCOMPRESSIBLE = ['application/zip', 'application/pdf'];
const gzipAsync = promisify(gzip);
/** Level 1 on the thread pool: 76 MB of OSCAL JSON becomes 14 MB in about 0.4 s. */
async function forTransfer(artifact) {
    const { spooled } = artifact;
    const incompressible = INCOMPRESSIBLE.some((type) => artifact.contentType.startsWith(type));
    // A spooled archive is compressed already: read as it is (the read gives the spool back).
    if (spooled && incompressible)
        return { body: await buffer(spooled.stream()) };
    if (spooled) {
        // Gzipped as it streams from the spool: the document is never whole in memory.
        const compressed = [];
        await pipeline(spooled.stream(), createGzip({ level: 1 }), async (gzipped) => {
            for await (const chunk of gzipped)
                compressed.push(chunk);
        });
        return { body: Buffer.concat(compressed), contentEncoding: 'gzip' };
    }
    if (artifact.contentEncoding || artifact.body.length < GZIP_FROM_BYTES || incompressible) {
        return artifact;
    }
    return { body: await gzipAsync(artifact.body, { level: 1 }), contentEncoding: 'gzip' };
}
/**
 * Hands a finished export from a worker to the daemon through the database both share. A queue's
 * return value is the wrong place for many megabytes: BullMQ keeps it in Redis with every completed
 * job and broadcasts it to every listener.
 */
export async function storeExportResult(em, artifact, now = new Date()) {
    const resultId = randomUUID();
    const stored = await forTransfer(artifact);
    await em.execute('delete from export_results where created_at < ?', [
        new Date(now.getTime() - ABANDONED_AFTER_MS),
    ]);
    await em.execute(`insert into export_results (result_id, created_at, content_type, file_name, content_encoding, body)
     values (?, ?, ?, ?, ?, ?)`, [
        resultId,
        now,
        artifact.contentType,
        artifact.fileName,
        stored.contentEncoding ?? 'identity',
        stored.body,
    ]);
    return resultId;
}
/**
 * Reads a stored result and deletes it in the same statement; null if it is gone. The body stays as
 * stored (possibly gzipped, see `contentEncoding`): a client that accepts gzip gets it as is.
 */
export async function takeExportResult(em, resultId) {
    const [row] = await em.execute(`delete from export_results where result_id = ?
     returning content_type as "contentType", file_name as "fileName", content_encoding as "contentEncoding", body`, [resultId]);
    if (!row)
        return null;
    const body = Buffer.isBuffer(row.body)
        ? row.body
        : Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength);
    const artifact = { contentType: row.contentType, fileName: row.fileName, body };
    if (row.contentEncoding === 'gzip')
        artifact.contentEncoding = 'gzip';
    return artifact;
}
//# sourceMappingURL=export-results.store.js.map