/**
 * One migrated PGlite database for the whole test run. Migrating an empty PGlite costs seconds of CPU (the
 * WASM build of PostgreSQL runs every migration); the global set-up does it once, and every in-memory test
 * database loads the dump while every daemon a test starts gets a copy of the data directory. Where the
 * set-up has not run (a file run on its own through another runner), each database migrates itself as before.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { seedControlLibrary } from '../../src/features/controls/library.seed.js';
import { loadConfig } from '../../src/platform/config.js';
import { openDatabase } from '../../src/platform/db/database.js';

/** The environment variable naming the template's folder, set by the global set-up for every test process. */
export const TEMPLATE_ENV = 'COMPLY_TEST_PGLITE_TEMPLATE';
const DUMP = 'pglite.tar.gz';
const DATA = 'data';

/** Migrates and seeds a PGlite data directory under `dir`, and writes its dump beside it. */
export async function buildPgliteTemplate(dir: string): Promise<void> {
  const dataDir = path.join(dir, DATA);
  mkdirSync(dataDir, { recursive: true });
  const db = await openDatabase(loadConfig({ COMPLY_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }));
  await seedControlLibrary(db.em());
  await db.close();
  const pglite = await PGlite.create(path.join(dataDir, 'pglite'));
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  writeFileSync(path.join(dir, DUMP), Buffer.from(await dump.arrayBuffer()));
}

const templateDir = () => {
  const dir = process.env[TEMPLATE_ENV];
  return dir && existsSync(path.join(dir, DUMP)) ? dir : undefined;
};

let dump: Buffer | undefined;

/** The migrated database's dump for an in-memory PGlite, if the global set-up made one. */
export function pgliteTemplate(): Blob | undefined {
  const dir = templateDir();
  if (!dir) return undefined;
  dump ??= readFileSync(path.join(dir, DUMP));
  return new Blob([dump]);
}

/** Copies the migrated data directory into a daemon's fresh COMPLY_DATA_DIR, if the set-up made one. */
export function seedDataDir(dataDir: string): void {
  const dir = templateDir();
  if (dir) cpSync(path.join(dir, DATA, 'pglite'), path.join(dataDir, 'pglite'), { recursive: true });
}
