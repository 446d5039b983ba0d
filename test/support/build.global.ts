import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Tests that spawn `bin/comply` run the compiled build: bring dist/ up to date once, before any test file
 * starts, rather than letting parallel spawns find it stale and rebuild at the same time.
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--if-stale'], { stdio: 'inherit' });
}
