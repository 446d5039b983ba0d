import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
/**
 * An artifact whose bytes are pieces of text around ranges of a spool (see spool.ts). Sending it streams
 * them; `body` reads them into one buffer on first access only (tests, callers that need it whole).
 */
export function spooledArtifact(head, spool, parts) {
    const size = parts.reduce((sum, part) => sum + (Buffer.isBuffer(part) ? part.length : part.end - part.start), 0);
    async function* bytes() {
        for (const part of parts) {
            if (Buffer.isBuffer(part))
                yield part;
            else
                yield* spool.stream(part);
        }
    }
    let joined;
    return {
        ...head,
        spooled: {
            size,
            stream: () => {
                const stream = Readable.from(bytes(), { objectMode: false });
                stream.once('close', () => spool.release());
                return stream;
            },
            release: () => spool.release(),
        },
        get body() {
            joined ??= Buffer.concat(parts.map((part) => (Buffer.isBuffer(part) ? part : spool.read(part))));
            return joined;
        },
    };
}
const gunzipAsync = promisify(gunzip);
/** The artifact with its body as the document itself. */
export async function decodedArtifact(artifact) {
    if (artifact.contentEncoding !== 'gzip')
        return artifact;
    const { contentEncoding: _gzip, spooled: _spooled, ...rest } = artifact;
    return { ...rest, body: await gunzipAsync(artifact.body) };
}
/** `attachment; filename="…"`: file names are built from safe characters only, so no quoting is needed. */
export const contentDisposition = (fileName) => `attachment; filename="${fileName}"`;
/** Text reduced to the characters a file name may hold anywhere, never empty. */
export function fileNamePart(text, maxLength = 60) {
    return (text
        .normalize('NFKD')
        .replace(/[^A-Za-z0-9._-]+/g, '-')
        .replace(/^[-.]+|[-.]+$/g, '')
        .slice(0, maxLength) || 'x');
}
/**
 * Lets other requests run between the phases of a large export. In-process jobs share the daemon's
 * event loop, so each phase (load, build, validate, serialise, compress) gives way before the next.
 */
export const yieldToLoop = () => setImmediate();
//# sourceMappingURL=export-artifact.js.map