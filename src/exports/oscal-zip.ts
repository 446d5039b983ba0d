import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, crc32, createDeflateRaw } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';

/** ZIP method 8 (deflate), PKWARE APPNOTE 4.4.5. */
const DEFLATE_METHOD = 8;

/** What the archive needs of a file: its name and its bytes as a stream. */
export interface ZipSource {
  name: string;
  stream(): Readable;
}

/** A file's bytes deflated as they stream by, with the length and CRC-32 the archive records. */
async function deflated(source: Readable) {
  let size = 0;
  let crc = 0;
  const compressed: Buffer[] = [];
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) {
        size += chunk.length;
        crc = crc32(chunk, crc);
        yield chunk;
      }
    },
    createDeflateRaw({ level: 1, strategy: constants.Z_DEFAULT_STRATEGY }),
    async (deflate: AsyncIterable<Buffer>) => {
      for await (const chunk of deflate) compressed.push(chunk);
    },
  );
  return { size, crc, compressed: Buffer.concat(compressed) };
}

/**
 * A zip archive of the given files. Each file streams through zlib on the libuv thread pool, so a large
 * package is compressed in parallel, without blocking the event loop and without holding the uncompressed
 * bytes; fflate writes the archive around the compressed streams. Level 1: a 100k-evidence package shrinks
 * about fivefold, and higher levels gain a tenth more for twice the time.
 */
export async function zipFiles(files: readonly ZipSource[], mtime: Date): Promise<Buffer> {
  const entries = await Promise.all(
    files.map(async (file) => ({ name: file.name, ...(await deflated(file.stream())) })),
  );
  const chunks: Uint8Array[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    const zip = new Zip((error, chunk, final) => {
      if (error) return reject(error);
      chunks.push(chunk);
      if (final) resolve(Buffer.concat(chunks));
    });
    for (const entry of entries) {
      const file: ZipInputFile = {
        filename: entry.name,
        size: entry.size,
        crc: entry.crc,
        compression: DEFLATE_METHOD,
        mtime,
      };
      zip.add(file);
      file.ondata?.(null, entry.compressed, true);
    }
    zip.end();
  });
  return done;
}
