import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/platform/db/database.js';
import { DataDirLockedError, lockDataDir } from '../../src/platform/db/lock.js';
import { migrations } from '../../src/platform/db/migrations/index.js';
import { createScratchDatabase } from '../support/app.js';

describe('migrations', () => {
  it('bring an empty PostgreSQL database to the current schema, and re-running is a no-op', async () => {
    const scratch = await createScratchDatabase({ empty: true });
    try {
      const db = await openDatabase({ databaseUrl: scratch.url, dataDir: '' });
      const applied = await db
        .em()
        .execute<{ name: string }[]>('select name from mikro_orm_migrations order by id');
      expect(applied.map((row) => row.name)).toEqual(migrations.map((migration) => migration.name));
      await db.close();
      const again = await openDatabase({ databaseUrl: scratch.url, dataDir: '' });
      const count = await again
        .em()
        .execute<{ n: number }[]>('select count(*)::int as n from mikro_orm_migrations');
      expect(count[0].n).toBe(migrations.length);
      await again.close();
    } finally {
      await scratch.drop();
    }
  });
});

describe('concurrent starts', () => {
  it('migrate an empty PostgreSQL database once when a daemon and workers start together', async () => {
    const scratch = await createScratchDatabase({ empty: true });
    try {
      const opened = await Promise.all(
        [1, 2, 3].map(() => openDatabase({ databaseUrl: scratch.url, dataDir: '' })),
      );
      const count = await opened[0]
        .em()
        .execute<{ n: number }[]>('select count(*)::int as n from mikro_orm_migrations');
      expect(count[0].n).toBe(migrations.length);
      await Promise.all(opened.map((db) => db.close()));
    } finally {
      await scratch.drop();
    }
  });
});

describe('embedded data directory', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'comply-lock-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is locked against a second opener and released on close', async () => {
    const db = await openDatabase({ databaseUrl: null, dataDir: dir });
    expect(existsSync(path.join(dir, 'comply.lock'))).toBe(true);
    await db.close();
    expect(existsSync(path.join(dir, 'comply.lock'))).toBe(false);
  });

  it('refuses a directory held by another live process', () => {
    const other = mkdtempSync(path.join(tmpdir(), 'comply-lock-'));
    // pid 1 is always alive and never this process.
    writeFileSync(path.join(other, 'comply.lock'), '1');
    expect(() => lockDataDir(other)).toThrow(DataDirLockedError);
    // A lock left by a process that no longer exists is taken over.
    writeFileSync(path.join(other, 'comply.lock'), '999999999');
    const release = lockDataDir(other);
    release();
    rmSync(other, { recursive: true, force: true });
  });
});
