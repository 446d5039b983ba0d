/**
 * Assessments of every framework (CONTRACT.md, "Assessments of every framework"): one record per
 * requirement whichever path writes it, direct records on every built-in framework and on an imported
 * catalog, the list filters, gaps that a direct record closes (also where no crosswalk edge reaches),
 * snapshots whose hash covers the other frameworks, and every error path.
 */
import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import {
  type Assessment,
  BUILTIN,
  bindingNoOne,
  counts,
  type Entry,
  enc,
  expectStatus,
  neighbours,
  orgApi,
  requirementIds,
  scoreFor,
  singleSourceStrengths,
  statusOfStrength,
} from './helpers.js';

const CATALOG_ID = 'assessment-test-catalog';

/** A small OSCAL catalog: one group, a control with an enhancement (`MI-1(1)`), and a second control. */
function catalog() {
  const statement = (id: string, prose: string) => [{ id: `${id}_smt`, name: 'statement', prose }];
  return {
    catalog: {
      uuid: '3c1f7e2a-6b4d-4f0e-9a8b-1d2e3f4a5b6c',
      metadata: {
        title: 'Assessment Test Catalog',
        'last-modified': '2026-01-01T00:00:00Z',
        version: '1',
        'oscal-version': '1.2.1',
      },
      groups: [
        {
          id: 'mi',
          title: 'Model inventory',
          controls: [
            {
              id: 'mi-1',
              title: 'Keep a model inventory',
              props: [{ name: 'label', value: 'MI-1' }],
              parts: statement('mi-1', 'Keep an inventory of every AI model in use.'),
              controls: [
                {
                  id: 'mi-1.1',
                  title: 'Automated inventory',
                  props: [{ name: 'label', value: 'MI-1(1)' }],
                  parts: statement('mi-1.1', 'Keep the inventory up to date automatically.'),
                },
              ],
            },
            {
              id: 'mi-2',
              title: 'Review the inventory',
              props: [{ name: 'label', value: 'MI-2' }],
              parts: statement('mi-2', 'Review the inventory every quarter.'),
            },
          ],
        },
      ],
    },
  };
}

const ids = (entries: { requirementId: string }[]) => entries.map((entry) => entry.requirementId);

