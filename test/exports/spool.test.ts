import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { Spool } from '../../src/features/exports/spool.js';

describe('Spool', () => {
  it('gives back exactly what was written, across its buffer and in pieces larger than it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'spool-test-'));
    const spool = new Spool(dir);
    // Nothing on disk by name: the file is unlinked as soon as it is open.
    expect(readdirSync(dir)).toEqual([]);
    const pieces = ['{"a":', '"é€😀"', ',"b":"', 'x'.repeat(1_048_570), 'ü€', 'y'.repeat(2_500_000), '"}'];
    const ranges = pieces.map((piece) => {
      const start = spool.size;
      spool.write(piece);
      return { start, end: spool.size };
    });
    const whole = pieces.join('');
    expect(spool.size).toBe(Buffer.byteLength(whole));
    expect(spool.read({ start: 0, end: spool.size }).toString('utf8')).toBe(whole);
    for (const [i, range] of ranges.entries()) {
      expect(spool.read(range).toString('utf8')).toBe(pieces[i]);
    }
    // Ranges stream independently, several at once.
    const [second, fourth] = await Promise.all([
      text(spool.stream(ranges[1])),
      text(spool.stream(ranges[3])),
    ]);
    expect(second).toBe(pieces[1]);
    expect(fourth).toBe(pieces[3]);
    expect(await text(spool.stream({ start: 5, end: 5 }))).toBe('');
    spool.release();
    spool.release();
    expect(() => spool.read({ start: 0, end: 1 })).toThrow();
  });

  it('appends bytes as they are between texts, in pieces smaller and larger than its buffer', () => {
    const spool = new Spool();
    const bytes = (length: number, seed: number) =>
      Uint8Array.from({ length }, (_, i) => (i * 31 + seed) % 256);
    const pieces: (string | Uint8Array)[] = [
      'head',
      bytes(300, 1),
      'é',
      bytes(1_048_000, 2),
      bytes(3_000_000, 3),
      '}',
    ];
    const ranges = pieces.map((piece) => {
      const start = spool.size;
      if (typeof piece === 'string') spool.write(piece);
      else spool.writeBytes(piece);
      return { start, end: spool.size };
    });
    for (const [i, range] of ranges.entries()) {
      const piece = pieces[i];
      expect(spool.read(range)).toEqual(Buffer.from(typeof piece === 'string' ? Buffer.from(piece) : piece));
    }
    spool.release();
  });
});
