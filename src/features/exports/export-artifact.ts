import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { Spool, SpoolRange } from './spool.js';

/** A finished export, ready to send or write: the bytes and the headers that describe them. */
export interface ExportArtifact {
  contentType: string;
  fileName: string;
  /** The bytes. A spooled artifact reads them into one buffer only when asked (see `spooledArtifact`). */
  body: Buffer;
  /** The bytes as a stream, when the artifact was written to a spool: sent without being held. */
  spooled?: SpooledBody;
  /** `gzip` when `body` holds the document gzipped (as handed over by a worker). */
  contentEncoding?: 'gzip';
}

export interface SpooledBody {
  size: number;
  /** The bytes, once: the spool is released when the stream closes (sent, failed or abandoned). */
  stream(): Readable;
  /** Gives the spool back without reading it. */
  release(): void;
}

/**
 * An artifact whose bytes are pieces of text around ranges of a spool (see spool.ts). Sending it streams
 * them; `body` reads them into one buffer on first access only (tests, callers that need it whole).
 */
export function spooledArtifact(
  head: Omit<ExportArtifact, 'body' | 'spooled' | 'contentEncoding'>,
  spool: Spool,
  parts: readonly (Buffer | SpoolRange)[],
): ExportArtifact {
  const size = parts.reduce(
    (sum, part) => sum + (Buffer.isBuffer(part) ? part.length : part.end - part.start),
    0,
  );
  async function* bytes() {
    for (const part of parts) {
      if (Buffer.isBuffer(part)) yield part;
      else yield* spool.stream(part);
    }
  }
  let joined: Buffer | undefined;
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
export async function decodedArtifact(artifact: ExportArtifact): Promise<ExportArtifact> {
  if (artifact.contentEncoding !== 'gzip') return artifact;
  const { contentEncoding: _gzip, spooled: _spooled, ...rest } = artifact;
  return { ...rest, body: await gunzipAsync(artifact.body) };
}

/** `attachment; filename="…"`: file names are built from safe characters only, so no quoting is needed. */
export const contentDisposition = (fileName: string) => `attachment; filename="${fileName}"`;

/** Text reduced to the characters a file name may hold anywhere, never empty. */
export function fileNamePart(text: string, maxLength = 60): string {
  return (
    text
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, maxLength) || 'x'
  );
}

/**
 * Lets other requests run between the phases of a large export. In-process jobs share the daemon's
 * event loop, so each phase (load, build, validate, serialise, compress) gives way before the next.
 */
export const yieldToLoop = () => setImmediate();
