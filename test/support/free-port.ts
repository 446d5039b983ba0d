import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where the ports are picked from: below the system's ephemeral range (32768–60999 on Linux by default). A port
 * the system handed out for `listen(0)` is free only until the next `listen(0)` or outgoing connection, which
 * may get it again before the daemon binds it (EADDRINUSE); the system never hands out ports below that range.
 */
function pickRange(): { low: number; high: number } {
  let ephemeralLow = 32768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]);
  } catch {
    // Not Linux: its default range.
  }
  return { low: 20_000, high: Math.max(20_001, Math.min(ephemeralLow, 32_768)) };
}

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A free port on 127.0.0.1 for a daemon or server started next, chosen at random outside the ephemeral range. */
export async function freePort(): Promise<number> {
  const { low, high } = pickRange();
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = randomInt(low, high);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${low}–${high - 1}`);
}
