/**
 * Score, history and evidence reads for an org with 100k evidence rows and a year of control changes, on
 * real PostgreSQL, against a bare Fastify route in the same run.
 * Run: npx tsx bench/compliance.bench.ts [evidenceRows] [changesPerDay]
 * DESIGN.md target: GET .../compliance ≥ 50 % of the bare route; every list O(page).
 */

import { seedControlLibrary } from '../src/features/controls/library.seed.js';
import { insertEvidence, type NewEvidence } from '../src/features/evidence/evidence.store.js';
import { createOrg } from '../src/features/orgs/orgs.service.js';
import { scoreHistory } from '../src/features/scores/history.service.js';
import { rollupOrgs } from '../src/features/scores/rollup.service.js';
import { loadConfig } from '../src/platform/config.js';
import { type Database, type Em, openDatabase } from '../src/platform/db/database.js';
import {
  REQUIREMENT_STATUSES as CONTROL_STATUSES,
  type RequirementStatus as ControlStatus,
  EVIDENCE_TYPES,
  ISO_42001,
} from '../src/shared/vocabulary.js';
import { ADMIN_KEY, createBenchDatabase, load, startBareRoute, startDaemon } from './support.js';

const EVIDENCE_ROWS = Number(process.argv[2] ?? 100_000);
const CHANGES_PER_DAY = Number(process.argv[3] ?? 40);
const DAY = 86_400_000;
const ORG = 'bench';
/** Half the evidence sits on one control, so its pages are read from a 50k-row slice. */
const HOT_CONTROL = 'A.6.2.8';

/** Deterministic pseudo-random numbers, so every run loads the same data. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

async function loadEvidence(db: Database, controls: string[], start: number, now: number) {
  const next = random(7);
  const batch = 2000;
  for (let offset = 0; offset < EVIDENCE_ROWS; offset += batch) {
    const rows: NewEvidence[] = [];
    for (let index = offset; index < Math.min(offset + batch, EVIDENCE_ROWS); index += 1) {
      const createdAt = new Date(start + next() * (now - start));
      const type = EVIDENCE_TYPES[index % 3];
      rows.push({
        orgId: ORG,
        frameworkId: 'iso-42001',
        requirementId: index % 2 === 0 ? HOT_CONTROL : controls[index % controls.length],
        type,
        title: `evidence ${index}`,
        fileUrl: type === 'attestation' ? null : `https://files.example.com/${index}`,
        expiresAt: index % 4 === 0 ? new Date(createdAt.getTime() + 180 * DAY) : null,
        createdAt,
      });
    }
    await db.em().transactional((tx) => insertEvidence(tx, rows));
  }
}

/** A year of status and applicability changes whose from/to values chain exactly, ending in the requirement records. */
async function loadChanges(em: Em, controls: string[], start: number, now: number) {
  const next = random(11);
  const states = new Map(
    controls.map((id) => [id, { status: 'not_started' as ControlStatus, applicable: true }]),
  );
  const changes: unknown[][] = [];
  const total = Math.floor(((now - start) / DAY) * CHANGES_PER_DAY);
  for (let index = 0; index < total; index += 1) {
    const controlId = controls[Math.floor(next() * controls.length)];
    const state = states.get(controlId) as { status: ControlStatus; applicable: boolean };
    const changedAt = new Date(start + ((index + 1) / (total + 1)) * (now - start));
    if (next() < 0.1) {
      changes.push([controlId, 'applicable', String(state.applicable), String(!state.applicable), changedAt]);
      state.applicable = !state.applicable;
    } else {
      const options = CONTROL_STATUSES.filter((status) => status !== state.status);
      const to = options[Math.floor(next() * options.length)];
      changes.push([controlId, 'status', state.status, to, changedAt]);
      state.status = to;
    }
  }
  for (let offset = 0; offset < changes.length; offset += 1000) {
    const chunk = changes.slice(offset, offset + 1000);
    await em.execute(
      `insert into requirement_changes (org_id, framework_id, requirement_id, field, from_value, to_value, actor, changed_at)
       values ${chunk.map(() => `('${ORG}', 'iso-42001', ?, ?, ?, ?, 'bench', ?)`).join(', ')}`,
      chunk.flat(),
    );
  }
  for (const [controlId, state] of states) {
    await em.execute(
      `update requirement_records set status = ?, applicable = ?
       where org_id = ? and framework_id = 'iso-42001' and requirement_id = ?`,
      [state.status, state.applicable, ORG, controlId],
    );
  }
  return total;
}

