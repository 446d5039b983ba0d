import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { type CliResult, runComply } from '../support/daemon.js';
import { api, enc, startDaemonOn } from './check-support.js';

interface Entry {
  requirementId: string;
  status: string;
  applicable: boolean;
  justification: string | null;
  note: string | null;
  reviewer: string | null;
}

// One database kind is enough here: the API's behaviour on both is tested in test/requirements/import.test.ts.
const kind = dbKinds[0];

describe(`comply import statuses on ${kind}`, { timeout: 120_000 }, () => {
  let stop: () => Promise<void>;
  let call: ReturnType<typeof api>;
  let dir: string;
  let env: Record<string, string>;

  const file = (name: string, text: string) => {
    const where = path.join(dir, name);
    writeFileSync(where, text);
    return where;
  };
  const entry = (frameworkId: string, requirementId: string) =>
    call<Entry>('GET', `/orgs/acme/frameworks/${enc(frameworkId)}/requirements/${enc(requirementId)}`);
  const ok = (result: CliResult) => {
    expect(result.code, result.stderr).toBe(0);
    return result;
  };

  beforeAll(async () => {
    const started = await startDaemonOn(kind);
    stop = started.stop;
    call = api(started.daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    dir = mkdtempSync(path.join(tmpdir(), 'comply-import-'));
    env = {
      COMPLY_URL: started.daemon.url,
      COMPLY_API_KEY: ADMIN_KEY,
      COMPLY_ORG: 'acme',
      XDG_CONFIG_HOME: dir,
    };
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const GOOD = [
    'requirementId,status,applicable,justification,note',
    'A.2.2,implemented,,,"Policy approved by the board, 2026-01-12"',
    'A.6.2.8,in_progress,,,Event logging on in staging',
    'A.10.4,,false,"No customers use our AI systems directly",',
  ].join('\n');

  it('checks a file with --dry-run and writes nothing', async () => {
    const result = ok(
      await runComply(['import', 'statuses', file('good.csv', GOOD), '--dry-run', '--reviewer', 'Rita'], env),
    );
    expect(result.stdout).toContain('Dry run:');
    expect(result.stdout).toContain('would leave 3 changed, 0 created, 0 unchanged');
    expect(result.stdout).toMatch(/^3\s+A\.6\.2\.8\s+changed\s+status, note$/m);
    expect((await entry('iso-42001', 'A.2.2')).status).toBe('not_started');
  });

  it('imports the file: every row, with the reviewer named', async () => {
    const result = ok(
      await runComply(['import', 'statuses', file('good.csv', GOOD), '--reviewer', 'Rita'], env),
    );
    expect(result.stdout).toContain('good.csv into iso-42001: 3 changed, 0 created, 0 unchanged');
    expect(result.stdout).toMatch(/^LINE\s+REQUIREMENT\s+OUTCOME\s+CHANGES$/m);
    expect(await entry('iso-42001', 'A.2.2')).toMatchObject({
      status: 'implemented',
      note: 'Policy approved by the board, 2026-01-12',
      reviewer: 'Rita',
    });
    expect(await entry('iso-42001', 'A.10.4')).toMatchObject({
      applicable: false,
      justification: 'No customers use our AI systems directly',
    });
    // Again: every row is now unchanged, and --json prints the API's answer.
    const again = ok(
      await runComply(['import', 'statuses', file('good.csv', GOOD), '--reviewer', 'Rita', '--json'], env),
    );
    expect(JSON.parse(again.stdout)).toMatchObject({
      dryRun: false,
      counts: { created: 0, changed: 0, unchanged: 3 },
    });
  });

  it('refuses a file with a bad row: a table of every bad row, exit 1, nothing written', async () => {
    const bad = [
      'requirementId,status,applicable,justification',
      'A.2.3,implemented,,',
      'A.2.9,implemented,,',
      'A.5.2,done,,',
      'A.5.3,,false,',
    ].join('\n');
    const result = await runComply(['import', 'statuses', file('bad.csv', bad), '--reviewer', 'Rita'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^LINE\s+COLUMN\s+PROBLEM$/m);
    expect(result.stderr).toMatch(
      /^3\s+requirementId\s+.*has no requirement "A\.2\.9": did you mean A\.2\.2\?$/m,
    );
    expect(result.stderr).toMatch(
      /^4\s+status\s+"done" is not a status: use not_started, in_progress or implemented$/m,
    );
    expect(result.stderr).toMatch(/^5\s+justification\s+is needed to exclude A\.5\.3/m);
    expect(result.stderr).toContain('error: ');
    expect(result.stderr).toContain('3 rows were refused (above); nothing was imported');
    expect(result.stderr).not.toContain('{"');
    expect((await entry('iso-42001', 'A.2.3')).status).toBe('not_started');

    const json = await runComply(
      ['import', 'statuses', file('bad.csv', bad), '--reviewer', 'R', '--json'],
      env,
    );
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).error.details.rows).toHaveLength(3);
  });

  it('imports into another framework with --framework', async () => {
    const csv = 'id,status\n"Art. 26(6)",implemented\nArt. 9,in progress\n';
    const result = ok(
      await runComply(
        ['import', 'statuses', file('eu.csv', csv), '--framework', 'eu-ai-act', '--reviewer', 'Rita'],
        env,
      ),
    );
    expect(result.stdout).toContain('0 changed, 2 created, 0 unchanged');
    expect((await entry('eu-ai-act', 'Art. 9')).status).toBe('in_progress');
  });

  it('says so when the file cannot be read, or a key names no reviewer', async () => {
    const missing = await runComply(['import', 'statuses', path.join(dir, 'nowhere.csv')], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot read');
    const unnamed = await runComply(['import', 'statuses', file('good.csv', GOOD)], env);
    expect(unnamed.code).toBe(1);
    expect(unnamed.stderr).toContain('reviewer');
  });

  it('keeps comply import oscal', async () => {
    const help = ok(await runComply(['import', '--help'], env));
    expect(help.stdout).toMatch(/oscal \[options\] <file>/);
    expect(help.stdout).toMatch(/statuses \[options\] <file>/);
  });
});
