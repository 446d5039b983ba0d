import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/app.js';
import { type Daemon, runComply, startDaemon } from '../support/daemon.js';

// One daemon for the file; each command is a process of its own (about 1 s), hence the longer timeout.
// The org implements ISO/IEC 42001 A.6.2.8 (event logs), which the crosswalk carries to EU AI Act
// Art. 12, Art. 19 and Art. 26(6): those start out `inferred` as in progress (one control that intersects
// each covers it only in part).
describe('comply requirements, assess, frameworks status and --framework on evidence, score and history', {
  timeout: 90_000,
}, () => {
  let daemon: Daemon;
  let env: Record<string, string>;
  const comply = (...args: string[]) => runComply(args, env);
  const json = async (...args: string[]) => {
    const result = await comply(...args, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout);
  };
  const ids = (list: { requirements: { requirementId: string }[] }) =>
    list.requirements.map((r) => r.requirementId);

  beforeAll(async () => {
    daemon = await startDaemon();
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme' };
    expect((await comply('orgs', 'create', 'acme', '--name', 'Acme')).code).toBe(0);
    expect((await comply('controls', 'status', 'A.6.2.8', 'implemented', '--reviewer', 'al')).code).toBe(0);
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it('records a direct status on ids with spaces and parentheses, beside what the crosswalk infers', async () => {
    const assessed = await comply(
      'assess',
      'eu-ai-act',
      'Art. 26(6)',
      '--status',
      'not_started',
      '--reviewer',
      'alice',
      '--owner',
      'ops',
      '--note',
      'six-month retention',
    );
    expect(assessed.code).toBe(0);
    expect(assessed.stdout).toMatch(/^requirement\s+eu-ai-act Art\. 26\(6\)\s+Obligations of deployers/m);
    expect(assessed.stdout).toMatch(/^status\s+not_started$/m);
    expect(assessed.stdout).toMatch(/^assessment\s+direct$/m);
    expect(assessed.stdout).toMatch(/^inferred\s+in_progress \(partial\), differs from the direct record$/m);
    expect(assessed.stdout).toMatch(/^owner\s+ops$/m);
    expect(assessed.stdout).toMatch(
      /^ {2}iso-42001 A\.6\.2\.8 \(implemented, joint\): A\.6\.2\.8 intersects with Art\. 26\(6\)$/m,
    );

    expect(
      await json('assess', 'nist-ai-rmf', 'GOVERN 1.1', '--status', 'implemented', '--reviewer', 'alice'),
    ).toMatchObject({
      orgId: 'acme',
      frameworkId: 'nist-ai-rmf',
      requirementId: 'GOVERN 1.1',
      status: 'implemented',
      assessment: 'direct',
      reviewer: 'alice',
    });
    const shown = await comply('requirements', 'show', 'nist-ai-rmf', 'GOVERN 1.1');
    expect(shown.stdout).toMatch(/^requirement\s+nist-ai-rmf GOVERN 1\.1\s/m);
    expect(shown.stdout).toMatch(/^reviewer\s+alice$/m);
  });

  it('lists requirements by where their status comes from', async () => {
    const [direct, inferred, table] = await Promise.all([
      json('requirements', 'list', 'eu-ai-act', '--assessment', 'direct'),
      json('requirements', 'list', 'eu-ai-act', '--assessment', 'inferred'),
      comply('requirements', 'list', 'eu-ai-act'),
    ]);
    expect(ids(direct)).toEqual(['Art. 26(6)']);
    expect(direct.requirements[0]).toMatchObject({
      status: 'not_started',
      inferred: { status: 'in_progress' },
    });
    expect(ids(inferred)).toEqual(expect.arrayContaining(['Art. 12', 'Art. 19']));
    expect(ids(inferred)).not.toContain('Art. 26(6)');
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain('\u001b['); // plain text when piped
    expect(table.stdout.split('\n')[0]).toMatch(
      /^REQUIREMENT\s+TITLE\s+STATUS\s+ASSESSMENT\s+INFERRED\s+APPLICABLE\s+EVIDENCE$/,
    );
    // The inferred status shows only where a direct record says something else.
    expect(table.stdout).toMatch(
      /^Art\. 26\(6\)\s+Obligations of .+\s+not_started\s+direct\s+in_progress\s+yes\s+0$/m,
    );
    expect(table.stdout).toMatch(/^Art\. 12\s+Record-keeping\s+in_progress\s+inferred\s+-\s+yes\s+0$/m);
  });

  it('marks a requirement not applicable, and applicable again, with a justification', async () => {
    const excluded = await comply(
      'assess',
      'gdpr',
      'Art. 22',
      '--not-applicable',
      '--justification',
      'no automated decisions',
      '--reviewer',
      'bob',
    );
    expect(excluded.code).toBe(0);
    expect(excluded.stdout).toMatch(/^applicable\s+false$/m);
    expect(excluded.stdout).toMatch(/^justification\s+no automated decisions$/m);
    expect(ids(await json('requirements', 'list', 'gdpr', '--applicable', 'false'))).toEqual(['Art. 22']);

    expect(
      await json(
        'assess',
        'gdpr',
        'Art. 22',
        '--applicable',
        '--justification',
        'credit scoring launched',
        '--reviewer',
        'bob',
      ),
    ).toMatchObject({ applicable: true, justification: 'credit scoring launched', reviewer: 'bob' });
    expect(ids(await json('requirements', 'list', 'gdpr', '--applicable', 'false'))).toEqual([]);
  });

  it('withdraws a direct record, except on ISO/IEC 42001 controls', async () => {
    // Back to what the crosswalk infers; owner and note stay.
    expect(await json('assess', 'eu-ai-act', 'Art. 26(6)', '--withdraw')).toMatchObject({
      requirementId: 'Art. 26(6)',
      status: 'in_progress',
      assessment: 'inferred',
      reviewer: null,
      owner: 'ops',
    });
    const refused = await comply('assess', 'iso-42001', 'A.6.2.8', '--withdraw');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('ISO/IEC 42001 controls always keep their record');
    expect(refused.stderr).toContain('(409 CONFLICT)');
    const unknown = await comply('assess', 'eu-ai-act', 'Art. 999', '--withdraw');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no such requirement "Art. 999" in eu-ai-act');
  });

  it('adds and lists evidence of any requirement with --framework, and of controls without it', async () => {
    const [added, missing] = await Promise.all([
      comply(
        'evidence',
        'add',
        '--framework',
        'nist-ai-rmf',
        'GOVERN 1.1',
        '--type',
        'link',
        '--title',
        'Policy register',
        '--file-url',
        'https://example.com/register',
      ),
      comply('evidence', 'add', '--framework', 'gdpr', 'Art. 999', '--type', 'attestation', '--title', 'x'),
    ]);
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/^framework\s+nist-ai-rmf$/m);
    expect(added.stdout).toMatch(/^requirement\s+GOVERN 1\.1$/m);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no such requirement "Art. 999" in gdpr');

    const [control, direct] = await Promise.all([
      json('evidence', 'list', 'A.6.2.8'),
      json('requirements', 'list', 'nist-ai-rmf', '--assessment', 'direct'),
    ]);
    // Without --framework: the ISO/IEC 42001 control routes, as before.
    expect(control).toMatchObject({ controlId: 'A.6.2.8', total: 0 });
    expect(control).not.toHaveProperty('frameworkId');
    expect(direct.requirements).toMatchObject([{ requirementId: 'GOVERN 1.1', evidenceCount: 1 }]);

    const [page, list] = await Promise.all([
      json('evidence', 'list', '--framework', 'nist-ai-rmf', 'GOVERN 1.1', '--type', 'link'),
      comply('evidence', 'list', '--framework', 'nist-ai-rmf', 'GOVERN 1.1'),
    ]);
    expect(page).toMatchObject({
      frameworkId: 'nist-ai-rmf',
      requirementId: 'GOVERN 1.1',
      total: 1,
      evidence: [{ title: 'Policy register', fileUrl: 'https://example.com/register', expired: false }],
    });
    expect(list.stdout).toContain('1–1 of 1');
    expect(list.stdout).toMatch(/^\S+\s+link\s+\S+\s+never\s+Policy register$/m);
  });

  it('scores a framework with how much rests on direct records, its history and every framework', async () => {
    expect(
      (await comply('assess', 'eu-ai-act', 'Art. 9', '--status', 'implemented', '--reviewer', 'cy')).code,
    ).toBe(0);
    // 1 direct (Art. 9) implemented + 3 inferred (Art. 12, 19, 26(6)) in progress of 60: 4.2%; direct only
    // 1 of 60: 1.7%.
    const expected = {
      frameworkId: 'eu-ai-act',
      score: 4.2,
      directScore: 1.7,
      counts: { implemented: 1, inProgress: 3, notStarted: 56, notApplicable: 0 },
      assessed: { direct: 1, inferred: 3, none: 56 },
    };
    const [scoreJson, score, iso, history, status, table, cte] = await Promise.all([
      json('score', '--framework', 'eu-ai-act'),
      comply('score', '--framework', 'eu-ai-act'),
      comply('score'),
      json('history', '--framework', 'eu-ai-act', '--interval', 'weekly'),
      json('frameworks', 'status'),
      comply('frameworks', 'status'),
      comply('frameworks', 'list'),
    ]);
    expect(scoreJson).toMatchObject({ orgId: 'acme', ...expected });
    expect(score.stdout).toMatch(/^score\s+4\.2%\s+\(1 implemented, 3 in progress, 56 not started/m);
    expect(score.stdout).toMatch(/^direct score\s+1\.7%/m);
    expect(score.stdout).toMatch(/^assessed\s+1 direct, 3 inferred, 56 none/m);
    expect(score.stdout).toMatch(/^trend\s+.*4\.2%\s+\(30 days\)$/m);
    // Without --framework: the ISO/IEC 42001 score, as before (A.6.2.8 of 38 controls).
    expect(iso.stdout).toMatch(/^score\s+2\.6%\s+\(1 implemented/m);

    expect(history).toMatchObject({ orgId: 'acme', interval: 'weekly' });
    expect(history.points.at(-1)).toMatchObject({ score: 4.2, counts: expected.counts });

    expect(
      status.frameworks.find((f: { frameworkId: string }) => f.frameworkId === 'eu-ai-act'),
    ).toMatchObject({
      ...expected,
      controlCount: 60,
    });
    expect(table.stdout.split('\n')[0]).toMatch(
      /^FRAMEWORK\s+REQUIREMENTS\s+SCORE\s+DIRECT SCORE\s+DIRECT\s+INFERRED\s+NONE\s+N\/A\s+COVERAGE\s+NAME$/,
    );
    expect(table.stdout).toMatch(/^eu-ai-act\s+60\s+4\.2%\s+1\.7%\s+1\s+3\s+56\s+0\s+4\.2%\s+EU Artificial/m);
    // The CTE's own frameworks commands are unchanged.
    expect(cte.stdout.split('\n')[0]).toMatch(/^ID\s+CONTROLS\s+DOMAINS\s+NAME$/);
  });

  it('refuses bad option combinations with exit 2, and unknown frameworks with exit 1', async () => {
    const cases: [string[], string][] = [
      [[], 'Pass exactly one of --status, --not-applicable, --applicable or --withdraw'],
      [['--status', 'implemented', '--withdraw'], '(got --status and --withdraw)'],
      [['--applicable', '--not-applicable', '--reviewer', 'x'], '(got --not-applicable and --applicable)'],
      [['--status', 'implemented'], '--status needs --reviewer'],
      [['--not-applicable', '--reviewer', 'x'], '--not-applicable needs --justification'],
      [['--withdraw', '--reviewer', 'x'], '--reviewer cannot be used with --withdraw'],
      [
        ['--status', 'implemented', '--reviewer', 'x', '--justification', 'y'],
        '--justification cannot be used',
      ],
      [['--applicable', '--justification', 'y', '--reviewer', 'x', '--owner', 'o'], '--owner cannot be used'],
      [
        ['--status', 'done', '--reviewer', 'x'],
        '--status must be one of: not_started, in_progress, implemented (not "done")',
      ],
    ];
    const results = await Promise.all(
      cases.map(([args]) => comply('assess', 'eu-ai-act', 'Art. 12', ...args)),
    );
    results.forEach((result, index) => {
      expect(result.code, cases[index][0].join(' ')).toBe(2);
      expect(result.stderr).toContain(cases[index][1]);
    });
    const [assessment, noOrg, unknown] = await Promise.all([
      comply('requirements', 'list', 'eu-ai-act', '--assessment', 'maybe'),
      runComply(['frameworks', 'status'], { ...env, COMPLY_ORG: '' }),
      comply('requirements', 'list', 'nope'),
    ]);
    expect(assessment.code).toBe(2);
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain('No organization given');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no such framework nope');
  });
});
