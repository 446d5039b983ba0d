/**
 * Bulk entry (`POST /orgs/{orgId}/frameworks/{frameworkId}/requirements/import`): CSV or JSON rows, every
 * row checked before anything is written, all written in one transaction or none, unchanged rows left
 * alone, each change in the change log and the audit trail, on every framework and both databases.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';
import { enc, expectStatus, orgApi } from './helpers.js';

const ORIGIN = 'http://localhost:80';

interface RowError {
  row: number;
  column: string | null;
  message: string;
}

interface Change {
  requirementId: string;
  field: string;
  fromValue: string | null;
  toValue: string | null;
  actor: string;
  keyId: string | null;
  note: string | null;
}

describe.each(dbKinds)('bulk entry of requirement records on %s', (kind) => {
  let t: TestApp;
  const org = (name: string) => `${kind}-import-${name}`;
  const url = (orgId: string, frameworkId = 'iso-42001', query = '') =>
    `/api/v1/orgs/${enc(orgId)}/frameworks/${enc(frameworkId)}/requirements/import${query}`;

  const postCsv = (
    orgId: string,
    csv: string | Buffer,
    options: { frameworkId?: string; query?: string; key?: string; headers?: Record<string, string> } = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: url(orgId, options.frameworkId, options.query ?? '?reviewer=Rita%20Officer'),
      headers: {
        'content-type': 'text/csv',
        authorization: `Bearer ${options.key ?? 'test-platform-key-0123456789abcdef'}`,
        ...options.headers,
      },
      payload: csv,
    });
  const postJson = (orgId: string, body: unknown, options: { frameworkId?: string; key?: string } = {}) =>
    t.request({ method: 'POST', url: url(orgId, options.frameworkId), body, key: options.key });

  /** The refused rows of a 400, after checking it is the import's refusal. */
  const refused = (res: Awaited<ReturnType<typeof postCsv>>): RowError[] => {
    expectStatus(res, 400);
    const { error } = res.json();
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.details.reason).toBe('invalid_rows');
    return error.details.rows;
  };

  const changes = (orgId: string, frameworkId = 'iso-42001') =>
    t.db.em().execute<Change[]>(
      `select requirement_id as "requirementId", field, from_value as "fromValue", to_value as "toValue", actor,
         key_id as "keyId", note
       from requirement_changes where org_id = ? and framework_id = ? order by id`,
      [orgId, frameworkId],
    );
  const recordCount = async (orgId: string) =>
    (
      await t.db
        .em()
        .execute<{ n: number }[]>('select count(*)::int as n from requirement_records where org_id = ?', [
          orgId,
        ])
    )[0].n;

  beforeAll(async () => {
    t = await createTestApp(kind);
    for (const name of ['csv', 'refuse', 'dry', 'same', 'eu', 'json', 'atomic', 'auth', 'person', 'big']) {
      await t.createOrg(org(name));
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  it('imports a spreadsheet’s CSV: a byte order mark, CRLF, any header case, quoted commas and line breaks', async () => {
    const csv =
      '\uFEFFRequirement ID,STATUS,Applicable,justification,Note,owner,Title\r\n' +
      'A.2.2,Implemented,,,"Approved by the board, 12 January",Olivia,AI policy\r\n' +
      '\r\n' +
      'A.6.2.8,in progress,yes,,"Logging on in staging,\r\nnot yet in production",,\r\n' +
      'A.10.4,,false,"No customers use our AI systems directly, only staff",,,\r\n' +
      ',,,,,,\r\n';
    const res = expectStatus(await postCsv(org('csv'), csv), 200);
    expect(res.json()).toEqual({
      orgId: org('csv'),
      frameworkId: 'iso-42001',
      dryRun: false,
      counts: { created: 0, changed: 3, unchanged: 0 },
      rows: [
        { row: 2, requirementId: 'A.2.2', outcome: 'changed', fields: ['status', 'note', 'owner'] },
        // Line 3 is empty; the note of line 4 runs on to line 5.
        { row: 4, requirementId: 'A.6.2.8', outcome: 'changed', fields: ['status', 'note'] },
        { row: 6, requirementId: 'A.10.4', outcome: 'changed', fields: ['applicable', 'justification'] },
      ],
    });
    const a = orgApi(t, org('csv'));
    expect(await a.get('iso-42001', 'A.2.2')).toMatchObject({
      status: 'implemented',
      note: 'Approved by the board, 12 January',
      owner: 'Olivia',
      reviewer: 'Rita Officer',
      assessment: 'direct',
    });
    expect(await a.get('iso-42001', 'A.6.2.8')).toMatchObject({
      status: 'in_progress',
      note: 'Logging on in staging,\r\nnot yet in production',
      applicable: true,
    });
    expect(await a.get('iso-42001', 'A.10.4')).toMatchObject({
      applicable: false,
      justification: 'No customers use our AI systems directly, only staff',
      status: 'not_started',
    });
    // The controls path reads the same records.
    const controls = expectStatus(await a.call('GET', `${a.base}/controls`), 200).json().controls;
    expect(controls.find((c: { controlId: string }) => c.controlId === 'A.2.2').status).toBe('implemented');
  });

  it('logs each status and applicability that changes, with its note or justification, and audits each record', async () => {
    const log = await changes(org('csv'));
    expect(log).toEqual([
      {
        requirementId: 'A.2.2',
        field: 'status',
        fromValue: 'not_started',
        toValue: 'implemented',
        actor: 'Rita Officer',
        keyId: 'bootstrap',
        note: 'Approved by the board, 12 January',
      },
      {
        requirementId: 'A.6.2.8',
        field: 'status',
        fromValue: 'not_started',
        toValue: 'in_progress',
        actor: 'Rita Officer',
        keyId: 'bootstrap',
        note: 'Logging on in staging,\r\nnot yet in production',
      },
      {
        requirementId: 'A.10.4',
        field: 'applicable',
        fromValue: 'true',
        toValue: 'false',
        actor: 'Rita Officer',
        keyId: 'bootstrap',
        note: 'No customers use our AI systems directly, only staff',
      },
    ]);
    const trail = expectStatus(
      await t.request({
        method: 'GET',
        url: `/api/v1/orgs/${enc(org('csv'))}/audit-log?action=requirement.updated&limit=500`,
      }),
      200,
    ).json().events as { action: string; resource: { id: string }; changes: Record<string, unknown> }[];
    const ids = trail.map((event) => event.resource.id).sort();
    expect(ids).toEqual(['iso-42001/A.10.4', 'iso-42001/A.2.2', 'iso-42001/A.6.2.8']);
    const policy = trail.find((event) => event.resource.id === 'iso-42001/A.2.2');
    expect(policy).toMatchObject({
      action: 'requirement.updated',
      changes: { status: { from: 'not_started', to: 'implemented' }, owner: { from: null, to: 'Olivia' } },
    });
    // Both the change log and the trail go into history: the score moved.
    const score = await orgApi(t, org('csv')).compliance('iso-42001');
    expect(score.counts.implemented).toBe(1);
    expect(score.counts.inProgress).toBe(1);
    expect(score.counts.notApplicable).toBe(1);
  });

  it('leaves rows equal to the record unchanged: nothing written, nothing logged', async () => {
    const orgId = org('same');
    const csv = 'requirementId,status,note\nA.2.2,implemented,policy approved\nA.2.3,in_progress,\n';
    expect(expectStatus(await postCsv(orgId, csv), 200).json().counts).toEqual({
      created: 0,
      changed: 2,
      unchanged: 0,
    });
    const before = await changes(orgId);
    const a = orgApi(t, orgId);
    const stamp = (await a.get('iso-42001', 'A.2.2')).updatedAt;
    const again = expectStatus(await postCsv(orgId, csv), 200).json();
    expect(again.counts).toEqual({ created: 0, changed: 0, unchanged: 2 });
    expect(again.rows.map((row: { outcome: string }) => row.outcome)).toEqual(['unchanged', 'unchanged']);
    expect(await changes(orgId)).toEqual(before);
    expect((await a.get('iso-42001', 'A.2.2')).updatedAt).toBe(stamp);
    // Only what differs is written: the same status with a new note logs no status change.
    const renoted = expectStatus(
      await postCsv(orgId, 'requirementId,status,note\nA.2.2,implemented,policy approved again\n'),
      200,
    ).json();
    expect(renoted.rows).toEqual([{ row: 2, requirementId: 'A.2.2', outcome: 'changed', fields: ['note'] }]);
    expect(await changes(orgId)).toEqual(before);
    expect((await a.get('iso-42001', 'A.2.2')).note).toBe('policy approved again');
  });

  it('refuses the whole file for one bad row: nothing written', async () => {
    const orgId = org('refuse');
    const csv = [
      'requirementId,status',
      'A.2.2,implemented',
      'A.2.3,implemented',
      'A.2.4,implemented',
      'A.5.2,done',
      'A.5.3,implemented',
    ].join('\n');
    expect(refused(await postCsv(orgId, csv))).toEqual([
      {
        row: 5,
        column: 'status',
        message: '"done" is not a status: use not_started, in_progress or implemented',
      },
    ]);
    const list = await orgApi(t, orgId).list('iso-42001', '?status=implemented');
    expect(list).toEqual([]);
    expect(await changes(orgId)).toEqual([]);
  });

  it('lists every bad row, each with its line, column and a message in the user’s words', async () => {
    const orgId = org('refuse');
    const csv = [
      'requirementId,status,applicable,justification,note', // 1
      'A.2.2,implemented,,,', // 2: fine
      'A.2.9,implemented,,,', // 3: no such control
      'a.6.2.8,implemented,,,', // 4: wrong case
      'A.2.3,finished,,,', // 5: unknown status
      'A.2.4,,false,,', // 6: exclusion without a justification
      'A.2.2,in_progress,,,', // 7: A.2.2 again
      'A.3.2,,,because,', // 8: justification without applicable
      'A.3.3,,perhaps,why not,', // 9: not a boolean
      ',implemented,,,', // 10: no id
      'A.4.2,implemented,,,,extra', // 11: one cell too many
    ].join('\r\n');
    const errors = refused(await postCsv(orgId, csv));
    expect(errors).toEqual([
      {
        row: 3,
        column: 'requirementId',
        message: 'ISO/IEC 42001:2023 has no requirement "A.2.9": did you mean A.2.2?',
      },
      {
        row: 4,
        column: 'requirementId',
        message: 'ISO/IEC 42001:2023 has no requirement "a.6.2.8": did you mean A.6.2.8?',
      },
      {
        row: 5,
        column: 'status',
        message: '"finished" is not a status: use not_started, in_progress or implemented',
      },
      { row: 6, column: 'justification', message: 'is needed to exclude A.2.4: say why it does not apply' },
      {
        row: 7,
        column: 'requirementId',
        message: 'A.2.2 is also on line 2: give each requirement one row',
      },
      {
        row: 8,
        column: 'justification',
        message: 'goes with applicable: say whether the requirement applies (true or false)',
      },
      { row: 9, column: 'applicable', message: '"perhaps" is not true or false (yes and no will do too)' },
      { row: 10, column: 'requirementId', message: 'is empty: name the requirement the row is about' },
      {
        row: 11,
        column: null,
        message: 'the row has 6 cells but the header names 5 columns (an unquoted comma in a cell?)',
      },
    ]);
    expect(await changes(orgId)).toEqual([]);
  });

  it.each([
    ['an empty file', '', [{ row: 1, column: null, message: expect.stringMatching(/^the file is empty/) }]],
    [
      'a byte order mark alone',
      '\uFEFF',
      [{ row: 1, column: null, message: expect.stringMatching(/empty/) }],
    ],
    [
      'a header without rows',
      'requirementId,status\r\n',
      [{ row: 1, column: null, message: 'there are no rows to import: add one row per requirement' }],
    ],
    [
      'an unknown column',
      'requirementId,stauts\nA.2.2,implemented\n',
      [
        {
          row: 1,
          column: 'stauts',
          message: expect.stringMatching(/^"stauts" is not a column comply imports/),
        },
      ],
    ],
    [
      'no requirement column',
      'status\nimplemented\n',
      [{ row: 1, column: null, message: expect.stringMatching(/no requirementId column/) }],
    ],
    [
      'a quote never closed',
      'requirementId,note\nA.2.2,fine\nA.2.3,"never closed\nA.2.4,x\n',
      [{ row: 3, column: null, message: expect.stringMatching(/never closed/) }],
    ],
    [
      'a NUL in a cell',
      'requirementId,note\nA.2.2,a\u0000b\n',
      [{ row: 2, column: 'note', message: expect.stringMatching(/cannot store/) }],
    ],
  ])('refuses %s with the line at fault', async (_case, csv, expected) => {
    const orgId = org('refuse');
    expect(refused(await postCsv(orgId, csv))).toEqual(expected);
    expect(await changes(orgId)).toEqual([]);
  });

  it('refuses a file that is not UTF-8 with 400', async () => {
    const res = await postCsv(org('refuse'), Buffer.from([0x69, 0x64, 0x0a, 0xff, 0xfe, 0x0a]));
    expectStatus(res, 400);
    expect(res.json().error.details.reason).toBe('invalid_utf8');
  });

  it('refuses more than 5,000 rows, naming the first one over, and writes nothing', async () => {
    const orgId = org('big');
    const rows = Array.from({ length: 5001 }, (_, index) => `A.2.2-${index},implemented`);
    const errors = refused(await postCsv(orgId, `requirementId,status\n${rows.join('\n')}\n`));
    expect(errors).toEqual([
      {
        row: 5002,
        column: null,
        message: expect.stringMatching(/^5001 rows are more than one import takes/),
      },
    ]);
    expect(await changes(orgId)).toEqual([]);
  });

  it('answers a dry run as the import would, and writes nothing', async () => {
    const orgId = org('dry');
    const csv = 'requirementId,status,owner\nA.2.2,implemented,Olivia\nA.2.3,not_started,\n';
    const dry = expectStatus(await postCsv(orgId, csv, { query: '?dryRun=true&reviewer=rita' }), 200).json();
    expect(dry).toMatchObject({
      dryRun: true,
      counts: { created: 0, changed: 1, unchanged: 1 },
      rows: [
        { row: 2, requirementId: 'A.2.2', outcome: 'changed', fields: ['status', 'owner'] },
        { row: 3, requirementId: 'A.2.3', outcome: 'unchanged', fields: [] },
      ],
    });
    expect(await changes(orgId)).toEqual([]);
    expect(await orgApi(t, orgId).get('iso-42001', 'A.2.2')).toMatchObject({
      status: 'not_started',
      owner: null,
    });
    // The same through JSON, and a dry run still refuses a bad file.
    const json = expectStatus(
      await postJson(orgId, {
        dryRun: true,
        reviewer: 'rita',
        rows: [{ requirementId: 'A.2.2', owner: 'O' }],
      }),
      200,
    ).json();
    expect(json).toMatchObject({ dryRun: true, counts: { changed: 1 } });
    refused(await postCsv(orgId, 'requirementId,status\nA.2.2,done\n', { query: '?dryRun=true&reviewer=r' }));
    expect(await changes(orgId)).toEqual([]);
    const real = expectStatus(await postCsv(orgId, csv), 200).json();
    expect({ ...real, dryRun: true }).toEqual(dry);
  });

  it('works for other frameworks: creates their records, ids with spaces and parentheses included', async () => {
    const orgId = org('eu');
    const before = await recordCount(orgId);
    const csv = [
      'requirementId,status,applicable,justification',
      'Art. 9,in_progress,,',
      '"Art. 26(6)",implemented,,',
      '"Art. 5(1)",,false,We run no prohibited practice',
    ].join('\n');
    const res = expectStatus(await postCsv(orgId, csv, { frameworkId: 'eu-ai-act' }), 200).json();
    expect(res.counts).toEqual({ created: 3, changed: 0, unchanged: 0 });
    expect(await recordCount(orgId)).toBe(before + 3);
    const a = orgApi(t, orgId);
    expect(await a.get('eu-ai-act', 'Art. 26(6)')).toMatchObject({
      status: 'implemented',
      assessment: 'direct',
    });
    expect(await a.get('eu-ai-act', 'Art. 5(1)')).toMatchObject({ applicable: false });
    expect((await changes(orgId, 'eu-ai-act')).map((c) => [c.requirementId, c.field, c.toValue])).toEqual([
      ['Art. 9', 'status', 'in_progress'],
      ['Art. 26(6)', 'status', 'implemented'],
      ['Art. 5(1)', 'applicable', 'false'],
    ]);
    // A near miss in another notation finds its id.
    const errors = refused(
      await postCsv(orgId, 'requirementId,status\nGOVERN 1.1,implemented\nGOVERN 11.1,implemented\n', {
        frameworkId: 'nist-ai-rmf',
      }),
    );
    expect(errors).toEqual([
      {
        row: 3,
        column: 'requirementId',
        message: expect.stringMatching(/has no requirement "GOVERN 11\.1": did you mean GOVERN 1\.1\?$/),
      },
    ]);
    // Bringing an excluded requirement back needs a justification too, as on the single route.
    const back = refused(
      await postCsv(orgId, 'requirementId,applicable\n"Art. 5(1)",true\n', { frameworkId: 'eu-ai-act' }),
    );
    expect(back).toEqual([
      {
        row: 2,
        column: 'justification',
        message: expect.stringMatching(/bring the excluded Art\. 5\(1\) back/),
      },
    ]);
  });

  it('takes JSON rows, numbered by their position, in the same checks', async () => {
    const orgId = org('json');
    const ok = expectStatus(
      await postJson(orgId, {
        reviewer: 'rita',
        rows: [
          { requirementId: 'A.2.2', status: 'implemented', note: 'done' },
          { requirementId: 'A.2.3', applicable: false, justification: 'not ours' },
        ],
      }),
      200,
    ).json();
    expect(ok.rows).toEqual([
      { row: 1, requirementId: 'A.2.2', outcome: 'changed', fields: ['status', 'note'] },
      { row: 2, requirementId: 'A.2.3', outcome: 'changed', fields: ['applicable', 'justification'] },
    ]);
    const bad = refused(
      await postJson(orgId, {
        reviewer: 'rita',
        rows: [
          { requirementId: 'A.2.4', status: 'implemented' },
          { requirementId: 'A.3.2', applicable: false },
          { requirementId: 'A.2.4', status: 'In Progress' },
        ],
      }),
    );
    expect(bad).toEqual([
      { row: 2, column: 'justification', message: 'is needed to exclude A.3.2: say why it does not apply' },
      { row: 3, column: 'requirementId', message: 'A.2.4 is also on row 1: give each requirement one row' },
    ]);
    expect(refused(await postJson(orgId, { reviewer: 'rita', rows: [] }))).toHaveLength(1);
    // A JSON type error is the schema's 400, naming the field.
    const typed = expectStatus(
      await postJson(orgId, { reviewer: 'rita', rows: [{ requirementId: 'A.2.4', applicable: 'maybe' }] }),
      400,
    );
    expect(typed.json().error.details.fields[0].field).toBe('body.rows.0.applicable');
    expect((await orgApi(t, orgId).get('iso-42001', 'A.2.4')).status).toBe('not_started');
  });

  it('writes all rows in one transaction: a failure on a later row undoes the earlier ones', async () => {
    const orgId = org('atomic');
    // A real database refusal part-way through (no validation can see it): the third row's change fails.
    await t.db.em().execute(
      `create function import_test_refuse() returns trigger language plpgsql as $$
       begin raise exception 'refused for the test'; end $$`,
    );
    await t.db.em().execute(
      `create trigger import_test_refuse before insert on requirement_changes for each row
       when (new.org_id = '${orgId}' and new.requirement_id = 'A.2.4') execute function import_test_refuse()`,
    );
    try {
      const csv = 'requirementId,status\nA.2.2,implemented\nA.2.3,implemented\nA.2.4,implemented\n';
      const res = await postCsv(orgId, csv);
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.em().execute('drop trigger import_test_refuse on requirement_changes');
      await t.db.em().execute('drop function import_test_refuse()');
    }
    expect(await changes(orgId)).toEqual([]);
    const a = orgApi(t, orgId);
    for (const id of ['A.2.2', 'A.2.3', 'A.2.4'])
      expect((await a.get('iso-42001', id)).status).toBe('not_started');
    const trail = expectStatus(
      await t.request({
        method: 'GET',
        url: `/api/v1/orgs/${enc(orgId)}/audit-log?action=requirement.updated`,
      }),
      200,
    ).json();
    expect(trail.events).toEqual([]);
  });

  it('asks write permission of a key, the org of its path, and a reviewer; knows no unknown org or framework', async () => {
    const orgId = org('auth');
    const csv = 'requirementId,status\nA.2.2,implemented\n';
    const reader = await t.createKey(orgId, ['read']);
    const readRes = expectStatus(await postCsv(orgId, csv, { key: reader }), 403);
    expect(readRes.json().error.details).toEqual({ requiredScope: 'write' });
    const elsewhere = await t.createKey(org('json'), ['read', 'write']);
    expectStatus(await postCsv(orgId, csv, { key: elsewhere }), 403);
    expectStatus(await postCsv(`${orgId}-nobody`, csv), 404);
    const framework = expectStatus(
      await postCsv(orgId, csv, { frameworkId: 'no-such-framework' }),
      404,
    ).json();
    expect(framework.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', message: 'Framework not found' });
    const writer = await t.createKey(orgId, ['read', 'write']);
    const unnamed = expectStatus(await postCsv(orgId, csv, { key: writer, query: '' }), 400).json();
    expect(unnamed.error.details.fields[0].field).toBe('reviewer');
    expect(await changes(orgId)).toEqual([]);
    expectStatus(await postCsv(orgId, csv, { key: writer, query: '?reviewer=Kim' }), 200);
    expect((await changes(orgId)).map((c) => [c.actor, c.keyId === null])).toEqual([['Kim', false]]);
  });

  it('names a signed-in person as the reviewer, whatever the file says', async () => {
    const orgId = org('person');
    await addMember(t, orgId, { email: `ed-${kind}@example.com`, name: 'Ed Editor', role: 'editor' });
    const cookie = await signIn(t, `ed-${kind}@example.com`, 'correct horse battery');
    const res = await t.app.inject({
      method: 'POST',
      url: url(orgId, 'iso-42001', '?reviewer=Somebody%20Else'),
      headers: { 'content-type': 'text/csv; charset=utf-8', cookie, origin: ORIGIN },
      payload: 'requirementId,status\nA.2.2,in_progress\n',
    });
    expectStatus(res, 200);
    expect((await orgApi(t, orgId).get('iso-42001', 'A.2.2')).reviewer).toBe('Ed Editor');
    expect((await changes(orgId))[0].actor).toBe('Ed Editor');
  });
});
