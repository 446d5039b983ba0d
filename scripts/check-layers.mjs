// The layout's rules (docs/ARCHITECTURE.md): the import rules of .dependency-cruiser.cjs over src/ and the
// console, and the one rule an import graph cannot see — SQL is run only in store modules and in the database
// layer itself. Exits 1 and names every breach. `npm run check` runs it.
//
// `--report [DIR]` instead describes the folder graph of a checkout (this one by default): each part of src/
// (a folder of a tier such as src/features/cte, or a root file), the runtime imports between parts, and the
// parts that import each other around a loop. It judges nothing, so it can measure an older checkout too.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';

const root = path.resolve(import.meta.dirname, '..');
const config = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs'));
const reportAt = process.argv.indexOf('--report');
if (reportAt !== -1) {
  process.chdir(path.resolve(process.argv[reportAt + 1] ?? root));
  await reportFolderGraph();
  process.exit(0);
}
process.chdir(root);

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

/** src/features/cte/graph.ts → src/features/cte; src/app.ts → src/app.ts; src/cte/graph.ts → src/cte. */
function partOf(file) {
  const steps = file.split('/');
  if (steps[0] !== 'src') return null;
  if (steps.length === 2) return file;
  const tiered = ['features', 'platform', 'clients'].includes(steps[1]) && steps.length > 3;
  return steps.slice(0, tiered ? 3 : 2).join('/');
}

async function reportFolderGraph() {
  const { output } = await cruise(['src'], { ...config.options, validate: false });
  const edges = new Map();
  for (const module of output.modules) {
    const from = partOf(module.source);
    for (const dependency of module.dependencies) {
      const to = partOf(dependency.resolved);
      if (!from || !to || from === to || dependency.dependencyTypes.includes('type-only')) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from).add(to);
    }
  }
  const parts = new Set(output.modules.map((module) => partOf(module.source)).filter(Boolean));
  // Tarjan's strongly connected components: parts that reach each other at run time form one loop.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const loops = [];
  const visit = (part) => {
    index.set(part, counter);
    low.set(part, counter);
    counter += 1;
    stack.push(part);
    for (const next of edges.get(part) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(part, Math.min(low.get(part), low.get(next)));
      } else if (stack.includes(next)) low.set(part, Math.min(low.get(part), index.get(next)));
    }
    if (low.get(part) === index.get(part)) {
      const loop = [];
      for (let member = null; member !== part; ) {
        member = stack.pop();
        loop.push(member);
      }
      if (loop.length > 1) loops.push(loop.sort());
    }
  };
  for (const part of parts) if (!index.has(part)) visit(part);
  const imports = [...edges.values()].reduce((sum, targets) => sum + targets.size, 0);
  console.log(`${parts.size} parts of src/, ${imports} runtime imports between parts`);
  if (loops.length === 0) console.log('no loop: the parts of src/ import each other in one direction');
  for (const loop of loops) console.log(`loop of ${loop.length} parts: ${loop.join(', ')}`);
}
