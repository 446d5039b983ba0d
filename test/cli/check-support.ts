import { createScratchDatabase, type DbKind } from '../support/app.js';
import { callApi, type Daemon, startDaemon } from '../support/daemon.js';

/** A daemon on the given database kind: embedded PGlite, or a scratch PostgreSQL database. */
export async function startDaemonOn(kind: DbKind): Promise<{ daemon: Daemon; stop: () => Promise<void> }> {
  const scratch = kind === 'postgres' ? await createScratchDatabase() : null;
  const daemon = await startDaemon(scratch ? { DATABASE_URL: scratch.url } : {});
  return {
    daemon,
    stop: async () => {
      await daemon.stop();
      await scratch?.drop();
    },
  };
}

/** Setting up data goes straight to the HTTP API (the CLI is what the tests examine). */
export function api(url: string, key: string) {
  return <T = Record<string, unknown>>(method: string, path: string, body?: unknown) =>
    callApi<T>(url, key, method, path, body);
}

export const enc = encodeURIComponent;
