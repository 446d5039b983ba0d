import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildPgliteTemplate, TEMPLATE_ENV } from './pglite-template.js';

/**
 * Tests that spawn `bin/comply` run the compiled build: bring dist/ up to date once, before any test file
 * starts, rather than letting parallel spawns find it stale and rebuild at the same time. Then migrate one
 * PGlite database that every test database and daemon starts from (pglite-template.ts).
 */
export default async function setup(): Promise<() => void> {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
  const dir = mkdtempSync(path.join(tmpdir(), 'comply-test-template-'));
  await buildPgliteTemplate(dir);
  // Test processes start after the global set-up and inherit its environment.
  process.env[TEMPLATE_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
