import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/app.js';
import { type Daemon, runComply, startDaemon } from '../support/daemon.js';

// Each command is a process of its own (about 2 s), hence the longer timeout.
describe('comply evidence, score, history, snapshot, systems and worker commands', {
  timeout: 90_000,
}, () => {
  let daemon: Daemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startDaemon();
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme' };
    expect((await runComply(['orgs', 'create', 'acme', '--name', 'Acme'], env)).code).toBe(0);
    expect(
      (await runComply(['controls', 'status', 'A.2.2', 'implemented', '--reviewer', 'al'], env)).code,
    ).toBe(0);
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it('adds and lists evidence, flagging what has expired', async () => {
    const added = await runComply(
      [
        'evidence',
        'add',
        'A.2.2',
        '--type',
        'link',
        '--title',
        'Policy',
        '--file-url',
        'https://example.com/p',
      ],
      env,
    );
    expect(added.code).toBe(0);
    expect(added.stdout).toMatch(/url\s+https:\/\/example\.com\/p/);
    const old = ['--effective', '2020-01-01', '--expires', '2021-01-01'];
    expect(
      (await runComply(['evidence', 'add', 'A.2.2', '--type', 'attestation', '--title', 'Old', ...old], env))
        .code,
    ).toBe(0);
    const list = await runComply(['evidence', 'list', 'A.2.2'], env);
    expect(list.stdout).toContain('1–2 of 2');
    expect(list.stdout).toMatch(/2021-01-01 \(expired\)\s+Old/);
    const json = JSON.parse(
      (await runComply(['evidence', 'list', 'A.2.2', '--type', 'link', '--json'], env)).stdout,
    );
    expect(json).toMatchObject({ total: 1, evidence: [{ title: 'Policy', expired: false }] });
    const refused = await runComply(
      ['evidence', 'add', 'A.2.2', '--type', 'document', '--title', 'no file'],
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('--file-url is required for document evidence');
    const usage = await runComply(['evidence', 'add', 'A.2.2', '--type', 'video', '--title', 'x'], env);
    expect(usage.code).toBe(2);
  });

  it('shows the score with its trend, and the history', async () => {
    const score = await runComply(['score'], env);
    expect(score.code).toBe(0);
    // 1 of 38 implemented
    expect(score.stdout).toMatch(/score\s+2\.6%\s+\(1 implemented/);
    expect(score.stdout).toMatch(/trend\s+.*▁ 2\.6%\s+\(30 days\)/);
    expect(score.stdout).toMatch(/^A\.2\s+33\.3%\s+3\b/m);
    expect(JSON.parse((await runComply(['score', '--json'], env)).stdout)).toMatchObject({
      orgId: 'acme',
      score: 2.6,
    });
    const history = await runComply(
      ['history', '--interval', 'monthly', '--from', '2026-01-01', '--json'],
      env,
    );
    const body = JSON.parse(history.stdout);
    expect(body.interval).toBe('monthly');
    expect(body.points.at(-1).score).toBe(2.6);
    const table = await runComply(['history', '--interval', 'weekly'], env);
    expect(table.stdout).toMatch(/^PERIOD\s+SCORE\s+DONE/m);
    expect((await runComply(['history', '--from', 'tomorrow'], env)).code).toBe(2);
  });

  it('creates, lists, shows and verifies snapshots', async () => {
    const created = JSON.parse(
      (await runComply(['snapshot', 'create', 'Q4 audit', '--notes', 'pre-audit', '--json'], env)).stdout,
    );
    expect(created).toMatchObject({ label: 'Q4 audit', score: 2.6 });
    expect((await runComply(['snapshot', 'create', 'Q4 audit'], env)).code).toBe(1);
    const list = await runComply(['snapshot', 'list'], env);
    expect(list.stdout).toMatch(new RegExp(`${created.snapshotId}.*Q4 audit`));
    const shown = await runComply(['snapshot', 'show', created.snapshotId], env);
    expect(shown.stdout).toMatch(/intact\s+yes/);
    expect(shown.stdout).toMatch(/^A\.2\.2\s+implemented\s+yes\s+2\b/m);
    const verified = await runComply(['snapshot', 'verify', created.snapshotId], env);
    expect(verified).toMatchObject({ code: 0, stdout: `intact  ${created.contentHash}\n` });
  });

  it('manages the AI system inventory', async () => {
    const added = JSON.parse(
      (
        await runComply(
          [
            'systems',
            'add',
            'Support bot',
            '--owner',
            'cx',
            '--purpose',
            'support',
            '--risk',
            'limited',
            '--json',
          ],
          env,
        )
      ).stdout,
    );
    expect(added).toMatchObject({ name: 'Support bot', riskLevel: 'limited', lifecycleStage: 'design' });
    const updated = await runComply(['systems', 'update', added.systemId, '--stage', 'deployed'], env);
    expect(updated.stdout).toMatch(/stage\s+deployed/);
    expect((await runComply(['systems', 'update', added.systemId], env)).code).toBe(2);
    const list = await runComply(['systems', 'list', '--risk', 'limited'], env);
    expect(list.stdout).toMatch(/limited\s+deployed\s+cx\s+Support bot/);
    expect((await runComply(['systems', 'remove', added.systemId], env)).stdout).toContain('removed');
    const gone = await runComply(['systems', 'remove', added.systemId], env);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('AI system not found (404 RESOURCE_NOT_FOUND)');
  });

  it('refuses to start a worker on the embedded database', async () => {
    const worker = await runComply(['worker'], { REDIS_URL: 'redis://127.0.0.1:6379', DATABASE_URL: '' });
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain('comply worker needs PostgreSQL (DATABASE_URL)');
  });
});
