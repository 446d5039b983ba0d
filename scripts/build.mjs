// The production build: TypeScript compiled by tsc into dist/, plus the files the code reads at run time,
// laid out so that the relative paths the sources use (../../fixtures, ./schemas) hold in dist/ too, and the
// web console bundled by Vite into dist/console (with gzip and brotli copies of its assets).
// `--if-stale` builds only when dist/ is missing or older than a source (bin/comply uses it in a checkout).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'dist');
const stamp = path.join(dist, '.built');
const SOURCES = [
  'bin',
  'src',
  'workers',
  'fixtures',
  'scripts',
  'console',
  'tsconfig.json',
  'tsconfig.build.json',
];

function newestSource() {
  let newest = 0;
  const visit = (file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) for (const entry of fs.readdirSync(file)) visit(path.join(file, entry));
    else newest = Math.max(newest, stat.mtimeMs);
  };
  for (const source of SOURCES) visit(path.join(root, source));
  return newest;
}

if (process.argv.includes('--if-stale')) {
  const built = fs.statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built >= newestSource()) process.exit(0);
}

// Built beside dist/ and swapped in, so that a process running from dist/ never sees half a build.
const next = `${dist}.next-${process.pid}`;
fs.rmSync(next, { recursive: true, force: true });
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
if (!fs.existsSync(tsc)) {
  console.error('comply: dist/ is missing or stale and TypeScript is not installed (npm install builds it)');
  process.exit(1);
}
try {
  execFileSync(tsc, ['-p', path.join(root, 'tsconfig.build.json'), '--outDir', next], { stdio: 'inherit' });
} catch {
  // A failed build leaves nothing behind: dist/ stays as it was.
  fs.rmSync(next, { recursive: true, force: true });
  process.exit(1);
}
fs.cpSync(path.join(root, 'fixtures'), path.join(next, 'fixtures'), { recursive: true });
fs.cpSync(path.join(root, 'src/platform/oscal/schemas'), path.join(next, 'src/platform/oscal/schemas'), {
  recursive: true,
});
// tsc copies no JavaScript: the policy's validator is generated JavaScript (scripts/write-policy-schema.ts).
fs.cpSync(
  path.join(root, 'src/clients/gate/policy.validator.js'),
  path.join(next, 'src/clients/gate/policy.validator.js'),
);
fs.cpSync(path.join(root, 'scripts/require-node.mjs'), path.join(next, 'scripts/require-node.mjs'));
buildConsole(path.join(next, 'console'));
fs.writeFileSync(path.join(next, '.built'), new Date().toISOString());
const old = `${dist}.old-${process.pid}`;
if (fs.existsSync(dist)) fs.renameSync(dist, old);
fs.renameSync(next, dist);
fs.rmSync(old, { recursive: true, force: true });

function buildConsole(outDir) {
  const vite = path.join(root, 'node_modules', '.bin', 'vite');
  // A production bundle whatever NODE_ENV the caller runs with (a test runner sets it to `test`).
  const config = path.join(root, 'console/vite.config.ts');
  execFileSync(vite, ['build', '--config', config, '--outDir', outDir, '--logLevel', 'warn'], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  // Served as is to clients that accept them (@fastify/static's preCompressed).
  const assets = path.join(outDir, 'assets');
  for (const name of fs.readdirSync(assets)) {
    const file = path.join(assets, name);
    const data = fs.readFileSync(file);
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(data, { level: 9 }));
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
    );
  }
}
