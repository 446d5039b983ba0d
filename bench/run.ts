/**
 * Runs benchmarks one after another, each in its own process so that none shares an event loop or a
 * warm cache with another. `npm run bench` runs them all; `npm run bench -- foundation attestations`
 * runs the ones named (file names in bench/ without `.bench.ts`). Options after the names go to every
 * benchmark run: `npm run bench -- attestations --runs 3`.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
const available = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.slice(0, -'.bench.ts'.length))
  .sort();
const args = process.argv.slice(2);
const firstOption = args.findIndex((arg) => arg.startsWith('-'));
const names = firstOption === -1 ? args : args.slice(0, firstOption);
const options = firstOption === -1 ? [] : args.slice(firstOption);

const unknown = names.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; available: ${available.join(', ')}`);
  process.exit(2);
}
let failed = 0;
for (const name of names.length > 0 ? names : available) {
  console.log(`\n=== ${name} ===`);
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(dir, `${name}.bench.ts`), ...options],
    {
      stdio: 'inherit',
    },
  );
  if (run.status !== 0) {
    failed += 1;
    console.error(`${name} failed (exit ${run.status ?? run.signal})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
