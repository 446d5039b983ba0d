/**
 * People and the audit trail, on real PostgreSQL, each as a ratio in one run:
 * - the authentication hook with a session cookie against the same read with an API key;
 * - a status write with the audit trail against the same route on a second daemon whose audit triggers are
 *   disabled (the least work the write needs without the trail).
 * Run: npx tsx bench/people.bench.ts [--duration 5]   (targets: session ≥ key; trail ≤ 15 % slower)
 */
import pg from 'pg';
import { ADMIN_KEY, createBenchDatabase, type LoadResult, load, startDaemon } from './support.js';

const duration = Number(process.argv[process.argv.indexOf('--duration') + 1]) || 5;
const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };

async function post(url: string, body: unknown, extra: Record<string, string> = headers) {
  const response = await fetch(url, { method: 'POST', headers: extra, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  return response;
}

/** A daemon with an org, an owner signed in, and a key: what both measurements need. */
async function prepare(name: string, withoutTrail: boolean) {
  const databaseUrl = await createBenchDatabase(name);
  const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
  if (withoutTrail) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const { rows } = await client.query(
      `select c.relname as "table", g.tgname as "trigger" from pg_trigger g join pg_class c on c.oid = g.tgrelid
       where g.tgname like '%\\_audit\\_%'`,
    );
    for (const { table, trigger } of rows)
      await client.query(`alter table ${table} disable trigger ${trigger}`);
    await client.end();
  }
  await post(`${daemon.url}/api/v1/orgs`, { orgId: 'bench', name: 'Bench' });
  const invited = (await (
    await post(`${daemon.url}/api/v1/orgs/bench/members`, {
      email: 'o@example.com',
      name: 'Owner',
      role: 'owner',
    })
  ).json()) as { invitation: { token: string } };
  const accepted = await post(
    `${daemon.url}/api/v1/auth/invitations/accept`,
    { token: invited.invitation.token, password: 'correct horse battery' },
    { 'content-type': 'application/json' },
  );
  const cookie = (accepted.headers.get('set-cookie') ?? '').split(';')[0];
  return { daemon, cookie };
}

const withTrail = await prepare('comply_bench_people', false);
const withoutTrail = await prepare('comply_bench_people_untracked', true);
try {
  const read = `${withTrail.daemon.url}/api/v1/orgs/bench/controls/A.2.2`;
  await load('warm-up', { url: read, headers, duration: 2 });
  await load('warm-up', { url: read, headers: { cookie: withTrail.cookie }, duration: 2 });
  const byKey = await load('GET control, API key', { url: read, headers, duration });
  const bySession = await load('GET control, session cookie', {
    url: read,
    headers: { cookie: withTrail.cookie },
    duration,
  });

  let flip = 0;
  const write = (base: string, name: string): Promise<LoadResult> =>
    load(name, {
      url: `${base}/api/v1/orgs/bench/controls/A.2.2/status`,
      method: 'PUT',
      headers,
      duration,
      nextBody: () => {
        flip += 1;
        return JSON.stringify({ status: flip % 2 ? 'implemented' : 'in_progress', reviewer: 'bench' });
      },
    });
  await write(withoutTrail.daemon.url, 'warm-up');
  await write(withTrail.daemon.url, 'warm-up');
  const untracked = await write(withoutTrail.daemon.url, 'PUT status, audit triggers disabled');
  const tracked = await write(withTrail.daemon.url, 'PUT status, with the audit trail');

  const rows = [byKey, bySession, untracked, tracked].map((result) => ({
    measurement: result.name,
    'req/s': result.requestsPerSec,
    'p50 ms': result.p50,
    'p99 ms': result.p99,
    'non-2xx': result.non2xx,
  }));
  console.table(rows);
  console.log(
    `session / key: ${((100 * bySession.requestsPerSec) / byKey.requestsPerSec).toFixed(1)} % (target ≥ 100 %, within noise)`,
  );
  console.log(
    `status write with the trail / without: ${((100 * tracked.requestsPerSec) / untracked.requestsPerSec).toFixed(1)} % (target ≥ 85 %)`,
  );
} finally {
  await withTrail.daemon.stop();
  await withoutTrail.daemon.stop();
}
