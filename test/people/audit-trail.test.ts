import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENESIS_HASH } from '../../src/platform/audit/chain.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';

/**
 * Tables that hold no change anybody makes, and so carry no audit trigger: caches and roll-ups derived from
 * the records, sidecar attestations (their own signed, Merkle-rooted record), export results, and sign-in
 * bookkeeping (sign-ins are in the platform log).
 */
const UNAUDITED = new Set([
  'attestations',
  'attestation_epoch_counts',
  'compliance_rollups',
  'requirement_evidence_pieces',
  'requirement_changes',
  'export_results',
  'cte_embedding_sets',
  'cte_embeddings',
  'controls',
  'invitations',
  'sessions',
  'audit_events',
  'audit_heads',
  'requirement_caps',
  'mikro_orm_migrations',
  // Notifications' bookkeeping, written by comply's jobs, not by people: how far each webhook has read the trail,
  // the deliveries and their attempts (the delivery log), the due events emitted (themselves appended to the
  // trail) and the digests sent. The webhooks themselves are audited.
  'webhook_cursors',
  'webhook_deliveries',
  'webhook_attempts',
  'notification_emissions',
  'notification_digests',
]);

describe.each(dbKinds)('the audit trail (%s)', (kind) => {
  let t: TestApp;
  let cookie: string;
  let keyId: string;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    await addMember(t, 'acme', { email: 'olivia@example.com', name: 'Olivia Officer', role: 'owner' });
    cookie = await signIn(t, 'olivia@example.com', 'correct horse battery');
    const created = await t.request({
      method: 'POST',
      url: '/api/v1/orgs/acme/keys',
      key: null,
      headers: { cookie, origin: ORIGIN },
      body: { scopes: ['read', 'write'], name: 'ci pipeline' },
    });
    expect(created.statusCode, created.body).toBe(201);
    ({ keyId, key } = created.json());
  });
  afterAll(() => t.close());

  const log = async (query = '') => {
    const response = await t.request({ method: 'GET', url: `/api/v1/orgs/acme/audit-log${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };

  it('names a key and its name on the changes it makes, and the person who created the key', async () => {
    const system = await t.request({
      method: 'POST',
      url: '/api/v1/orgs/acme/ai-systems',
      key,
      body: {
        name: 'CV screener',
        owner: 'HR',
        purpose: 'Ranks applicants',
        riskLevel: 'high',
        lifecycleStage: 'deployed',
      },
    });
    expect(system.statusCode, system.body).toBe(201);
    const [event] = (await log('?resourceType=ai-system')).events;
    expect(event).toMatchObject({
      action: 'ai-system.created',
      actor: { type: 'key', id: keyId, name: 'ci pipeline' },
      resource: { type: 'ai-system', id: system.json().systemId },
      changes: { name: { from: null, to: 'CV screener' }, riskLevel: { from: null, to: 'high' } },
      requestId: expect.any(String),
    });
    const [keyEvent] = (await log('?action=key.created')).events;
    expect(keyEvent).toMatchObject({
      actor: { type: 'user', name: 'Olivia Officer' },
      resource: { id: keyId },
    });
    expect(keyEvent.changes.createdBy.to).toBe(keyEvent.actor.id);
    expect(JSON.stringify(keyEvent)).not.toMatch(/keyHash|key_hash/);
  });

  it('numbers events 1, 2, 3… without gaps, chains each to the one before, and pages by cursor', async () => {
    for (const status of ['in_progress', 'implemented', 'in_progress']) {
      await t.request({
        method: 'PUT',
        url: '/api/v1/orgs/acme/controls/A.5.2/status',
        key,
        body: { status, reviewer: 'r' },
      });
    }
    const all = (await log('?limit=500')).events;
    const seqs = all.map((event: { seq: number }) => event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, index) => seqs.length - index));
    expect(all.at(-1).prevHash).toBe(GENESIS_HASH);
    for (let index = 0; index + 1 < all.length; index += 1)
      expect(all[index].prevHash).toBe(all[index + 1].hash);

    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await log(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      pages.push(...page.events.map((event: { seq: number }) => event.seq));
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages).toEqual(seqs);
    const statuses = (await log(`?action=requirement.updated&actorId=${keyId}`)).events;
    expect(
      statuses.map((event: { changes: { status: { to: string } } }) => event.changes.status.to).slice(0, 3),
    ).toEqual(['in_progress', 'implemented', 'in_progress']);
    expect((await log('?action=member.')).events.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps one gapless chain under concurrent writers', async () => {
    // Every control not started yet (over thirty): each write is a change.
    const controls = (
      await t.request({ method: 'GET', url: '/api/v1/orgs/acme/controls?status=not_started' })
    )
      .json()
      .controls.map((control: { controlId: string }) => control.controlId);
    const before = (await log()).events[0].seq;
    expect(controls.length).toBeGreaterThan(30);
    const responses = await Promise.all(
      controls.map((controlId: string) =>
        t.request({
          method: 'PUT',
          url: `/api/v1/orgs/acme/controls/${controlId}/status`,
          key,
          body: { status: 'in_progress', reviewer: 'r' },
        }),
      ),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(controls.map(() => 200));
    const after = (await log('?limit=500')).events;
    expect(after[0].seq).toBe(before + controls.length);
    const verified = (await t.request({ method: 'GET', url: '/api/v1/orgs/acme/audit-log/verify' })).json();
    expect(verified).toMatchObject({ valid: true, events: after[0].seq });
  });

  it('logs nothing for a refused change', async () => {
    const before = (await log()).events[0].seq;
    const refused = await t.request({
      method: 'PUT',
      url: '/api/v1/orgs/acme/controls/A.5.2/status',
      key,
      body: { status: 'bogus', reviewer: 'r' },
    });
    expect(refused.statusCode).toBe(400);
    expect((await log()).events[0].seq).toBe(before);
  });

  it('verifies the chain, and names the first event altered or removed in the database', async () => {
    const verify = async () =>
      (await t.request({ method: 'GET', url: '/api/v1/orgs/acme/audit-log/verify' })).json();
    const intact = await verify();
    expect(intact).toMatchObject({ orgId: 'acme', valid: true });
    expect(intact.events).toBeGreaterThan(5);
    expect(intact.headHash).toBe((await log()).events[0].hash);

    const em = t.db.em();
    const [target] = await em.execute<{ eventId: string; changes: unknown }[]>(
      `select event_id as "eventId", changes from audit_events where chain = 'acme' and seq = 3`,
    );
    await em.execute(
      `update audit_events set changes = '{"status":{"from":"x","to":"y"}}' where chain = 'acme' and seq = 3`,
    );
    expect(await verify()).toMatchObject({ valid: false, firstInvalid: { seq: 3, eventId: target.eventId } });
    await em.execute(`update audit_events set changes = ?::jsonb where chain = 'acme' and seq = 3`, [
      JSON.stringify(target.changes),
    ]);
    expect((await verify()).valid).toBe(true);

    const head = intact.events;
    await em.execute(`delete from audit_events where chain = 'acme' and seq = ?`, [head]);
    const truncated = await verify();
    expect(truncated.valid).toBe(false);
    expect(truncated.firstInvalid.seq).toBe(head);
  });

  it('keeps a trigger on every table that holds records anybody changes', async () => {
    const tables = await t.db.em().execute<{ name: string; audited: boolean }[]>(
      `select c.relname as name, exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname like '%_audit_%') as audited
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname = current_schema()`,
    );
    const missing = tables
      .filter(({ name, audited }) => !audited && !UNAUDITED.has(name))
      .map(({ name }) => name);
    expect(missing, 'tables whose changes nobody would see in the trail').toEqual([]);
  });

  it('keeps sign-ins and sign-outs in the platform log, for platform administrators only', async () => {
    const platform = await t.request({ method: 'GET', url: '/api/v1/audit-log?action=auth.' });
    expect(platform.statusCode).toBe(200);
    expect(platform.json().events.map((event: { action: string }) => event.action)).toContain(
      'auth.signed_in',
    );
    expect((await t.request({ method: 'GET', url: '/api/v1/audit-log/verify' })).json().valid).toBe(true);
    const asOwner = await t.request({
      method: 'GET',
      url: '/api/v1/audit-log',
      key: null,
      headers: { cookie },
    });
    expect(asOwner.statusCode).toBe(403);
  });
});