async function median(run: () => Promise<unknown>, times: number): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < times; index += 1) {
    const begin = performance.now();
    await run();
    samples.push(performance.now() - begin);
  }
  return samples.sort((a, b) => a - b)[Math.floor(times / 2)];
}

const databaseUrl = await createBenchDatabase('comply_bench_compliance');
const now = Date.now();
const yearAgo = now - 365 * DAY;
const db = await openDatabase(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
await seedControlLibrary(db.em());
await createOrg(db.em(), { orgId: ORG, name: 'Bench' });
await db.em().execute('update orgs set created_at = ? where org_id = ?', [new Date(yearAgo - 2 * DAY), ORG]);
const controls = (
  await db
    .em()
    .execute<{ controlId: string }[]>('select control_id as "controlId" from controls order by sort_order')
).map((row) => row.controlId);

let begin = performance.now();
await loadEvidence(db, controls, yearAgo, now);
console.log(`loaded ${EVIDENCE_ROWS} evidence rows in ${((performance.now() - begin) / 1000).toFixed(1)} s`);
begin = performance.now();
const changeCount = await loadChanges(db.em(), controls, yearAgo, now);
console.log(
  `loaded ${changeCount} control changes over a year in ${((performance.now() - begin) / 1000).toFixed(1)} s`,
);
await db.em().execute('vacuum analyze');

const yearQuery = {
  from: new Date(yearAgo).toISOString(),
  to: new Date(now).toISOString(),
  interval: 'daily' as const,
};
const fromLog = await median(() => scoreHistory(db.em(), ORG, ISO_42001, yearQuery), 11);
begin = performance.now();
const rolled = await rollupOrgs(db.em(), {});
console.log(`roll-up job: ${rolled.days} days in ${(performance.now() - begin).toFixed(0)} ms`);
const fromRollups = await median(() => scoreHistory(db.em(), ORG, ISO_42001, yearQuery), 11);
console.log(
  `daily history over a year, one request in-process (median of 11): ${fromLog.toFixed(1)} ms from the change ` +
    `log alone, ${fromRollups.toFixed(1)} ms from roll-ups + today's changes`,
);
await db.close();

const daemon = await startDaemon({ DATABASE_URL: databaseUrl });
const bare = await startBareRoute();
const headers = { authorization: `Bearer ${ADMIN_KEY}` };
const api = `${daemon.url}/api/v1/orgs/${ORG}`;
const history = `${api}/compliance/history?interval=daily&from=${yearQuery.from}&to=${yearQuery.to}`;
/** Each route right after its own bare-route run, so that a machine whose load drifts still gives fair ratios. */
async function measure(name: string, url: string) {
  const bareResult = await load('bare Fastify route', { url: bare.url, duration: 3 });
  const result = await load(name, { url, headers });
  return {
    route: name,
    'req/s': result.requestsPerSec,
    'bare req/s': bareResult.requestsPerSec,
    'ratio vs bare': `${((100 * result.requestsPerSec) / bareResult.requestsPerSec).toFixed(1)} %`,
    'p50 ms': result.p50,
    'p99 ms': result.p99,
    'non-2xx': result.non2xx,
    errors: result.errors,
  };
}

try {
  await load('warm-up', { url: `${api}/compliance`, headers, duration: 2 });
  await load('warm-up', { url: history, headers, duration: 2 });
  const page = `${api}/controls/${HOT_CONTROL}/evidence?limit=50`;
  console.table([
    await measure('GET .../compliance', `${api}/compliance`),
    await measure('GET .../compliance/history (daily, 1 year)', history),
    await measure(`GET .../controls/${HOT_CONTROL}/evidence (page 1 of 50k)`, page),
    await measure(`GET .../controls/${HOT_CONTROL}/evidence?offset=5000`, `${page}&offset=5000`),
    await measure(`GET .../controls/${HOT_CONTROL}/evidence?type=link`, `${page}&type=link`),
    await measure('GET .../controls (latest 3 evidence each)', `${api}/controls`),
  ]);
} finally {
  await bare.close();
  await daemon.stop();
}
