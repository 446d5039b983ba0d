/**
 * The summary of a closed attestation epoch (`GET …/attestations/epochs/{epochId}`: count, span, Merkle
 * root) over HTTP on real PostgreSQL, against two `comply serve` processes sharing the database.
 * Run: npx tsx bench/epochs.bench.ts [--attestations 100000] [--reads 20]
 *
 * The epoch is written by one SQL statement, as the ingest path stores it: each row's `content` is the
 * canonical JSON of its body (RFC 8785: keys sorted, no spaces) and `content_hash` its SHA-256, so the
 * root is the one an auditor recomputes from the records. Then the database is vacuumed, as autovacuum
 * leaves a closed epoch. Measured: the first read, the reads after it, and a late attestation posted
 * through the other daemon (with a timestamp in the middle of the epoch) followed by a read whose
 * figures are checked against a recomputation from the rows.
 * Target: < 50 ms after the first read, and exact when a late attestation joins the epoch.
 */
import { createHash } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { ADMIN_KEY, createBenchDatabase, startDaemon } from './support.js';

const { values: args } = parseArgs({
  options: {
    attestations: { type: 'string', default: '100000' },
    reads: { type: 'string', default: '20' },
  },
});
const count = Number(args.attestations);
const reads = Number(args.reads);
const ORG = 'bench';
const EPOCH = '2026-11-22';
const headers = { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' };

interface Summary {
  count: number;
  levels: { L0: number; L2: number };
  firstTimestamp: string;
  lastTimestamp: string;
  merkleRoot: string;
}

async function api<T>(base: string, method: string, url: string, body?: unknown): Promise<T> {
  const response = await fetch(`${base}/api/v1${url}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** One read of the summary, timed from request to parsed body. */
async function timedRead(base: string): Promise<{ ms: number; summary: Summary }> {
  const start = performance.now();
  const summary = await api<Summary>(base, 'GET', `/orgs/${ORG}/attestations/epochs/${EPOCH}`);
  return { ms: performance.now() - start, summary };
}

/**
 * The closed epoch, plus a tenth as many rows in the next epoch so that the epoch is a range of the
 * org's rows. Timestamps step by 500 ms, every tenth row sharing its predecessor's (ties break by id); a third
 * of the rows carry L2 with the columns a signed row has (the summary counts levels, it does not verify).
 */
async function seed(client: pg.Client): Promise<void> {
  const start = performance.now();
  await client.query(
    `insert into attestations (org_id, attestation_id, level, epoch_id, system_id, attested_at, content,
       content_hash, server_assigned_id, signature_key_id, signature_value, posted_by, received_at)
     select $1, id, level, epoch, 'bench-bot', at,
       content, encode(sha256(convert_to(content, 'UTF8')), 'hex'), false,
       case when level = 'L2' then 'bench-sidecar' end, case when level = 'L2' then 'c2lnbmF0dXJl' end,
       null, at + interval '1 second'
     from (
       select id, level, epoch, at,
         '{"attestationId":"' || id || '","claims":{"drift":' || (g % 100) || ',"seq":' || g ||
         '},"controlIds":["A.6.2.6","A.6.2.8"],"epochId":"' || epoch || '","level":"' || level ||
         '","systemId":"bench-bot","timestamp":"' ||
         to_char(at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"}' as content
       from (
         select g, 'att-' || md5(g::text) as id,
           case when g % 3 = 0 then 'L2' else 'L0' end as level,
           case when g <= $2 then $3 else $4 end as epoch,
           timestamptz '2026-11-22 00:00:00+00' + (g - (g % 10 = 1)::int) * interval '500 milliseconds' as at
         from generate_series(1, $2 + $2 / 10) g
       ) rows
     ) contents`,
    [ORG, count, EPOCH, '2026-11-23'],
  );
  await client.query('vacuum analyze attestations');
  console.log(
    `seeded ${count} attestations (+${count / 10} in the next epoch) in ${(performance.now() - start).toFixed(0)} ms`,
  );
}

const sha256 = (...parts: Buffer[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** RFC 6962 section 2.1 from its definition, over the rows as they are now: the reference figures. */
async function recompute(client: pg.Client): Promise<Summary> {
  const { rows } = await client.query<{ level: 'L0' | 'L2'; at: Date; content_hash: string }>(
    `select level, attested_at as at, content_hash from attestations where org_id = $1 and epoch_id = $2
     order by attested_at, attestation_id`,
    [ORG, EPOCH],
  );
  const mth = (leaves: Buffer[], from: number, to: number): Buffer => {
    const n = to - from;
    if (n === 1) return sha256(Buffer.from([0]), leaves[from]);
    let split = 1;
    while (split * 2 < n) split *= 2;
    return sha256(Buffer.from([1]), mth(leaves, from, from + split), mth(leaves, from + split, to));
  };
  const leaves = rows.map((row) => Buffer.from(row.content_hash, 'hex'));
  return {
    count: rows.length,
    levels: {
      L0: rows.filter((row) => row.level === 'L0').length,
      L2: rows.filter((row) => row.level === 'L2').length,
    },
    firstTimestamp: rows[0].at.toISOString(),
    lastTimestamp: rows[rows.length - 1].at.toISOString(),
    merkleRoot: mth(leaves, 0, leaves.length).toString('hex'),
  };
}

const pick = ({ count, levels, firstTimestamp, lastTimestamp, merkleRoot }: Summary) =>
  JSON.stringify({ count, levels, firstTimestamp, lastTimestamp, merkleRoot });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const databaseUrl = await createBenchDatabase('comply_bench_epochs');
const reader = await startDaemon({ DATABASE_URL: databaseUrl });
const writer = await startDaemon({ DATABASE_URL: databaseUrl });
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
try {
  await api(reader.url, 'POST', '/orgs', { orgId: ORG, name: 'Bench AI Ltd.' });
  await api(reader.url, 'POST', `/orgs/${ORG}/ai-systems`, {
    name: 'bench-bot',
    owner: 'bench',
    purpose: 'benchmark',
    riskLevel: 'limited',
  });
  await seed(client);
  const rows: Record<string, string | number>[] = [];
  const row = (step: string, ms: number[], exact?: boolean) =>
    rows.push({
      step,
      reads: ms.length,
      'median ms': Number(median(ms).toFixed(1)),
      'max ms': Number(Math.max(...ms).toFixed(1)),
      exact: exact === undefined ? '' : exact ? 'yes' : 'NO',
    });

  const reference = pick(await recompute(client));
  const first = await timedRead(reader.url);
  row('first read', [first.ms], pick(first.summary) === reference);
  const later: number[] = [];
  for (let i = 0; i < reads; i += 1) later.push((await timedRead(reader.url)).ms);
  row('reads after the first', later);

  // A late attestation, in the middle of the epoch, through the other daemon.
  const late = {
    attestationId: 'att-late-0001',
    level: 'L0',
    epochId: EPOCH,
    systemId: 'bench-bot',
    controlIds: ['A.6.2.6'],
    timestamp: new Date(Date.UTC(2026, 10, 22, 0, 0, 0) + (count / 2) * 500 + 250).toISOString(),
    claims: { late: true },
  };
  await api(writer.url, 'POST', `/orgs/${ORG}/attestations`, late);
  const lateReference = pick(await recompute(client));
  const afterLate = await timedRead(reader.url);
  row(
    'read after a late attestation (other daemon)',
    [afterLate.ms],
    pick(afterLate.summary) === lateReference,
  );
  const settled: number[] = [];
  let exact = true;
  for (let i = 0; i < reads; i += 1) {
    const read = await timedRead(reader.url);
    settled.push(read.ms);
    exact &&= pick(read.summary) === lateReference;
  }
  row('reads after that', settled, exact);
  const writerRead = await timedRead(writer.url);
  row('first read on the other daemon', [writerRead.ms], pick(writerRead.summary) === lateReference);

  console.log(`\nEpoch summary of ${count} attestations, PostgreSQL, over HTTP`);
  console.table(rows);
  const ok = rows.every((r) => r.exact !== 'NO');
  console.log(
    `${median(later) < 50 && median(settled) < 50 && ok ? 'PASS' : 'FAIL'}  < 50 ms after the first read, exact after a late attestation`,
  );
} finally {
  await client.end();
  await writer.stop();
  await reader.stop();
}
