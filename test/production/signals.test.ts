import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createScratchDatabase, REDIS_TEST_URL } from '../support/app.js';
import { COMPLY_BIN } from '../support/daemon.js';
import { freePort } from '../support/free-port.js';
import { seedDataDir } from '../support/pglite-template.js';
import { removePrefix } from '../support/redis-prefix.js';

/** Resolves once `output()` matches `pattern`; rejects if the process exits first. */
function waitForOutput(child: ReturnType<typeof spawn>, output: () => string, pattern: RegExp) {
  return new Promise<void>((resolve, reject) => {
    const check = () => {
      if (pattern.test(output())) {
        child.stdout?.off('data', check);
        child.stderr?.off('data', check);
        child.off('exit', exited);
        resolve();
      }
    };
    const exited = () => reject(new Error(`exited before ${pattern}:\n${output()}`));
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', exited);
    check();
  });
}

function start(args: string[], env: Record<string, string>) {
  const child = spawn(COMPLY_BIN, args, {
    // Short-lived: no background warm-ups (search, OSCAL schemas), as startDaemon's daemons.
    env: { ...process.env, LOG_LEVEL: 'info', COMPLY_ADMIN_KEY: ADMIN_KEY, COMPLY_WARM_UP: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exit };
}

/** The command line of a running process, as the kernel sees it. */
const commandLine = (pid: number) =>
  fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

/**
 * SIGTERM sent to the process that `bin/comply` started, as docker or systemd sends it: the real entry,
 * the compiled build, plain node receiving the signal itself, a graceful stop.
 */
describe('bin/comply under SIGTERM', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it('is node running the compiled build, finishes the request in flight, releases the lock and exits 0', async () => {
    const port = await freePort();
    const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'comply-signal-'));
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    seedDataDir(dataDir);
    const daemon = start(['serve'], { PORT: String(port), COMPLY_DATA_DIR: dataDir });
    cleanup.push(() => {
      if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    });
    await waitForOutput(daemon.child, daemon.output, /comply listening on/);

    // The pid that was spawned is node itself (bin/comply execs it), running JavaScript from dist/.
    const argv = commandLine(daemon.child.pid as number);
    expect(path.basename(argv[0])).toBe('node');
    // Node's own flags (--expose-gc) come before the script.
    expect(argv.slice(1).find((arg) => !arg.startsWith('--'))).toMatch(/dist\/bin\/comply\.js$/);
    expect(fs.existsSync(path.join(dataDir, 'comply.lock'))).toBe(true);

    // A request whose body is still arriving when the signal comes.
    const body = JSON.stringify({ orgId: 'signal-org', name: 'Signal' });
    const socket = net.connect(port, '127.0.0.1');
    let response = '';
    socket.on('data', (chunk) => {
      response += chunk;
    });
    const answered = new Promise((resolve) => socket.once('end', resolve));
    socket.write(
      `POST /api/v1/orgs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    await waitForOutput(
      daemon.child,
      daemon.output,
      /"url":"\/api\/v1\/orgs".*incoming request|incoming request.*"url":"\/api\/v1\/orgs"/,
    );
    daemon.child.kill('SIGTERM');
    await waitForOutput(daemon.child, daemon.output, /shutting down/);
    socket.write(body);
    await answered;
    expect(response).toMatch(/^HTTP\/1.1 201 /);

    expect(await daemon.exit).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, 'comply.lock'))).toBe(false);
  }, 120_000);

  it('stops a worker cleanly: exit 0 after its shutdown line', async () => {
    const scratch = await createScratchDatabase();
    cleanup.push(() => scratch.drop());
    const prefix = `comply-signal-${randomUUID()}`;
    cleanup.push(() => removePrefix(REDIS_TEST_URL, prefix).then(() => {}));
    const worker = start(['worker'], {
      DATABASE_URL: scratch.url,
      REDIS_URL: REDIS_TEST_URL,
      COMPLY_QUEUE_PREFIX: prefix,
    });
    cleanup.push(() => {
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    });
    await waitForOutput(worker.child, worker.output, /comply worker ready/);
    expect(path.basename(commandLine(worker.child.pid as number)[0])).toBe('node');
    worker.child.kill('SIGTERM');
    expect(await worker.exit).toEqual({ code: 0, signal: null });
    expect(worker.output()).toMatch(/shutting down: finishing running jobs/);
  }, 120_000);

  it('lets a worker finish the export it is running before exiting 0, and the waiting request gets it', async () => {
    const scratch = await createScratchDatabase();
    cleanup.push(() => scratch.drop());
    const env = {
      DATABASE_URL: scratch.url,
      REDIS_URL: REDIS_TEST_URL,
      COMPLY_QUEUE_PREFIX: `comply-signal-${randomUUID()}`,
    };
    cleanup.push(() => removePrefix(REDIS_TEST_URL, env.COMPLY_QUEUE_PREFIX).then(() => {}));
    const port = await freePort();
    const daemon = start(['serve'], { ...env, PORT: String(port) });
    cleanup.push(() => {
      if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    });
    await waitForOutput(daemon.child, daemon.output, /comply listening on/);
    const worker = start(['worker'], env);
    cleanup.push(() => {
      if (worker.child.exitCode === null) worker.child.kill('SIGKILL');
    });
    await waitForOutput(worker.child, worker.output, /comply worker ready/);

    const base = `http://127.0.0.1:${port}/api/v1`;
    const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };
    const created = await fetch(`${base}/orgs`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ orgId: 'busy', name: 'Busy' }),
    });
    expect(created.status).toBe(201);
    // Enough evidence that the export is still being built when the signal arrives.
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    await client.query(
      `insert into evidence (evidence_id, org_id, framework_id, requirement_id, type, title, created_at)
       select 'ev-' || g, 'busy', 'iso-42001', 'A.6.2.4', 'attestation', 'Run ' || g, now()
       from generate_series(1, 40000) g`,
    );
    await client.end();

    const exported = fetch(`${base}/orgs/busy/export/oscal`, { headers });
    await waitForOutput(worker.child, worker.output, /"job":"export".*"msg":"job started"/);
    worker.child.kill('SIGTERM');

    const response = await exported;
    expect(response.status).toBe(200);
    const documents = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(documents).length).toBeGreaterThan(0);
    expect(await worker.exit).toEqual({ code: 0, signal: null });
    // The signal came while the export ran: the worker said it was stopping, then finished the job.
    const output = worker.output();
    const stopping = output.indexOf('shutting down: finishing running jobs');
    const finished = output.search(/"job":"export".*"msg":"job done"/);
    expect(stopping).toBeGreaterThan(-1);
    expect(finished).toBeGreaterThan(stopping);
  }, 180_000);
});
