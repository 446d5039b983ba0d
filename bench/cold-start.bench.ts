/**
 * Cold start of `comply serve` on the embedded PGlite database: the time from spawning the process to the
 * first `200` from /readyz, for the first start on a new data directory (creates and migrates the
 * database) and for later starts on the same directory. Run: npx tsx bench/cold-start.bench.ts [restarts]
 * DESIGN.md target: < 3 s after the first run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../test/support/free-port.js';
import { ADMIN_KEY, ROOT } from './support.js';

const restarts = Number(process.argv[2] ?? 5);
const dataDir = mkdtempSync(path.join(tmpdir(), 'comply-cold-start-'));

/** Starts the daemon, waits until it is ready, stops it gracefully; returns the time to ready in ms. */
async function timeToReady(): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(path.join(ROOT, 'bin/comply'), ['serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      COMPLY_DATA_DIR: dataDir,
      COMPLY_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`comply serve exited with ${child.exitCode}`);
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`)
        .then((res) => res.ok)
        .catch(() => false);
      if (ready) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

try {
  const first = await timeToReady();
  const later: number[] = [];
  for (let i = 0; i < restarts; i += 1) later.push(await timeToReady());
  later.sort((a, b) => a - b);
  const median = later[Math.floor(later.length / 2)];
  console.log(`first start (new data directory): ${(first / 1000).toFixed(2)} s`);
  console.log(
    `later starts (${restarts}): median ${(median / 1000).toFixed(2)} s, ` +
      `min ${(later[0] / 1000).toFixed(2)} s, max ${(later[later.length - 1] / 1000).toFixed(2)} s`,
  );
  console.log(`${median < 3000 ? 'PASS' : 'FAIL'}  cold start < 3 s after the first run`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
