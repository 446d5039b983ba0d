import { setImmediate } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';

/** A finished export, ready to send or write: the bytes and the headers that describe them. */
export interface ExportArtifact {
  contentType: string;
  fileName: string;
  /** The bytes. An artifact made of `chunks` joins them here only when asked (see `chunkedArtifact`). */
  body: Buffer;
  /** The bytes in the chunks they were written in, when the artifact was made so: sent as they are. */
  chunks?: readonly Buffer[];
  /** `gzip` when `body` holds the document gzipped (as handed over by a worker). */
  contentEncoding?: 'gzip';
}

const gunzipAsync = promisify(gunzip);

/**
 * An artifact held in the chunks it was written in. Sending it writes the chunks one after another; its
 * `body` joins them into one buffer on first access only (storing a worker's result, tests), so a large
 * document that goes straight to a client is never copied whole.
 */
export function chunkedArtifact(
  head: Omit<ExportArtifact, 'body' | 'chunks' | 'contentEncoding'>,
  chunks: Buffer[],
): ExportArtifact {
  let joined: Buffer | undefined;
  return {
    ...head,
    chunks,
    get body() {
      joined ??= Buffer.concat(chunks);
      return joined;
    },
  };
}

/** The artifact with its body as the document itself. */
export async function decodedArtifact(artifact: ExportArtifact): Promise<ExportArtifact> {
  if (artifact.contentEncoding !== 'gzip') return artifact;
  const { contentEncoding: _gzip, chunks: _chunks, ...rest } = artifact;
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
