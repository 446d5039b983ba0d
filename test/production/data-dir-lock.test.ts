import { type ChildProcess, fork, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, processStartTime } from '../../src/platform/db/lock.js';

/**
 * The embedded database's lock records pid and process start time: a lock left by a process that died
 * is taken over even when its pid now belongs to another live process; a live holder still blocks.
 */
describe('the embedded database lock', () => {
  // Another live process: the pid a stale lock may name after pid reuse.
  const other = spawn('sleep', ['600'], { stdio: 'ignore' });
  const dirs: string[] = [];
  const dir = () => {
    const created = fs.mkdtempSync(path.join(tmpdir(), 'comply-lock-'));
    dirs.push(created);
    return created;
  };
  afterAll(async () => {
    const exited = once(other, 'exit');
    other.kill('SIGKILL');
    await exited;
    for (const created of dirs) fs.rmSync(created, { recursive: true, force: true });
  });

  it('records the pid and the start time of the holder', () => {
    const locked = dir();
    const release = lockDataDir(locked);
    const holder = JSON.parse(fs.readFileSync(path.join(locked, 'comply.lock'), 'utf8'));
    expect(holder).toEqual({ pid: process.pid, startedAt: processStartTime(process.pid) });
    expect(holder.startedAt).toMatch(/^\d+$/);
    release();
  });

  it('takes over a lock whose pid now belongs to another process', () => {
    const stale = dir();
    const startedAt = processStartTime(other.pid as number) as string;
    const earlier = String(BigInt(startedAt) - 1n);
    fs.writeFileSync(path.join(stale, 'comply.lock'), JSON.stringify({ pid: other.pid, startedAt: earlier }));
    const release = lockDataDir(stale);
    expect(JSON.parse(fs.readFileSync(path.join(stale, 'comply.lock'), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('refuses while the recorded process itself still runs', () => {
    const held = dir();
    const startedAt = processStartTime(other.pid as number);
    fs.writeFileSync(path.join(held, 'comply.lock'), JSON.stringify({ pid: other.pid, startedAt }));
    expect(() => lockDataDir(held)).toThrow(DataDirLockedError);
  });

  it('lets only one of two processes that start together take over a stale lock, round after round', async () => {
    const racers = [0, 1].map(() =>
      fork(new URL('./lock-racer.ts', import.meta.url).pathname, [], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
    );
    const reply = <T>(racer: ChildProcess) => once(racer, 'message').then(([message]) => message as T);
    try {
      await Promise.all(racers.map((racer) => reply(racer)));
      // A pid that no process holds any more.
      const dead = spawnSync('true').pid;
      let bothLocked = 0;
      let noneLocked = 0;
      const refusals = new Set<string>();
      for (let round = 0; round < 100; round += 1) {
        const stale = dir();
        fs.writeFileSync(path.join(stale, 'comply.lock'), JSON.stringify({ pid: dead, startedAt: '1' }));
        const at = Date.now() + 20;
        const results = await Promise.all(
          racers.map((racer) => {
            const answer = reply<{ locked: boolean; error?: string }>(racer);
            racer.send({ dir: stale, at });
            return answer;
          }),
        );
        const locked = results.filter((result) => result.locked).length;
        if (locked === 2) bothLocked += 1;
        if (locked === 0) noneLocked += 1;
        for (const result of results) if (!result.locked) refusals.add(result.error as string);
        await Promise.all(
          racers.map((racer) => {
            const released = reply(racer);
            racer.send({ release: true });
            return released;
          }),
        );
      }
      expect({ bothLocked, noneLocked, refusals: [...refusals] }).toEqual({
        bothLocked: 0,
        noneLocked: 0,
        refusals: ['DataDirLockedError'],
      });
    } finally {
      for (const racer of racers) racer.kill('SIGKILL');
    }
  }, 120_000);
});
