import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {}

const LOCK_FILE = 'comply.lock';

/** What the lock file records: the holder's pid and when that process started. */
interface Holder {
  pid: number;
  /** Start time of the process in clock ticks since boot (/proc/<pid>/stat field 22); null where unknown. */
  startedAt: string | null;
}

/**
 * When a process started, as the kernel says: pids are reused, a (pid, start time) pair is not.
 * Null where /proc is not available (then the pid alone decides, as before).
 */
export function processStartTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Older lock files hold only a pid. */
function readHolder(text: string): Holder | null {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (typeof value === 'number') return { pid: value, startedAt: null };
    if (Number.isInteger(value.pid)) return { pid: value.pid as number, startedAt: value.startedAt ?? null };
  } catch {
    // Not JSON: a stale or foreign file, taken over below.
  }
  return null;
}

/** True when the process that wrote the lock is still running (not merely a process with its pid). */
function holderRuns(holder: Holder): boolean {
  if (holder.pid === process.pid || !isAlive(holder.pid)) return false;
  if (holder.startedAt === null) return true;
  const now = processStartTime(holder.pid);
  return now === null || now === holder.startedAt;
}

/**
 * PGlite has no locking of its own: a second process opening the same directory silently loses its
 * writes. Hold an exclusive lock file for the life of the process, recording its pid and start time. A
 * lock whose process is gone is stale and taken over, including when its pid now belongs to another
 * process (after a `kill -9` and a reboot or pid wrap-around, as in a container restarted as PID 1).
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  const mine: Holder = { pid: process.pid, startedAt: processStartTime(process.pid) };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      fs.writeFileSync(lockPath, JSON.stringify(mine), { flag: 'wx' });
      return () => fs.rmSync(lockPath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(fs.readFileSync(lockPath, 'utf8'));
      if (holder && holderRuns(holder)) {
        throw new DataDirLockedError(
          `The embedded database in ${dataDir} is in use by process ${holder.pid}. ` +
            'Only one process may open it: talk to that daemon over HTTP, or use PostgreSQL (DATABASE_URL).',
        );
      }
      fs.rmSync(lockPath, { force: true });
    }
  }
  throw new DataDirLockedError(`Could not lock ${dataDir}`);
}
