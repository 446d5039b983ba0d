import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { seedControlLibrary } from '../../src/features/controls/library.seed.js';
import { openDatabase } from '../../src/platform/db/database.js';
import { createScratchDatabase, dbKinds, dropDatabase, POSTGRES_TEMPLATE_ENV } from './app.js';
import { buildPgliteTemplate, TEMPLATE_ENV } from './pglite-template.js';

/**
 * Tests that spawn `bin/comply` run the compiled build: bring dist/ up to date once, before any test file
 * starts, rather than letting parallel spawns find it stale and rebuild at the same time. Then migrate one
 * PGlite database that every test database and daemon starts from (pglite-template.ts), and one PostgreSQL
 * database that every scratch database is created from (createScratchDatabase).
 */
export default async function setup(): Promise<() => Promise<void>> {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const dir = mkdtempSync(path.join(tmpdir(), 'comply-test-template-'));
  await buildPgliteTemplate(dir);
  // Test processes start after the global set-up and inherit its environment.
  process.env[TEMPLATE_ENV] = dir;
  const postgres = dbKinds.includes('postgres') ? await buildPostgresTemplate() : undefined;
  if (postgres) process.env[POSTGRES_TEMPLATE_ENV] = postgres.name;
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (postgres) await dropDatabase(postgres.name);
  };
}

/** A migrated and seeded PostgreSQL database, closed again so that CREATE DATABASE can copy it. */
async function buildPostgresTemplate(): Promise<{ name: string }> {
  const scratch = await createScratchDatabase({ empty: true });
  const db = await openDatabase({ databaseUrl: scratch.url, dataDir: '' });
  await seedControlLibrary(db.em());
  await db.close();
  return { name: scratch.name };
}
