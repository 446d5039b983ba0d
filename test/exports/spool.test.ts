import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { Spool } from '../../src/exports/spool.js';

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
});
