import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
export class DataDirLockedError extends Error {
}
const LOCK_FILE = 'comply.lock';
/**
 * When a process started, as the kernel says: pids are reused, a (pid, start time) pair is not.
 * Null where /proc is not available (then the pid alone decides, as before).
 */
export function processStartTime(pid) {
    try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return fields[19] ?? null;
    }
    catch {
        return null;
    }
}
function isAlive(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (error) {
        return error.code === 'EPERM';
    }
}
/** Older lock files hold only a pid. */
function readHolder(text) {
    try {
        const value = JSON.parse(text);
        if (typeof value === 'number')
            return { pid: value, startedAt: null };
        if (Number.isInteger(value.pid))
            return { pid: value.pid, startedAt: value.startedAt ?? null };
    }
    catch {
        // Not JSON: a stale or foreign file, taken over below.
    }
    return null;
}
/** True when the process that wrote the lock is still running (not merely a process with its pid). */
function holderRuns(holder) {
    if (holder.pid === process.pid || !isAlive(holder.pid))
        return false;
    if (holder.startedAt === null)
        return true;
    const now = processStartTime(holder.pid);
    return now === null || now === holder.startedAt;
}
const read = (file) => {
    try {
        return fs.readFileSync(file, 'utf8');
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return null;
        throw error;
    }
};
/** Creates `file` holding `text`, or returns false when it exists (O_EXCL: one creator wins). */
function createExclusive(file, text) {
    try {
        fs.writeFileSync(file, text, { flag: 'wx' });
        return true;
    }
    catch (error) {
        if (error.code === 'EEXIST')
            return false;
        throw error;
    }
}
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
/** How long a process waits for another that is taking over the same stale lock. */
const TAKEOVER_WAIT_MS = 5000;
/**
 * PGlite has no locking of its own: a second process opening the same directory silently loses its
 * writes. Hold an exclusive lock file for the life of the process, recording its pid and start time. A
 * lock whose process is gone is stale and taken over, including when its pid now belongs to another
 * process (after a `kill -9` and a reboot or pid wrap-around, as in a container restarted as PID 1).
 *
 * Taking over is atomic: of the processes that found the same stale lock, only the one that creates its
 * takeover marker (a file named after the stale lock's content, created exclusively) replaces the lock,
 * by renaming a file of its own over it; the others wait and then find a live holder. The marker goes
 * once the lock is replaced, and a late process that then creates it again finds the lock changed.
 */
export function lockDataDir(dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    const lockPath = path.join(dataDir, LOCK_FILE);
    const mine = { pid: process.pid, startedAt: processStartTime(process.pid) };
    const mineText = JSON.stringify(mine);
    const release = () => {
        if (read(lockPath) === mineText)
            fs.rmSync(lockPath, { force: true });
    };
    const deadline = Date.now() + TAKEOVER_WAIT_MS;
    while (Date.now() < deadline) {
        if (createExclusive(lockPath, mineText))
            return release;
        const staleText = read(lockPath);
        // Released in between: try to create it again.
        if (staleText === null)
            continue;
        const holder = readHolder(staleText);
        if (holder && holderRuns(holder)) {
            throw new DataDirLockedError(`The embedded database in ${dataDir} is in use by process ${holder.pid}. ` +
                'Only one process may open it: talk to that daemon over HTTP, or use PostgreSQL (DATABASE_URL).');
        }
        if (takeOver(lockPath, staleText, mineText))
            return release;
        // Another process is taking it over: wait until it has, then look again.
        sleep(5);
    }
    throw new DataDirLockedError(`Could not lock ${dataDir}: another process was taking over its stale lock`);
}
/**
 * Replaces the stale lock whose content is `staleText` with `mineText`, unless another process is
 * replacing it (false). A marker whose creator died before replacing the lock is itself stale: the next
 * marker is named after both, so that every step is an exclusive creation.
 */
function takeOver(lockPath, staleText, mineText) {
    const markers = [];
    let basis = staleText;
    for (;;) {
        const marker = `${lockPath}.takeover-${createHash('sha256').update(basis).digest('hex').slice(0, 16)}`;
        if (createExclusive(marker, mineText)) {
            markers.push(marker);
            break;
        }
        const markerText = read(marker);
        // Removed in between by a process that took the lock over: look at the lock again.
        if (markerText === null)
            return false;
        const taker = readHolder(markerText);
        if (taker && holderRuns(taker))
            return false;
        markers.push(marker);
        basis += markerText;
    }
    try {
        // The lock may have been replaced since it was read, by a process whose marker is gone by now.
        if (read(lockPath) !== staleText)
            return false;
        const fresh = `${lockPath}.${process.pid}.${randomUUID()}`;
        fs.writeFileSync(fresh, mineText, { flag: 'wx' });
        fs.renameSync(fresh, lockPath);
        return true;
    }
    finally {
        for (const marker of markers)
            fs.rmSync(marker, { force: true });
    }
}
//# sourceMappingURL=lock.js.map