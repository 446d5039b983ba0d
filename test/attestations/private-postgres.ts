import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The newest installed PostgreSQL server binaries (Debian layout), or COMPLY_PG_BINDIR. */
function binDir(): string {
  if (process.env.COMPLY_PG_BINDIR) return process.env.COMPLY_PG_BINDIR;
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root) ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions
    .map((version) => path.join(root, version, 'bin'))
    .find((dir) => fs.existsSync(path.join(dir, 'initdb')));
  if (!found) throw new Error('No PostgreSQL server binaries found (set COMPLY_PG_BINDIR)');
  return found;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface PrivatePostgres {
  url: string;
  restart(): Promise<void>;
  /** Stops the server until `start` (the data directory stays). */
  halt(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster of our own, so that a test may restart its server without taking
 * down the shared one other test files are using. The server refuses to run as root, so as root it
 * runs as the `postgres` system user.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comply-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  const pgCommand = (tool: string, args: string[]) =>
    asRoot
      ? run('runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args])
      : run(path.join(bin, tool), args);
  const data = path.join(dir, 'data');
  const port = await freePort();
  await pgCommand('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const ctl = (...args: string[]) =>
    pgCommand('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', ...args]);
  const start = async () => {
    await ctl('-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start');
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: async () => {
      await ctl('-m', 'fast', 'restart');
    },
    halt: async () => {
      await ctl('-m', 'fast', 'stop');
    },
    start,
    stop: async () => {
      await ctl('-m', 'immediate', 'stop').catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
