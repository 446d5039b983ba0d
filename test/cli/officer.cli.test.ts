import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIREMENT_STATUSES } from '../../src/shared/vocabulary.js';
import { ADMIN_KEY } from '../support/app.js';
import { type Daemon, runComply, startDaemon } from '../support/daemon.js';

/** A day `days` from now, as `YYYY-MM-DD` (UTC). */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

/** What no message for a person may show: JSON paths, the validator's words, regular expressions. */
const MACHINE_WORDS = /body\.|querystring\.|must match pattern|\\d|\^\[|\{"/;

// Each command is a process of its own, hence the longer timeout.
describe('the CLI in the words of an officer', { timeout: 120_000 }, () => {
  let daemon: Daemon;
  let env: Record<string, string>;
  const comply = (...args: string[]) => runComply(args, env);
  beforeAll(async () => {
    daemon = await startDaemon();
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme' };
    expect((await comply('orgs', 'create', 'acme', '--name', 'Acme')).code).toBe(0);
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  describe('errors', () => {
    it('a near-miss id gets the nearest ids of its framework', async () => {
      const control = await comply('controls', 'status', 'A.2.33', 'implemented', '--reviewer', 'dana');
      expect(control.code).toBe(1);
      expect(control.stderr).toBe('error: no such control A.2.33 — did you mean A.2.3?\n');

      const requirement = await comply(
        'assess',
        'eu-ai-act',
        'art 26(6)',
        '--status',
        'implemented',
        '--reviewer',
        'dana',
      );
      expect(requirement.code).toBe(1);
      expect(requirement.stderr).toContain(
        'no such requirement "art 26(6)" in eu-ai-act — did you mean "Art. 26(6)"?',
      );

      const framework = await comply('requirements', 'show', 'eu-ai-ac', 'Art. 9');
      expect(framework.stderr).toContain('no such framework eu-ai-ac — did you mean eu-ai-act?');

      // Nothing near: the plain fact, no guess.
      const far = await comply('controls', 'show', 'Z.99');
      expect(far).toMatchObject({ code: 1, stderr: 'error: no such control Z.99\n' });
    });

    it('a value the CLI knows the rule of is refused before any call, naming the option', async () => {
      const status = await comply('controls', 'status', 'A.2.2', 'done', '--reviewer', 'dana');
      expect(status.code).toBe(2);
      expect(status.stderr).toContain(
        `status must be one of: ${REQUIREMENT_STATUSES.join(', ')} (not "done")`,
      );

      const from = await comply('history', '--from', 'yesterday');
      expect(from.code).toBe(2);
      expect(from.stderr).toContain('--from: use a date like 2027-01-27');
      expect((await comply('history', '--from', '2027-02-30')).stderr).toContain('--from: use a date like');

      const expires = await comply(
        'evidence',
        'add',
        'A.2.2',
        '--type',
        'link',
        '--title',
        'Policy',
        '--file-url',
        'https://example.com/p',
        '--expires',
        '27-01-2027',
      );
      expect(expires.code).toBe(2);
      expect(expires.stderr).toContain('--expires: use a date like 2027-01-27');
      expect(expires.stderr).not.toMatch(MACHINE_WORDS);
      // Refused here: the daemon never saw it.
      expect(JSON.parse((await comply('evidence', 'list', 'A.2.2', '--json')).stdout).total).toBe(0);

      const type = await comply('evidence', 'add', 'A.2.2', '--type', 'video', '--title', 'x');
      expect(type.stderr).toContain('--type must be one of: attestation, document, link (not "video")');
    });

    it("the daemon's validation errors are said in words, naming the option", async () => {
      const missing = await comply('evidence', 'add', 'A.2.2', '--type', 'document', '--title', 'no file');
      expect(missing).toMatchObject({
        code: 1,
        stderr: 'error: --file-url is required for document evidence\n',
      });

      const limit = await comply('evidence', 'list', 'A.2.2', '--limit', '500');
      expect(limit).toMatchObject({ code: 1, stderr: 'error: --limit must be at most 200\n' });

      const id = await comply('orgs', 'create', 'not an id!', '--name', 'x');
      expect(id.code).toBe(1);
      expect(id.stderr).toContain("orgId: use letters, digits, '.', '_', ':' and '-'");
      for (const result of [missing, limit, id]) expect(result.stderr).not.toMatch(MACHINE_WORDS);
    });

    it('--json keeps the machine-readable error', async () => {
      const missing = await comply(
        'evidence',
        'add',
        'A.2.2',
        '--type',
        'document',
        '--title',
        'x',
        '--json',
      );
      expect(missing.code).toBe(1);
      expect(missing.stdout).toBe('');
      expect(JSON.parse(missing.stderr)).toEqual({
        error: {
          status: 400,
          code: 'BAD_REQUEST',
          message: 'body.fileUrl is required for document evidence',
          details: { fields: [{ field: 'body.fileUrl', message: 'is required for document evidence' }] },
        },
      });
      const control = await comply('controls', 'show', 'A.2.33', '--json');
      expect(JSON.parse(control.stderr)).toMatchObject({
        error: { status: 404, code: 'RESOURCE_NOT_FOUND', details: { controlId: 'A.2.33' } },
      });
    });
  });

  it('lists the evidence that expires soon, across frameworks', async () => {
    const add = (title: string, expires: string | undefined, ...where: string[]) =>
      comply(
        'evidence',
        'add',
        ...where,
        '--type',
        'link',
        '--title',
        title,
        '--file-url',
        'https://example.com/e',
        ...(expires ? ['--expires', expires] : []),
      );
    for (const added of [
      await add('Soon', inDays(10), 'A.2.2'),
      await add('Later', inDays(100), 'A.2.3'),
      await add('Rmf', inDays(20), '--framework', 'nist-ai-rmf', 'GOVERN 1.1'),
      await add('Old', '2021-01-01', 'A.2.4'),
      await add('Forever', undefined, 'A.2.4'),
    ]) {
      expect(added.code, added.stderr).toBe(0);
    }

    const soon = await comply('evidence', 'expiring');
    expect(soon.code, soon.stderr).toBe(0);
    expect(soon.stdout).toMatch(/^2 expiring /);
    expect(soon.stdout).toMatch(/^EXPIRES\s+FRAMEWORK\s+REQUIREMENT\s+TYPE\s+TITLE\s+ID/m);
    expect(soon.stdout).toMatch(new RegExp(`^${inDays(10)}\\s+iso-42001\\s+A\\.2\\.2\\s+link\\s+Soon`, 'm'));
    expect(soon.stdout).toMatch(
      new RegExp(`^${inDays(20)}\\s+nist-ai-rmf\\s+GOVERN 1\\.1\\s+link\\s+Rmf`, 'm'),
    );
    expect(soon.stdout).not.toMatch(/Later|Old|Forever/);

    const wider = JSON.parse((await comply('evidence', 'expiring', '--days', '120', '--json')).stdout);
    expect(wider.evidence.map((e: { title: string }) => e.title)).toEqual(['Soon', 'Rmf', 'Later']);
    expect(wider).toMatchObject({ orgId: 'acme', total: 3 });

    const past = await comply('evidence', 'expiring', '--from', '2020-01-01', '--to', inDays(15));
    expect(past.stdout).toMatch(/^2021-01-01 \(expired\)\s+iso-42001\s+A\.2\.4\s+link\s+Old/m);
    expect(past.stdout).toContain('Soon');
    expect(past.stdout).not.toContain('Rmf');

    expect((await comply('evidence', 'expiring', '--days', '1')).stdout).toMatch(/^no evidence expires /);
    const both = await comply('evidence', 'expiring', '--days', '5', '--to', inDays(9));
    expect(both.code).toBe(2);
    const zero = await comply('evidence', 'expiring', '--days', '0');
    expect(zero).toMatchObject({ code: 2 });
    expect(zero.stderr).toContain('--days must be a number of days, 1–3650 (not "0")');
  });

  it('shows a snapshot by its label: time, hash, score and every control', async () => {
    expect((await comply('controls', 'status', 'A.2.2', 'implemented', '--reviewer', 'dana')).code).toBe(0);
    const created = JSON.parse((await comply('snapshot', 'create', 'release 1.4', '--json')).stdout);
    const shown = await comply('snapshot', 'show', 'release 1.4');
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^snapshotId\\s+${created.snapshotId}$`, 'm'));
    expect(shown.stdout).toMatch(/^label\s+release 1\.4$/m);
    expect(shown.stdout).toMatch(new RegExp(`^created\\s+${created.createdAt}$`, 'm'));
    expect(shown.stdout).toMatch(new RegExp(`^sha256\\s+${created.contentHash}$`, 'm'));
    expect(shown.stdout).toMatch(new RegExp(`^score\\s+${created.score}%$`, 'm'));
    expect(shown.stdout).toMatch(/^intact\s+yes/m);
    expect(shown.stdout).toMatch(/^A\.2\.2\s+implemented\s+yes\s+\d+\s+AI policy/m);
    expect(shown.stdout).toMatch(/^A\.2\.3\s+not_started\s+yes/m);

    const json = JSON.parse((await comply('snapshot', 'show', 'release 1.4', '--json')).stdout);
    expect(json).toEqual(JSON.parse((await comply('snapshot', 'show', created.snapshotId, '--json')).stdout));
    expect(json).toMatchObject({ label: 'release 1.4', contentHash: created.contentHash });
    expect(json.controls.find((c: { controlId: string }) => c.controlId === 'A.2.2').status).toBe(
      'implemented',
    );

    const typo = await comply('snapshot', 'show', 'release 1.5');
    expect(typo).toMatchObject({ code: 1 });
    expect(typo.stderr).toContain(
      'no snapshot labelled "release 1.5" (nor with that id) in acme — did you mean "release 1.4"?',
    );
  });

  it('exports the OSCAL package of any framework', async () => {
    const file = path.join(tmpdir(), `comply-oscal-${process.pid}.json`);
    try {
      const written = await comply('export', 'oscal', '--framework', 'eu-ai-act', '-o', file);
      expect(written.code, written.stderr).toBe(0);
      const documents = JSON.parse(readFileSync(file, 'utf8'))['oscal-package'].documents;
      const frameworks = JSON.parse((await comply('frameworks', 'list', '--json')).stdout).frameworks;
      const euAiAct = frameworks.find((f: { id: string }) => f.id === 'eu-ai-act');
      expect(documents['catalog.json'].catalog.metadata.title).toContain(euAiAct.name);
      expect(JSON.stringify(documents['catalog.json'])).toContain('Art. 26(6)');
      expect(JSON.stringify(documents['catalog.json'])).not.toContain('A.6.2.8');
    } finally {
      rmSync(file, { force: true });
    }
    const unknown = await comply('export', 'oscal', '--framework', 'eu-ai-ac');
    expect(unknown).toMatchObject({
      code: 1,
      stderr: 'error: no such framework eu-ai-ac — did you mean eu-ai-act?\n',
    });
  });

  it.each([
    [['evidence', 'expiring'], '$ comply evidence expiring'],
    [['snapshot', 'show'], '$ comply snapshot show "release 1.4"'],
    [['export', 'oscal'], '$ comply export oscal --framework eu-ai-act'],
  ])('comply %j --help says what it does, with an example', async (command, example) => {
    const help = await comply(...command, '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Example:');
    expect(help.stdout).toContain(example);
  });
});
