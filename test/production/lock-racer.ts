/**
 * A process that races for the embedded database's lock on command (see data-dir-lock.test.ts): for
 * each `{dir, at}` it waits until the wall clock reaches `at`, tries to lock `dir` and reports whether
 * it got the lock; it lets go of it on `release`.
 */
import { lockDataDir } from '../../src/platform/db/lock.js';

let release: (() => void) | undefined;

process.on('message', (message: { dir?: string; at?: number; release?: boolean }) => {
  if (message.release) {
    release?.();
    release = undefined;
    process.send?.({ released: true });
    return;
  }
  // Both racers start together: spinning, not sleeping, so that neither waits for a timer.
  while (Date.now() < (message.at ?? 0)) {}
  try {
    release = lockDataDir(message.dir as string);
    process.send?.({ locked: true });
  } catch (error) {
    process.send?.({
      locked: false,
      error: (error as Error).constructor.name,
      message: (error as Error).message,
    });
  }
});
process.send?.({ ready: true });
