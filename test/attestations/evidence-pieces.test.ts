import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  type PreparedAttestation,
  storeAttestationBatch,
} from '../../src/features/attestations/attestations.store.js';
import { EvidenceFolding } from '../../src/records/evidence-folding.js';
import {
  evidenceTotalSql,
  foldEvidencePieces,
  readRecordStates,
  readRecords,
  readRecordViews,
} from '../../src/records/records.store.js';
import { ISO_42001 } from '../../src/shared/vocabulary.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

const ORG = 'pieces-org';
const CONTROLS = ['A.6.2.6', 'A.6.2.8'];
/** Long enough that none of these early-2026 attestations' evidence has expired. */
const FRESHNESS_DAYS = 3650;

let serial = 0;
const prepared = (controlIds = CONTROLS): PreparedAttestation => {
  serial += 1;
  return {
    orgId: ORG,
    attestationId: `pieces-${serial}`,
    serverAssignedId: false,
    level: 'L0',
    epochId: 'epoch-1',
    systemId: null,
    controlIds,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, serial)).toISOString(),
    claims: {},
    signature: null,
    content: `{"n":${serial}}`,
    contentHash: `hash-${serial}`,
    postedBy: null,
  };
};

/**
 * Ingest appends roll-up pieces instead of updating the records (no row locked across batches); every read of
 * a roll-up counts the pieces not yet folded, and folding moves them into the records without changing what
 * any read returns.
 */
describe.each(dbKinds)('attestation evidence roll-up pieces on %s', (kind) => {
  let t: TestApp;

  const pieces = async () => {
    const [row] = await t.db
      .em()
      .execute<{ n: number }[]>(
        'select count(*)::int as n from requirement_evidence_pieces where org_id = ?',
        [ORG],
      );
    return row.n;
  };
  const store = (rows: PreparedAttestation[]) =>
    storeAttestationBatch(t.db, rows, ISO_42001, new Date(Date.UTC(2026, 0, 2)), FRESHNESS_DAYS);
  /** Every roll-up read of the two controls: records, views, states and the evidence page totals. */
  const rollups = async () => {
    const em = t.db.em();
    const records = (await readRecords(em, ORG, ISO_42001)).filter((r) => CONTROLS.includes(r.requirementId));
    const views = (await readRecordViews(em, ORG, ISO_42001)).records.filter((r) =>
      CONTROLS.includes(r.requirementId),
    );
    const states = (await readRecordStates(em, ORG, { frameworkId: ISO_42001 })).filter((r) =>
      CONTROLS.includes(r.requirementId),
    );
    const totals = [];
    for (const control of CONTROLS) {
      const [row] = await em.execute<{ all: number; attestations: number }[]>(
        `select ${evidenceTotalSql()} as "all", ${evidenceTotalSql('attestation')} as attestations`,
        [ORG, ISO_42001, control, ORG, ISO_42001, control],
      );
      totals.push([control, row.all, row.attestations]);
    }
    return {
      counts: records.map((r) => [r.requirementId, r.evidenceCount]).sort(),
      views: views.map((r) => [r.requirementId, r.evidenceCount, r.evidenceExpired]).sort(),
      states: states.map((r) => [r.requirementId, r.evidenceExpired, r.expiresAt]).sort(),
      totals,
    };
  };
  /** Records whose roll-up columns plus pieces differ from the evidence rows they sum up. */
  const mismatches = () =>
    t.db.em().execute(
      `select r.requirement_id from requirement_records r
       left join (select framework_id, requirement_id, count(*)::int as total,
           count(*) filter (where type = 'attestation')::int as attestations
         from evidence where org_id = ? group by framework_id, requirement_id) e
         on e.framework_id = r.framework_id and e.requirement_id = r.requirement_id
       left join (select framework_id, requirement_id, sum(attestations)::int as added
         from requirement_evidence_pieces where org_id = ? group by framework_id, requirement_id) p
         on p.framework_id = r.framework_id and p.requirement_id = r.requirement_id
       where r.org_id = ? and (r.evidence_count + coalesce(p.added, 0) <> coalesce(e.total, 0)
         or r.evidence_attestation_count + coalesce(p.added, 0) <> coalesce(e.attestations, 0))`,
      [ORG, ORG, ORG],
    );

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(ORG);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts unfolded pieces in every read, and folding changes none of them', async () => {
    const empty = await rollups();
    expect(empty.counts).toEqual([
      ['A.6.2.6', 0],
      ['A.6.2.8', 0],
    ]);

    await store([prepared(), prepared()]);
    await store([prepared(['A.6.2.8'])]);
    expect(await pieces()).toBe(3);
    const unfolded = await rollups();
    expect(unfolded.counts).toEqual([
      ['A.6.2.6', 2],
      ['A.6.2.8', 3],
    ]);
    expect(unfolded.totals).toEqual([
      ['A.6.2.6', 2, 2],
      ['A.6.2.8', 3, 3],
    ]);
    // Attestation evidence is fresh for FRESHNESS_DAYS: none of it has expired yet, and each record says when
    // its last piece of it will (the same before and after folding, below).
    expect(unfolded.views.every(([, , expired]) => expired === false)).toBe(true);
    expect(unfolded.states.every(([, expired, expiresAt]) => expired === false && expiresAt !== null)).toBe(
      true,
    );
    expect(await mismatches()).toEqual([]);

    expect(await foldEvidencePieces(t.db, ORG)).toBe(3);
    expect(await pieces()).toBe(0);
    expect(await rollups()).toEqual(unfolded);
    expect(await mismatches()).toEqual([]);
    // Nothing left to fold: a second fold moves nothing.
    expect(await foldEvidencePieces(t.db, ORG)).toBe(0);
    expect(await rollups()).toEqual(unfolded);
  });

  it('counts every attestation exactly once while folds run between concurrent batches', async () => {
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 12; i++) {
      work.push(store([prepared(), prepared(['A.6.2.6'])]));
      if (i % 3 === 0) work.push(foldEvidencePieces(t.db, ORG), foldEvidencePieces(t.db, ORG));
    }
    await Promise.all(work);
    expect(await mismatches()).toEqual([]);
    await foldEvidencePieces(t.db, ORG);
    expect(await pieces()).toBe(0);
    expect(await mismatches()).toEqual([]);
  });

  it('folds an org a while after ingest touched it, and cancels what is not due at shutdown', async () => {
    await store([prepared()]);
    expect(await pieces()).toBeGreaterThan(0);
    const folding = new EvidenceFolding(t.db, 10);
    folding.touched(ORG);
    await vi.waitFor(async () => expect(await pieces()).toBe(0), { timeout: 10_000, interval: 20 });
    await folding.close();
    expect(await mismatches()).toEqual([]);

    await store([prepared()]);
    const idle = new EvidenceFolding(t.db, 60_000);
    idle.touched(ORG);
    await idle.close();
    expect(await pieces()).toBe(2);
    expect(await mismatches()).toEqual([]);
  });
});
