import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_KEY } from './app.js';
import { freePort } from './free-port.js';
import { seedDataDir } from './pglite-template.js';

const root = path.resolve(import.meta.dirname, '../..');
export const COMPLY_BIN = path.join(root, 'bin/comply');

export interface Daemon {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * `comply serve` as a real child process on a free port and a fresh data directory. With REDIS_URL it runs
 * jobs on BullMQ and is ready only once a worker serves its queues: a `comply worker` starts beside it and
 * stops with it.
 */
export async function startDaemon(env: Record<string, string> = {}): Promise<Daemon> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'comply-daemon-'));
  // A daemon on PostgreSQL has no use for the embedded database; one on PGlite starts from the migrated one,
  // in the data directory a test names too unless it already holds a database (a restored backup, a restart).
  const usedDataDir = env.COMPLY_DATA_DIR ?? dataDir;
  if (!env.DATABASE_URL && !existsSync(path.join(usedDataDir, 'pglite'))) seedDataDir(usedDataDir);
  const child = spawn(COMPLY_BIN, ['serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      COMPLY_DATA_DIR: dataDir,
      COMPLY_ADMIN_KEY: ADMIN_KEY,
      LOG_LEVEL: 'info',
      // A test's daemon lives for a few requests: it skips the background warm-ups a long-lived one does
      // (about 3 s of CPU); a test of them turns them back on.
      COMPLY_WARM_UP: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const worker = env.REDIS_URL
    ? spawn(COMPLY_BIN, ['worker'], {
        env: {
          ...process.env,
          COMPLY_ADMIN_KEY: ADMIN_KEY,
          LOG_LEVEL: 'warn',
          COMPLY_WARM_UP: 'false',
          ...env,
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      })
    : undefined;
  const stopWorker = async () => {
    if (!worker || worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  };
  let output = '';
  worker?.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (let ready = false; !ready; ) {
    if (child.exitCode !== null) {
      await stopWorker();
      throw new Error(`daemon exited early:\n${output}`);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await stopWorker();
      throw new Error(`daemon not ready within 60 s:\n${output}`);
    }
    ready = await fetch(`${url}/readyz`)
      .then((res) => res.ok)
      .catch(() => false);
    if (!ready) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode !== null) {
        await stopWorker();
        return child.exitCode;
      }
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      const code = await exited;
      await stopWorker();
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a user would, through bin/comply. */
/** The CLI with something on its standard input (a password for `comply login --password-stdin`). */
export function runComplyWithInput(
  args: string[],
  env: Record<string, string>,
  input: string,
): Promise<CliResult> {
  const child = spawn(COMPLY_BIN, args, {
    env: { ...process.env, CI: 'true', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

export async function runComply(
  args: string[],
  env: Record<string, string> = {},
  options: { cwd?: string } = {},
): Promise<CliResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(COMPLY_BIN, args, {
      env: { ...process.env, CI: 'true', ...env },
      cwd: options.cwd,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** The daemon's HTTP API as tests set data up through it: the parsed body, or an error naming any non-2xx. */
export async function callApi<T = Record<string, unknown>>(
  url: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}