describe.each(dbKinds)('assessments of every framework on %s', (kind) => {
  let t: TestApp;
  const org = (name: string) => `${kind}-${name}`;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const name of [
      'paths',
      'every',
      'filters',
      'gaps',
      'snap',
      'errors',
      'other',
      'race',
      'stamps',
      'excluded',
    ]) {
      await t.createOrg(org(name));
    }
    const imported = await t.request({
      method: 'POST',
      url: '/api/v1/cte/frameworks/import',
      body: catalog(),
    });
    expect([200, 201], imported.body).toContain(imported.statusCode);
    expect(imported.json()).toMatchObject({ id: CATALOG_ID, controlCount: 3 });
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('one record, two ISO/IEC 42001 paths', () => {
    it('a status written on the controls path is the requirement record, and the other way round', async () => {
      const a = orgApi(t, org('paths'));
      // Fill the cached controls list first: a write on the other path must still show in it.
      const before = expectStatus(await a.call('GET', `${a.base}/controls`), 200).json().controls;
      expect(before.find((c: { controlId: string }) => c.controlId === 'A.6.2.8').status).toBe('not_started');

      const put = await a.call('PUT', `${a.base}/controls/A.6.2.8/status`, {
        status: 'implemented',
        reviewer: 'alice',
        note: 'event logging on in production',
      });
      expectStatus(put, 200);
      const seen = await a.get('iso-42001', 'A.6.2.8');
      expect(seen).toMatchObject({
        orgId: org('paths'),
        frameworkId: 'iso-42001',
        requirementId: 'A.6.2.8',
        domain: 'A.6',
        status: 'implemented',
        reviewer: 'alice',
        applicable: true,
        assessment: 'direct',
      });
      expect(seen.title).toBe(put.json().title);
      expect(seen.updatedAt).toBe(put.json().updatedAt);

      const back = await a.status('iso-42001', 'A.6.2.8', 'in_progress', {
        reviewer: 'bob',
        owner: 'platform team',
        note: 'moving to the new log store',
      });
      expect(back).toMatchObject({
        status: 'in_progress',
        reviewer: 'bob',
        owner: 'platform team',
        note: 'moving to the new log store',
        assessment: 'direct',
      });
      const control = expectStatus(await a.call('GET', `${a.base}/controls/A.6.2.8`), 200).json();
      expect(control).toMatchObject({ controlId: 'A.6.2.8', status: 'in_progress', reviewer: 'bob' });
      expect(control.updatedAt).toBe(back.updatedAt);
      const listed = expectStatus(await a.call('GET', `${a.base}/controls?status=in_progress`), 200).json();
      expect(listed.controls.map((c: { controlId: string }) => c.controlId)).toEqual(['A.6.2.8']);
      const all = expectStatus(await a.call('GET', `${a.base}/controls`), 200).json().controls;
      expect(all.find((c: { controlId: string }) => c.controlId === 'A.6.2.8').status).toBe('in_progress');

      // Applicability, both ways.
      const excluded = await a.applicability('iso-42001', 'A.10.4', false, 'We have no AI customers', 'dora');
      expect(excluded).toMatchObject({ applicable: false, justification: 'We have no AI customers' });
      const excludedControl = expectStatus(await a.call('GET', `${a.base}/controls/A.10.4`), 200).json();
      expect(excludedControl).toMatchObject({
        applicable: false,
        justification: 'We have no AI customers',
        reviewer: 'dora',
      });
      const included = await a.call('PUT', `${a.base}/controls/A.10.4/applicability`, {
        applicable: true,
        justification: 'We started selling an AI service',
        reviewer: 'erin',
      });
      expectStatus(included, 200);
      expect(await a.get('iso-42001', 'A.10.4')).toMatchObject({
        applicable: true,
        justification: 'We started selling an AI service',
        reviewer: 'erin',
        assessment: 'direct',
      });

      // Both paths feed the one ISO 42001 score.
      const score = expectStatus(await a.call('GET', `${a.base}/compliance`), 200).json();
      expect(score.counts).toEqual(counts(0, 1, 37));
      expect((await a.compliance('iso-42001')).counts).toEqual(counts(0, 1, 37));
    });

    it('lists evidence added on either path on the other', async () => {
      const a = orgApi(t, org('paths'));
      const viaControl = await a.call('POST', `${a.base}/controls/A.6.2.8/evidence`, {
        type: 'document',
        title: 'Log retention configuration',
        fileUrl: 'https://files.example.com/log-retention.pdf',
      });
      expectStatus(viaControl, 201);
      const requirementEvidence = `${a.requirement('iso-42001', 'A.6.2.8')}/evidence`;
      const viaRequirement = await a.call('POST', requirementEvidence, {
        type: 'link',
        title: 'Logging dashboard',
        fileUrl: 'https://dash.example.com/logging',
      });
      expectStatus(viaRequirement, 201);
      const added = viaRequirement.json();
      expect(added).toMatchObject({
        frameworkId: 'iso-42001',
        requirementId: 'A.6.2.8',
        controlId: 'A.6.2.8',
        type: 'link',
        title: 'Logging dashboard',
      });
      expect(viaRequirement.headers.location).toBe(`${requirementEvidence}/${added.evidenceId}`);
      const both = [viaControl.json().evidenceId, added.evidenceId].sort();

      const onControl = expectStatus(await a.call('GET', `${a.base}/controls/A.6.2.8/evidence`), 200).json();
      expect(onControl.total).toBe(2);
      expect(onControl.evidence.map((e: { evidenceId: string }) => e.evidenceId).sort()).toEqual(both);
      const one = await a.call('GET', `${requirementEvidence}/${viaControl.json().evidenceId}`);
      expect(expectStatus(one, 200).json()).toMatchObject({
        title: 'Log retention configuration',
        frameworkId: 'iso-42001',
        requirementId: 'A.6.2.8',
      });
      const other = await a.call('GET', `${a.base}/controls/A.6.2.8/evidence/${added.evidenceId}`);
      expect(expectStatus(other, 200).json().title).toBe('Logging dashboard');

      const entry = await a.get('iso-42001', 'A.6.2.8');
      expect(entry.evidenceCount).toBe(2);
      expect(entry.evidence.map((e) => e.evidenceId).sort()).toEqual(both);
      const control = expectStatus(await a.call('GET', `${a.base}/controls/A.6.2.8`), 200).json();
      expect(control.evidenceCount).toBe(2);
    });

    // This answered 500 once the record had evidence (items lacked frameworkId/requirementId); fixed in
    // evidence.routes.ts, which now decorates every item.
    it('lists evidence on the requirement path too (ISO 42001 and any other framework)', async () => {
      const a = orgApi(t, org('paths'));
      const onIso = await a.call('GET', `${a.requirement('iso-42001', 'A.6.2.8')}/evidence`);
      expect(expectStatus(onIso, 200).json()).toMatchObject({
        orgId: org('paths'),
        controlId: 'A.6.2.8',
        frameworkId: 'iso-42001',
        requirementId: 'A.6.2.8',
        total: 2,
      });
      for (const item of onIso.json().evidence) {
        expect(item).toMatchObject({
          frameworkId: 'iso-42001',
          requirementId: 'A.6.2.8',
          controlId: 'A.6.2.8',
        });
      }
      const onControl = expectStatus(await a.call('GET', `${a.base}/controls/A.6.2.8/evidence`), 200).json();
      expect(onIso.json().evidence.map((e: { evidenceId: string }) => e.evidenceId)).toEqual(
        onControl.evidence.map((e: { evidenceId: string }) => e.evidenceId),
      );
      const url = `${a.requirement('gdpr', 'Art. 30')}/evidence`;
      const added = expectStatus(
        await a.call('POST', url, { type: 'attestation', title: 'Record of processing reviewed' }),
        201,
      ).json();
      expect(added).toMatchObject({ frameworkId: 'gdpr', requirementId: 'Art. 30' });
      const listed = expectStatus(await a.call('GET', url), 200).json();
      expect(listed).toMatchObject({ frameworkId: 'gdpr', requirementId: 'Art. 30', total: 1 });
      expect(listed.evidence).toEqual([
        expect.objectContaining({
          evidenceId: added.evidenceId,
          frameworkId: 'gdpr',
          requirementId: 'Art. 30',
        }),
      ]);
      expect((await a.get('gdpr', 'Art. 30')).evidenceCount).toBe(1);
      // Evidence alone is no assessment.
      expect((await a.get('gdpr', 'Art. 30')).assessment).toBe('none');
    });
  });

  describe('direct records on every framework', () => {
    // One requirement of each built-in framework, by its id and by its path-encoded form.
    const samples: [string, string, string][] = [
      ['iso-42001', 'A.6.2.8', 'A.6.2.8'],
      ['nist-ai-rmf', 'GOVERN 1.1', 'GOVERN%201.1'],
      ['eu-ai-act', 'Art. 26(6)', 'Art.%2026(6)'],
      ['iso-27001', 'A.8.15', 'A.8.15'],
      ['gdpr', 'Art. 5(1)(e)', 'Art.%205(1)(e)'],
      ['iso-42001-clauses', '6.1.2', '6.1.2'],
      ['iso-27001-clauses', '9.2.1', '9.2.1'],
      [CATALOG_ID, 'MI-1(1)', 'MI-1(1)'],
    ];

    it('covers every built-in framework', () => {
      expect(samples.map(([frameworkId]) => frameworkId).slice(0, BUILTIN.length)).toEqual([...BUILTIN]);
    });

    it.each(samples)('round-trips status and applicability on %s %s', async (frameworkId, id, encoded) => {
      const a = orgApi(t, org('every'));
      expect(enc(id)).toBe(encoded);
      const url = `${a.base}/frameworks/${frameworkId}/requirements/${encoded}`;
      const put = await a.call('PUT', `${url}/status`, {
        status: 'implemented',
        reviewer: 'rita',
        owner: 'compliance office',
        note: `checked ${id}`,
      });
      const written = expectStatus(put, 200).json() as Entry;
      expect(written).toMatchObject({
        orgId: org('every'),
        frameworkId,
        requirementId: id,
        status: 'implemented',
        applicable: true,
        reviewer: 'rita',
        owner: 'compliance office',
        note: `checked ${id}`,
        assessment: 'direct',
      });
      expect(written.title.length).toBeGreaterThan(0);
      expect(Date.parse(written.updatedAt!)).not.toBeNaN();
      const read = expectStatus(await a.call('GET', url), 200).json();
      expect(read).toEqual(written);

      const excluded = expectStatus(
        await a.call('PUT', `${url}/applicability`, {
          applicable: false,
          justification: `${id} is out of scope`,
          reviewer: 'sam',
        }),
        200,
      ).json();
      expect(excluded).toMatchObject({
        status: 'implemented',
        applicable: false,
        justification: `${id} is out of scope`,
        reviewer: 'sam',
        owner: 'compliance office',
        assessment: 'direct',
      });
      expect(await a.list(frameworkId, '?applicable=false')).toEqual([
        expect.objectContaining({ requirementId: id }),
      ]);
      const back = await a.call('PUT', `${url}/applicability`, {
        applicable: true,
        justification: `${id} applies again`,
        reviewer: 'sam',
      });
      expect(expectStatus(back, 200).json()).toMatchObject({ applicable: true, status: 'implemented' });
      const inProgress = await a.status(frameworkId, id, 'in_progress');
      expect(inProgress).toMatchObject({ status: 'in_progress', assessment: 'direct' });
      expect(ids(await a.list(frameworkId, '?status=in_progress&assessment=direct'))).toEqual([id]);
      const direct = await a.list(frameworkId, '?assessment=direct');
      expect(ids(direct)).toEqual(frameworkId === 'iso-42001' ? requirementIds('iso-42001') : [id]);
    });

    it('lists every framework, the imported catalog included', async () => {
      const a = orgApi(t, org('every'));
      const res = expectStatus(await a.call('GET', `${a.base}/frameworks`), 200).json();
      expect(res.orgId).toBe(org('every'));
      expect(res.frameworks.map((f: { frameworkId: string }) => f.frameworkId)).toEqual([
        ...BUILTIN,
        CATALOG_ID,
      ]);
      const catalogRow = res.frameworks.find((f: { frameworkId: string }) => f.frameworkId === CATALOG_ID);
      expect(catalogRow).toMatchObject({
        name: 'Assessment Test Catalog',
        controlCount: 3,
        counts: counts(0, 1, 2),
        assessed: { direct: 1, inferred: 0, none: 2 },
        score: scoreFor(counts(0, 1, 2)),
        directScore: scoreFor(counts(0, 1, 2)),
        coverage: 0.1667, // (0 + 0.5 × 1) / 3
      });
      const catalogScore = await a.compliance(CATALOG_ID);
      expect(catalogScore.byDomain).toEqual([
        {
          domain: 'mi',
          domainTitle: 'Model inventory',
          score: 16.7,
          controlCount: 3,
          counts: counts(0, 1, 2),
        },
      ]);
      expect(ids(await a.list(CATALOG_ID))).toEqual(['MI-1', 'MI-1(1)', 'MI-2']);
      const history = await a.call(
        'GET',
        `${a.base}/frameworks/${CATALOG_ID}/compliance/history?interval=monthly`,
      );
      expect(expectStatus(history, 200).json().points.at(-1)).toMatchObject({
        score: 16.7,
        counts: counts(0, 1, 2),
      });
    });
  });

  describe('records and the change log', () => {
    it('stamps the change log in commit order under 32 concurrent writers, so unwinding by time chains', async () => {
      const a = orgApi(t, org('stamps'));
      const url = `${a.requirement('gdpr', 'Art. 33')}/status`;
      const cycle = ['implemented', 'in_progress', 'not_started'] as const;
      const results = await Promise.all(
        Array.from({ length: 32 }, (_, index) =>
          a.call('PUT', url, { status: cycle[index % 3], reviewer: `writer ${index}` }),
        ),
      );
      for (const res of results) expectStatus(res, 200);
      // History reads the log by time: in time order each change must start where the one before ended.
      const byTime = await t.db
        .em()
        .execute<{ id: number; fromValue: string | null; toValue: string | null; changedAt: Date }[]>(
          `select id, from_value as "fromValue", to_value as "toValue", changed_at as "changedAt"
           from requirement_changes
           where org_id = ? and framework_id = 'gdpr' and requirement_id = 'Art. 33' order by changed_at, id`,
          [org('stamps')],
        );
      expect(byTime).toHaveLength(32);
      const ids = byTime.map((change) => Number(change.id));
      expect(ids).toEqual([...ids].sort((x, y) => x - y));
      expect(byTime[0].fromValue).toBeNull();
      for (let index = 1; index < byTime.length; index++)
        expect(byTime[index].fromValue, `change ${index}`).toBe(byTime[index - 1].toValue);
      // At the boundary of the last change, the record holds what that change wrote.
      const record = await t.db.em().execute<{ status: string; updatedAt: Date }[]>(
        `select status, updated_at as "updatedAt" from requirement_records
           where org_id = ? and framework_id = 'gdpr' and requirement_id = 'Art. 33'`,
        [org('stamps')],
      );
      expect(record[0].status).toBe(byTime.at(-1)!.toValue);
      expect(new Date(record[0].updatedAt).getTime()).toBe(new Date(byTime.at(-1)!.changedAt).getTime());
    });

    it('chains the change log exactly under concurrent first writes', async () => {
      const a = orgApi(t, org('race'));
      const statuses: ('implemented' | 'in_progress' | 'not_started')[] = [
        'implemented',
        'in_progress',
        'not_started',
        'implemented',
        'in_progress',
        'implemented',
        'not_started',
        'in_progress',
      ];
      const url = `${a.requirement('gdpr', 'Art. 32')}/status`;
      const results = await Promise.all(
        statuses.map((status, index) => a.call('PUT', url, { status, reviewer: `reviewer ${index}` })),
      );
      for (const res of results) expectStatus(res, 200);
      const log = await t.db
        .em()
        .execute<{ fromValue: string | null; toValue: string | null; actor: string }[]>(
          `select from_value as "fromValue", to_value as "toValue", actor from requirement_changes
           where org_id = ? and framework_id = 'gdpr' and requirement_id = 'Art. 32' order by id`,
          [org('race')],
        );
      expect(log).toHaveLength(statuses.length);
      expect(log[0].fromValue).toBeNull();
      for (let index = 1; index < log.length; index++)
        expect(log[index].fromValue).toBe(log[index - 1].toValue);
      expect(new Set(log.map((change) => change.actor)).size).toBe(statuses.length);
      const entry = await a.get('gdpr', 'Art. 32');
      expect(entry.status).toBe(log.at(-1)!.toValue);
      expect(entry.reviewer).toBe(log.at(-1)!.actor);
    });

    it('withdraws nothing from a requirement never assessed, and logs nothing', async () => {
      const a = orgApi(t, org('race'));
      const entry = await a.withdraw('eu-ai-act', 'Art. 50(2)');
      expect(entry).toMatchObject({ assessment: 'none', status: 'not_started', reviewer: null });
      const log = await t.db
        .em()
        .execute(`select 1 from requirement_changes where org_id = ? and framework_id = 'eu-ai-act'`, [
          org('race'),
        ]);
      expect(log).toEqual([]);
    });

    it('keeps the latest three evidence items on the entry and counts them all', async () => {
      const a = orgApi(t, org('race'));
      const url = `${a.requirement('gdpr', 'Art. 30')}/evidence`;
      const added: string[] = [];
      for (const title of ['first', 'second', 'third', 'fourth']) {
        added.push(
          expectStatus(await a.call('POST', url, { type: 'attestation', title }), 201).json().evidenceId,
        );
      }
      const entry = await a.get('gdpr', 'Art. 30');
      expect(entry.evidenceCount).toBe(4);
      expect(entry.evidenceExpired).toBe(false);
      expect(entry.evidence).toHaveLength(3);
      expect(added).toEqual(expect.arrayContaining(entry.evidence.map((e) => e.evidenceId)));
      const listed = (await a.list('gdpr')).find((e) => e.requirementId === 'Art. 30')!;
      expect(listed.evidence).toEqual(entry.evidence);
      expect(expectStatus(await a.call('GET', `${url}?limit=2`), 200).json()).toMatchObject({
        total: 4,
        limit: 2,
      });
    });

    it('scores a framework whose requirements are all excluded as nothing to score', async () => {
      const a = orgApi(t, org('excluded'));
      for (const id of ['MI-1', 'MI-1(1)', 'MI-2']) await a.applicability(CATALOG_ID, id, false, 'no models');
      const row = expectStatus(await a.call('GET', `${a.base}/frameworks`), 200)
        .json()
        .frameworks.find((f: { frameworkId: string }) => f.frameworkId === CATALOG_ID);
      expect(row).toMatchObject({
        score: null,
        directScore: null,
        coverage: null,
        counts: counts(0, 0, 0, 3),
        assessed: { direct: 0, inferred: 0, none: 0 },
      });
      const history = await a.call('GET', `${a.base}/frameworks/${CATALOG_ID}/compliance/history`);
      expect(expectStatus(history, 200).json().points.at(-1)).toMatchObject({
        score: null,
        counts: counts(0, 0, 0, 3),
      });
      expect(await a.gaps(CATALOG_ID)).toEqual([]);
    });
  });

  describe('list filters', () => {
    // eu-ai-act requirements that no crosswalk edge reaches, so that only their own records decide them.
    const unreached = ['Art. 16', 'Art. 21', 'Art. 22', 'Art. 26(4)'];

    beforeAll(async () => {
      for (const id of unreached)
        expect(neighbours({ frameworkId: 'eu-ai-act', requirementId: id })).toEqual([]);
      const a = orgApi(t, org('filters'));
      await a.control('A.6.2.8', 'implemented');
      await a.status('eu-ai-act', 'Art. 26(4)', 'implemented');
      await a.status('eu-ai-act', 'Art. 16', 'in_progress');
      await a.applicability('eu-ai-act', 'Art. 21', false); // an exclusion only: no status recorded
      await a.status('eu-ai-act', 'Art. 22', 'not_started');
      await a.applicability('eu-ai-act', 'Art. 22', false);
    });

    /** eu-ai-act requirements A.6.2.8 alone gives something to, worked out from the rule. */
    const inferredFromLogging = () => {
      const strengths = singleSourceStrengths({ frameworkId: 'iso-42001', requirementId: 'A.6.2.8' });
      return requirementIds('eu-ai-act').flatMap((id) => {
        const strength = strengths.get(`eu-ai-act\u001f${id}`) ?? 0;
        return strength >= 0.25 ? [[id, statusOfStrength(strength)] as const] : [];
      });
    };

    it('infers what the rule gives from the ISO control, and nothing for requirements with records', () => {
      // Art. 12, 19 and 26(6) each have A.6.2.8 as their only ISO 42001 control, by an intersect: a partial
      // overlap, so in progress at most.
      expect(inferredFromLogging()).toEqual([
        ['Art. 12', 'in_progress'],
        ['Art. 19', 'in_progress'],
        ['Art. 26(6)', 'in_progress'],
      ]);
    });

    it.each([
      ['?assessment=direct', ['Art. 16', 'Art. 22', 'Art. 26(4)']],
      ['?assessment=inferred', ['Art. 12', 'Art. 19', 'Art. 26(6)']],
      ['?status=implemented', ['Art. 26(4)']],
      ['?status=in_progress', ['Art. 12', 'Art. 16', 'Art. 19', 'Art. 26(6)']],
      ['?applicable=false', ['Art. 21', 'Art. 22']],
      ['?status=implemented&assessment=inferred', []],
      ['?status=not_started&applicable=false', ['Art. 21', 'Art. 22']],
      ['?assessment=none&applicable=false', ['Art. 21']],
      ['?status=in_progress&assessment=inferred', ['Art. 12', 'Art. 19', 'Art. 26(6)']],
    ])('filters %s', async (query, expected) => {
      const listed = await orgApi(t, org('filters')).list('eu-ai-act', query);
      const order = requirementIds('eu-ai-act');
      expect(ids(listed)).toEqual([...expected].sort((x, y) => order.indexOf(x) - order.indexOf(y)));
    });

    it('lists every requirement with its source, and none of the rest is assessed', async () => {
      const all = await orgApi(t, org('filters')).list('eu-ai-act');
      expect(ids(all)).toEqual(requirementIds('eu-ai-act'));
      const bySource = (source: Assessment) => all.filter((entry) => entry.assessment === source).length;
      expect([bySource('direct'), bySource('inferred'), bySource('none')]).toEqual([3, 3, 54]);
      for (const entry of all.filter((e) => e.assessment === 'none')) {
        expect(entry).toMatchObject({ status: 'not_started', inferred: { status: 'not_started', from: [] } });
      }
      const art12 = all.find((entry) => entry.requirementId === 'Art. 12')!;
      expect(art12).toMatchObject({
        status: 'in_progress',
        reviewer: null,
        updatedAt: null,
        inferred: {
          status: 'in_progress',
          coverage: 'partial',
          from: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.8' }],
        },
      });
      // The list leaves the full reasoning to the single-requirement route.
      expect(art12.inferred.justifications).toBeUndefined();
      const detail = await orgApi(t, org('filters')).get('eu-ai-act', 'Art. 12');
      expect(detail.inferred.justifications).toEqual([
        expect.objectContaining({
          frameworkId: 'iso-42001',
          controlId: 'A.6.2.8',
          controlStatus: 'implemented',
          strength: 0.5,
        }),
      ]);
      // ISO 42001 controls always take their status from their record.
      expect(await orgApi(t, org('filters')).list('iso-42001', '?assessment=inferred')).toEqual([]);
      expect(await orgApi(t, org('filters')).list('iso-42001', '?assessment=none')).toEqual([]);
    });
  });

  describe('gaps close for every requirement', () => {
    const gapOf = async (frameworkId: string, id: string) =>
      (await orgApi(t, org('gaps')).gaps(frameworkId)).find((gap) => gap.controlId === id);

    it('asks to record a requirement no edge reaches, with the CLI command and the route', async () => {
      expect(neighbours({ frameworkId: 'eu-ai-act', requirementId: 'Art. 26(4)' })).toEqual([]);
      const gap = await gapOf('eu-ai-act', 'Art. 26(4)');
      expect(gap).toMatchObject({ assessment: 'none', status: 'uncovered' });
      expect(gap!.recommendation).toContain('comply');
      expect(gap!.recommendation).toContain('/requirements/');
      expect(gap!.recommendation).toContain(
        `comply --org ${org('gaps')} assess eu-ai-act 'Art. 26(4)' --status implemented`,
      );
      expect(gap!.recommendation).toContain(
        `PUT /api/v1/orgs/${org('gaps')}/frameworks/eu-ai-act/requirements/Art.%2026(4)/status`,
      );

      await orgApi(t, org('gaps')).status('eu-ai-act', 'Art. 26(4)', 'implemented');
      expect(await gapOf('eu-ai-act', 'Art. 26(4)')).toBeUndefined();
      // Recorded as not applicable, it is no gap either; withdrawn, it is one again.
      await orgApi(t, org('gaps')).withdraw('eu-ai-act', 'Art. 26(4)');
      expect(await gapOf('eu-ai-act', 'Art. 26(4)')).toMatchObject({
        assessment: 'none',
        status: 'uncovered',
      });
      await orgApi(t, org('gaps')).applicability('eu-ai-act', 'Art. 26(4)', false);
      expect(await gapOf('eu-ai-act', 'Art. 26(4)')).toBeUndefined();
    });

    it('closes gaps of an imported catalog', async () => {
      const before = await orgApi(t, org('gaps')).gaps(CATALOG_ID);
      expect(before.map((gap) => gap.controlId)).toEqual(['MI-1', 'MI-1(1)', 'MI-2']);
      for (const gap of before) {
        expect(gap).toMatchObject({ assessment: 'none', status: 'uncovered' });
        expect(gap.recommendation).toContain(
          `/frameworks/${CATALOG_ID}/requirements/${enc(gap.controlId)}/status`,
        );
        expect(gap.recommendation).toContain(`comply --org ${org('gaps')} assess ${CATALOG_ID}`);
      }
      await orgApi(t, org('gaps')).status(CATALOG_ID, 'MI-1(1)', 'implemented');
      await orgApi(t, org('gaps')).status(CATALOG_ID, 'MI-2', 'in_progress');
      const after = await orgApi(t, org('gaps')).gaps(CATALOG_ID);
      expect(after.map((gap) => [gap.controlId, gap.assessment, gap.status])).toEqual([
        ['MI-1', 'none', 'uncovered'],
        ['MI-2', 'direct', 'in_progress'],
      ]);
    });

    it('says where each gap’s status comes from', async () => {
      const a = orgApi(t, org('gaps'));
      await a.status('eu-ai-act', 'Art. 16', 'in_progress');
      await a.control('A.7.3', 'implemented');
      // Art. 10(1)-(4) is mapped to five ISO 42001 controls; one implemented gives it partial credit.
      expect(
        neighbours({ frameworkId: 'eu-ai-act', requirementId: 'Art. 10(1)-(4)' })
          .filter((n) => n.ref.frameworkId === 'iso-42001')
          .map((n) => n.ref.requirementId),
      ).toEqual(['A.7.2', 'A.7.3', 'A.7.4', 'A.7.5', 'A.7.6']);
      const gaps = await a.gaps('eu-ai-act');
      const byId = new Map(gaps.map((gap) => [gap.controlId, gap]));
      expect(byId.get('Art. 16')).toMatchObject({ assessment: 'direct', status: 'in_progress' });
      expect(byId.get('Art. 10(1)-(4)')).toMatchObject({ assessment: 'inferred', status: 'partial' });
      expect(byId.get('Art. 21')).toMatchObject({ assessment: 'none', status: 'uncovered' });
      for (const gap of gaps) expect(['direct', 'inferred', 'none']).toContain(gap.assessment);
      const requirements = new Map((await a.list('eu-ai-act')).map((entry) => [entry.requirementId, entry]));
      for (const gap of gaps) expect(gap.assessment).toBe(requirements.get(gap.controlId)!.assessment);
      // Every applicable requirement whose effective status is not implemented is a gap, and only those,
      // but for provisions that bind no organization (penalties, entry into force).
      const bindNoOne = bindingNoOne('eu-ai-act');
      expect([...bindNoOne]).toEqual(['Art. 99', 'Art. 101', 'Art. 111', 'Art. 113']);
      const open = [...requirements.values()]
        .filter(
          (entry) =>
            entry.applicable && entry.status !== 'implemented' && !bindNoOne.has(entry.requirementId),
        )
        .map((entry) => entry.requirementId);
      expect(gaps.map((gap) => gap.controlId).sort()).toEqual(open.sort());
      // The ISO control's own gap closed.
      expect((await a.gaps('iso-42001')).some((gap) => gap.controlId === 'A.7.3')).toBe(false);
    });
  });

  describe('snapshots', () => {
    it('hold the direct records of other frameworks, and the hash covers them', async () => {
      const a = orgApi(t, org('snap'));
      await a.control('A.6.2.8', 'implemented');
      await a.status('eu-ai-act', 'Art. 26(6)', 'implemented', {
        reviewer: 'vera',
        owner: 'ops',
        note: 'deployer logs kept',
      });
      await a.applicability('gdpr', 'Art. 9', false, 'We process no special categories', 'vera');
      const evidence = await a.call('POST', `${a.requirement('nist-ai-rmf', 'GOVERN 1.1')}/evidence`, {
        type: 'document',
        title: 'Legal register',
        fileUrl: 'https://files.example.com/legal-register.pdf',
      });
      expectStatus(evidence, 201);

      const res = await a.call('POST', `${a.base}/compliance/snapshot`, { label: 'Q3 audit' });
      const snapshot = expectStatus(res, 201).json();
      const { contentHash, ...content } = snapshot;
      expect(contentHash).toBe(
        createHash('sha256')
          .update(canonicalize(content) ?? '', 'utf8')
          .digest('hex'),
      );
      const frameworks = new Map(
        (snapshot.frameworks as { frameworkId: string; records: { requirementId: string }[] }[]).map((f) => [
          f.frameworkId,
          f.records,
        ]),
      );
      expect([...frameworks.keys()].sort()).toEqual(['eu-ai-act', 'gdpr', 'nist-ai-rmf']);
      expect(frameworks.get('eu-ai-act')).toEqual([
        {
          requirementId: 'Art. 26(6)',
          status: 'implemented',
          applicable: null,
          justification: null,
          reviewer: 'vera',
          owner: 'ops',
          note: 'deployer logs kept',
          updatedAt: expect.any(String),
          evidenceCount: 0,
          evidence: [],
        },
      ]);
      expect(frameworks.get('gdpr')).toEqual([
        expect.objectContaining({
          requirementId: 'Art. 9',
          status: null,
          applicable: false,
          justification: 'We process no special categories',
        }),
      ]);
      expect(frameworks.get('nist-ai-rmf')).toEqual([
        expect.objectContaining({
          requirementId: 'GOVERN 1.1',
          status: null,
          evidenceCount: 1,
          evidence: [
            expect.objectContaining({ evidenceId: evidence.json().evidenceId, title: 'Legal register' }),
          ],
        }),
      ]);
      // ISO 42001 stays in `controls`.
      expect(snapshot.controls).toHaveLength(38);
      expect(snapshot.controls.find((c: { controlId: string }) => c.controlId === 'A.6.2.8').status).toBe(
        'implemented',
      );
      expect(snapshot.counts).toEqual(counts(1, 0, 37));

      const url = res.headers.location as string;
      const stored = expectStatus(await a.call('GET', url), 200).json();
      expect(stored).toEqual(snapshot);
      expect(expectStatus(await a.call('GET', `${url}/verify`), 200).json()).toEqual({
        snapshotId: snapshot.snapshotId,
        contentHash,
        computedHash: contentHash,
        valid: true,
      });

      // Later changes leave the snapshot as it was.
      await a.withdraw('eu-ai-act', 'Art. 26(6)');
      expect(expectStatus(await a.call('GET', url), 200).json()).toEqual(snapshot);

      // Changing a record of another framework in the stored content breaks the hash.
      const tampered = (snapshot.frameworks as { frameworkId: string; records: { status: string }[] }[]).map(
        (f) =>
          f.frameworkId === 'eu-ai-act'
            ? { ...f, records: f.records.map((r) => ({ ...r, status: 'not_started' })) }
            : f,
      );
      const em = t.db.em();
      await em.execute('alter table compliance_snapshots disable trigger compliance_snapshots_immutable');
      try {
        await em.execute(
          `update compliance_snapshots set content = jsonb_set(content, '{frameworks}', ?::jsonb) where snapshot_id = ?`,
          [JSON.stringify(tampered), snapshot.snapshotId],
        );
      } finally {
        await em.execute('alter table compliance_snapshots enable trigger compliance_snapshots_immutable');
      }
      const verify = expectStatus(await a.call('GET', `${url}/verify`), 200).json();
      expect(verify).toMatchObject({ contentHash, valid: false });
      expect(verify.computedHash).not.toBe(contentHash);
    });
  });

  describe('errors', () => {
    const errorsOrg = () => orgApi(t, org('errors'));
    const frameworkNotFound = {
      error: { code: 'RESOURCE_NOT_FOUND', message: 'Framework not found', details: { frameworkId: 'sox' } },
    };

    it.each([
      ['GET', '/frameworks/sox/requirements', undefined],
      ['GET', '/frameworks/sox/requirements/A.1', undefined],
      ['PUT', '/frameworks/sox/requirements/A.1/status', { status: 'implemented', reviewer: 'x' }],
      [
        'PUT',
        '/frameworks/sox/requirements/A.1/applicability',
        { applicable: false, justification: 'n/a', reviewer: 'x' },
      ],
      ['DELETE', '/frameworks/sox/requirements/A.1/assessment', undefined],
      ['GET', '/frameworks/sox/requirements/A.1/evidence', undefined],
      ['POST', '/frameworks/sox/requirements/A.1/evidence', { type: 'attestation', title: 'x' }],
      ['GET', '/frameworks/sox/compliance', undefined],
      ['GET', '/frameworks/sox/compliance/history', undefined],
    ] as const)('answers %s %s with "Framework not found"', async (method, path, body) => {
      const a = errorsOrg();
      const res = await a.call(method, `${a.base}${path}`, body);
      expectStatus(res, 404);
      expect(res.json()).toEqual(frameworkNotFound);
    });

    it.each([
      ['GET', '', undefined],
      ['PUT', '/status', { status: 'implemented', reviewer: 'x' }],
      ['PUT', '/applicability', { applicable: false, justification: 'n/a', reviewer: 'x' }],
      ['DELETE', '/assessment', undefined],
      ['GET', '/evidence', undefined],
      ['POST', '/evidence', { type: 'attestation', title: 'x' }],
    ] as const)(
      'answers %s on an unknown requirement%s with "Requirement not found"',
      async (method, suffix, body) => {
        const a = errorsOrg();
        for (const [frameworkId, id] of [
          ['eu-ai-act', 'Art. 999'],
          ['nist-ai-rmf', 'GOVERN 9.9'],
          [CATALOG_ID, 'MI-9'],
        ]) {
          const res = await a.call(method, `${a.requirement(frameworkId, id)}${suffix}`, body);
          expectStatus(res, 404);
          expect(res.json()).toEqual({
            error: {
              code: 'RESOURCE_NOT_FOUND',
              message: 'Requirement not found',
              details: { frameworkId, requirementId: id },
            },
          });
        }
        // An id of another framework is not a requirement of this one.
        const res = await a.call(method, `${a.requirement('iso-27001-clauses', '8.4')}${suffix}`, body);
        expect(res.json().error).toMatchObject({
          message: 'Requirement not found',
          details: { frameworkId: 'iso-27001-clauses', requirementId: '8.4' },
        });
        // Nothing was written.
        expect(await a.list('eu-ai-act', '?assessment=direct')).toEqual([]);
      },
    );

    it('answers an unknown ISO 42001 control on the requirement routes with "Requirement not found"', async () => {
      const a = errorsOrg();
      const res = await a.call('GET', a.requirement('iso-42001', 'A.99'));
      expect(expectStatus(res, 404).json().error).toEqual({
        code: 'RESOURCE_NOT_FOUND',
        message: 'Requirement not found',
        details: { frameworkId: 'iso-42001', requirementId: 'A.99' },
      });
      const status = await a.call('PUT', `${a.requirement('iso-42001', 'A.99')}/status`, {
        status: 'implemented',
        reviewer: 'x',
      });
      expect(expectStatus(status, 404).json().error.message).toBe('Requirement not found');
    });

    // CONTRACT: "Unknown framework or requirement → 404". The withdrawal refuses ISO 42001 first
    // (requirements.service.ts withdrawAssessment), so an id that is no control gets 409 claiming it is one.
    it('answers a withdrawal on an unknown ISO 42001 control with 404, not 409', async () => {
      const a = errorsOrg();
      const res = await a.call('DELETE', `${a.requirement('iso-42001', 'A.99')}/assessment`);
      expect(res.statusCode).toBe(404);
    });

    it('refuses to withdraw an ISO 42001 control with 409, and keeps its record', async () => {
      const a = errorsOrg();
      await a.status('iso-42001', 'A.5.2', 'implemented');
      const res = await a.call('DELETE', `${a.requirement('iso-42001', 'A.5.2')}/assessment`);
      expectStatus(res, 409);
      expect(res.json().error).toMatchObject({
        code: 'CONFLICT',
        details: { frameworkId: 'iso-42001', requirementId: 'A.5.2' },
      });
      expect(await a.get('iso-42001', 'A.5.2')).toMatchObject({
        status: 'implemented',
        assessment: 'direct',
      });
    });

    it('answers an unknown organization with 404', async () => {
      const a = orgApi(t, org('nobody'));
      for (const [method, url] of [
        ['GET', `${a.base}/frameworks`],
        ['GET', a.requirement('eu-ai-act', 'Art. 12')],
        ['GET', `${a.base}/frameworks/eu-ai-act/compliance`],
      ] as const) {
        const res = await a.call(method, url);
        expectStatus(res, 404);
        expect(res.json().error).toMatchObject({ message: 'Organization not found' });
      }
    });

    it.each([
      ['status without a status', '/status', { reviewer: 'x' }, 'body.status'],
      ['an unknown status', '/status', { status: 'done', reviewer: 'x' }, 'body.status'],
      ['status without a reviewer', '/status', { status: 'implemented' }, 'body.reviewer'],
      ['an empty reviewer', '/status', { status: 'implemented', reviewer: '' }, 'body.reviewer'],
      ['an empty owner', '/status', { status: 'implemented', reviewer: 'x', owner: '' }, 'body.owner'],
      [
        'a NUL in the note',
        '/status',
        { status: 'implemented', reviewer: 'x', note: 'a\u0000b' },
        'body.note',
      ],
      [
        'an unknown member',
        '/status',
        { status: 'implemented', reviewer: 'x', colour: 'red' },
        'body.colour',
      ],
      [
        'applicability without a justification',
        '/applicability',
        { applicable: false, reviewer: 'x' },
        'body.justification',
      ],
      [
        'an empty justification',
        '/applicability',
        { applicable: false, justification: '', reviewer: 'x' },
        'body.justification',
      ],
      [
        'applicability without a reviewer',
        '/applicability',
        { applicable: false, justification: 'n/a' },
        'body.reviewer',
      ],
      [
        'a non-boolean applicable',
        '/applicability',
        { applicable: 'no', justification: 'n/a', reviewer: 'x' },
        'body.applicable',
      ],
    ])('refuses %s with 400 naming %s', async (_case, suffix, body, field) => {
      const a = errorsOrg();
      const res = await a.call('PUT', `${a.requirement('gdpr', 'Art. 32')}${suffix}`, body);
      expectStatus(res, 400);
      expect(res.json().error.code).toBe('BAD_REQUEST');
      expect(res.json().error.details.fields).toEqual(
        expect.arrayContaining([expect.objectContaining({ field })]),
      );
      expect((await a.get('gdpr', 'Art. 32')).assessment).toBe('none');
    });

    it.each([
      ['?assessment=guessed', 'querystring.assessment'],
      ['?status=done', 'querystring.status'],
      ['?applicable=maybe', 'querystring.applicable'],
    ])('refuses the list filter %s with 400 naming %s', async (query, field) => {
      const a = errorsOrg();
      const res = await a.call('GET', `${a.base}/frameworks/gdpr/requirements${query}`);
      expectStatus(res, 400);
      expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field })]);
    });

    it.each([
      ['interval=hourly', 'querystring.interval'],
      ['from=last-week', 'querystring.from'],
      ['from=2026-04-02&to=2026-04-01', 'querystring.from'],
    ])('refuses the history query %s with 400 naming %s', async (query, field) => {
      const a = errorsOrg();
      const res = await a.call('GET', `${a.base}/frameworks/gdpr/compliance/history?${query}`);
      expectStatus(res, 400);
      expect(res.json().error.details.fields).toEqual([expect.objectContaining({ field })]);
    });

    it('needs a key, a key of the org, and the write scope to write', async () => {
      const a = errorsOrg();
      const otherTenant = await t.createKey(org('other'), ['read', 'write']);
      const readOnly = await t.createKey(org('errors'), ['read']);
      const writer = await t.createKey(org('errors'), ['read', 'write']);
      const target = a.requirement('eu-ai-act', 'Art. 12');
      const writes = [
        ['PUT', `${target}/status`, { status: 'implemented', reviewer: 'x' }],
        ['PUT', `${target}/applicability`, { applicable: false, justification: 'n/a', reviewer: 'x' }],
        ['DELETE', `${target}/assessment`, undefined],
        ['POST', `${target}/evidence`, { type: 'attestation', title: 'x' }],
      ] as const;
      const reads = [
        ['GET', `${a.base}/frameworks`],
        ['GET', `${a.base}/frameworks/eu-ai-act/requirements`],
        ['GET', target],
        ['GET', `${target}/evidence`],
        ['GET', `${a.base}/frameworks/eu-ai-act/compliance`],
        ['GET', `${a.base}/frameworks/eu-ai-act/compliance/history`],
      ] as const;
      for (const [method, url, body] of [...writes, ...reads.map(([m, u]) => [m, u, undefined] as const)]) {
        const anonymous = await a.call(method, url, body, null);
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        expect(anonymous.json().error.code).toBe('UNAUTHORIZED');
        const foreign = await a.call(method, url, body, otherTenant);
        expect(foreign.statusCode, `${method} ${url}`).toBe(403);
        expect(foreign.json().error).toMatchObject({ code: 'FORBIDDEN', details: { orgId: org('errors') } });
      }
      for (const [method, url, body] of writes) {
        const res = await a.call(method, url, body, readOnly);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json().error).toMatchObject({ code: 'FORBIDDEN', details: { requiredScope: 'write' } });
      }
      for (const [method, url] of reads) {
        expect((await a.call(method, url, undefined, readOnly)).statusCode, `${method} ${url}`).toBe(200);
      }
      // Nothing was written by the refused requests; the org's own write key may write.
      expect((await a.get('eu-ai-act', 'Art. 12')).evidenceCount).toBe(0);
      expect(await a.list('eu-ai-act', '?assessment=direct')).toEqual([]);
      const ok = await a.call('PUT', `${target}/status`, { status: 'in_progress', reviewer: 'x' }, writer);
      expect(expectStatus(ok, 200).json()).toMatchObject({ status: 'in_progress', assessment: 'direct' });
    });

    it('answers unknown evidence with 404', async () => {
      const a = errorsOrg();
      const res = await a.call(
        'GET',
        `${a.requirement('eu-ai-act', 'Art. 12')}/evidence/00000000-0000-4000-8000-000000000000`,
      );
      expectStatus(res, 404);
      expect(res.json().error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', message: 'Evidence not found' });
    });
  });
});
