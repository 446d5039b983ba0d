// The layout's rules (docs/ARCHITECTURE.md): the import rules of .dependency-cruiser.cjs over src/ and the
// console, and the one rule an import graph cannot see — SQL is run only in store modules and in the database
// layer itself. Exits 1 and names every breach. `npm run check` runs it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';

const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs'));

const problems = [];

const result = await cruise(['src', 'console/src'], { ...config.options, validate: true, ruleSet: config });
for (const violation of result.output.summary.violations) {
  const via = violation.cycle ? ` (circle: ${violation.cycle.map((step) => step.name).join(' → ')})` : '';
  problems.push(`${violation.rule.name}: ${violation.from} → ${violation.to}${via}`);
}
if (result.output.summary.totalCruised < 100) {
  problems.push(`only ${result.output.summary.totalCruised} modules were read: the parser found no sources`);
}

/** A store module (`*.store.ts`) owns its tables; platform/db/ is the database layer itself. */
const mayRunSql = (file) => file.endsWith('.store.ts') || file.startsWith('src/platform/db/');
const SQL_CALL = /\.execute\s*[(<]/;
const visit = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) visit(file);
    else if (/\.tsx?$/.test(entry.name) && !mayRunSql(file)) {
      fs.readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (SQL_CALL.test(line))
            problems.push(`sql-only-in-stores: ${file}:${index + 1} runs SQL outside a store`);
        });
    }
  }
};
visit('src');

if (problems.length > 0) {
  console.error(`The layout's rules are broken in ${problems.length} place(s) (docs/ARCHITECTURE.md):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(
  `layout: ${result.output.summary.totalCruised} modules, every import and every SQL call where it belongs`,
);
