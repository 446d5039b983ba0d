import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { type CliResult, COMPLY_BIN, type Daemon, runComply, runComplyWithInput } from '../support/daemon.js';
import { api, enc, startDaemonOn } from './check-support.js';

const PASSWORD = 'correct horse battery staple';

/**
 * The CLI at a terminal: `script` gives it a pseudo-terminal (not CI), so it renders with ink as a person
 * sees it; the escape sequences are stripped from what it printed.
 */
function runComplyOnTerminal(args: string[], env: Record<string, string>): Promise<CliResult> {
  const command = [COMPLY_BIN, ...args].map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
  const { CI: _ci, ...rest } = process.env;
  const child = spawn('script', ['-qec', command, '/dev/null'], {
    env: { ...rest, COLUMNS: '160', LINES: '50', TERM: 'xterm-256color', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve) =>
    child.on('close', (code) =>
      resolve({
        code: code ?? 1,
        // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences
        stdout: output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, ''),
        stderr: '',
      }),
    ),
  );
}

interface Risk {
  riskId: string;
  title: string;
  state: string;
  systemIds: string[];
  residual: { score: number; level: string };
  treatment: { option: string; requirements: unknown[]; dueDate?: string; plan?: string } | null;
  acceptance: { state: string; acceptedBy: { name: string }; expiresAt: string } | null;
}

// Each command is a process of its own (about 1 s), hence the longer timeout.
describe.each(dbKinds)('comply risks on %s', { timeout: 180_000 }, (kind) => {
  let daemon: Daemon;
  let stop: () => Promise<void>;
  let call: ReturnType<typeof api>;
  let configHome: string;
  let keyEnv: Record<string, string>;
  let sessionEnv: Record<string, string>;
  let systemId: string;
  let biased: Risk;

  const risks = (args: string[], env = keyEnv) => runComply(['risks', ...args], env);
  const json = <T = Risk>(result: CliResult): T => {
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    ({ daemon, stop } = await startDaemonOn(kind));
    call = api(daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    systemId = (
      await call<{ systemId: string }>('POST', '/orgs/acme/ai-systems', {
        name: 'CV screener',
        owner: 'HR',
        purpose: 'Ranks applicants',
        riskLevel: 'high',
      })
    ).systemId;
    await call('POST', '/orgs/acme/ai-systems', {
      name: 'Chat helper',
      owner: 'Support',
      purpose: 'Answers customers',
      riskLevel: 'limited',
    });
    const invited = await call<{ invitation: { token: string } }>('POST', '/orgs/acme/members', {
      email: 'ada@example.com',
      name: 'Ada Approver',
      role: 'approver',
    });
    const accepted = await fetch(`${daemon.url}/api/v1/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: daemon.url },
      body: JSON.stringify({ token: invited.invitation.token, password: PASSWORD }),
    });
    expect(accepted.status, await accepted.text()).toBe(200);
    configHome = mkdtempSync(path.join(tmpdir(), 'comply-config-'));
    keyEnv = {
      COMPLY_URL: daemon.url,
      COMPLY_API_KEY: ADMIN_KEY,
      COMPLY_ORG: 'acme',
      XDG_CONFIG_HOME: configHome,
    };
    sessionEnv = { ...keyEnv, COMPLY_API_KEY: '' };
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  it('lists the SoA checks and fails a pipeline on the severity asked', async () => {
    // The high-risk CV screener has no approved impact assessment: a high check.
    const listed = json<{ checks: { kind: string; severity: string }[] }>(
      await runComply(['soa', 'checks', '--json'], keyEnv),
    );
    expect(listed.checks).toContainEqual(
      expect.objectContaining({ kind: 'system_without_impact_assessment', severity: 'high' }),
    );
    const gated = await runComply(['soa', 'checks', '--fail-on', 'high'], keyEnv);
    expect(gated.code).toBe(1);
    expect(gated.stdout).toContain('system_without_impact_assessment');
    expect((await runComply(['soa', 'checks', '--fail-on', 'nope'], keyEnv)).code).toBe(2);
  });

  it('shows the criteria and changes the acceptable level', async () => {
    const shown = await risks(['criteria']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/acceptable\s+medium \(residual risk above it needs an acceptance\)/);
    expect(shown.stdout).toMatch(/criteria\s+the defaults/);
    expect(shown.stdout).toMatch(/^LEVEL\s+SCORES\s+NEEDS ACCEPTANCE$/m);
    expect(shown.stdout).toMatch(/^medium\s+5–9\s+no$/m);
    expect(shown.stdout).toMatch(/^high\s+10–16\s+yes$/m);

    const raised = json<{ acceptableLevel: string; custom: boolean }>(
      await risks(['criteria', '--acceptable', 'high', '--json']),
    );
    expect(raised).toMatchObject({ acceptableLevel: 'high', custom: true });
    expect((await risks(['criteria'])).stdout).toMatch(/^high\s+10–16\s+no$/m);
    expect(
      json<{ acceptableLevel: string }>(await risks(['criteria', '--acceptable', 'medium', '--json'])),
    ).toMatchObject({ acceptableLevel: 'medium' });

    const bad = await risks(['criteria', '--acceptable', 'huge']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--acceptable must be one of: low, medium, high, critical (not "huge")');
  });

  it('adds risks with systems by name, a treatment of requirements of any framework and a residual rating', async () => {
    biased = json(
      await risks([
        'add',
        '--title',
        'Biased ranking of applicants',
        '--likelihood',
        '4',
        '--impact',
        '5',
        '--system',
        'cv screener',
        '--treat',
        'iso-42001:A.7.4',
        '--treat',
        'eu-ai-act:Art. 10(1)-(4)',
        '--plan',
        'Rebalance the training data',
        '--due',
        '2020-06-30',
        '--residual-likelihood',
        '3',
        '--residual-impact',
        '4',
        '--owner',
        'HR lead',
        '--json',
      ]),
    );
    expect(biased).toMatchObject({
      title: 'Biased ranking of applicants',
      systemIds: [systemId],
      inherent: { score: 20, level: 'critical' },
      residual: { score: 12, level: 'high' },
      treatment: {
        option: 'mitigate',
        requirements: [
          { frameworkId: 'iso-42001', requirementId: 'A.7.4' },
          { frameworkId: 'eu-ai-act', requirementId: 'Art. 10(1)-(4)' },
        ],
        plan: 'Rebalance the training data',
        dueDate: '2020-06-30T23:59:59.999Z',
      },
      treatmentOverdue: true,
      state: 'treating',
      acceptance: null,
    });

    const text = await risks([
      'add',
      '--title',
      'Vendor model outage',
      '--likelihood',
      '2',
      '--impact',
      '3',
      '--option',
      'accept',
      '--system',
      'Chat helper',
    ]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^risk\s+risk_\S+\s+Vendor model outage$/m);
    expect(text.stdout).toMatch(/^inherent\s+medium \(6\)\s+likelihood 2 × impact 3$/m);
    expect(text.stdout).toMatch(/^state\s+needs_acceptance$/m);
    expect(text.stdout).toMatch(/^treatment\s+accept$/m);
    expect(text.stdout).not.toMatch(/^description/m);

    const low = json(
      await risks(['add', '--title', 'Typos in answers', '--likelihood', '1', '--impact', '2', '--json']),
    );
    expect(low).toMatchObject({ state: 'open', treatment: null, residual: { level: 'low' } });

    // Bad usage never reaches the daemon (exit 2); what the daemon refuses is exit 1 with its message.
    const rating = await risks(['add', '--title', 'x', '--likelihood', '6', '--impact', '1']);
    expect(rating.code).toBe(2);
    expect(rating.stderr).toContain('expected a rating from 1 to 5');
    const ref = await risks([
      'add',
      '--title',
      'x',
      '--likelihood',
      '1',
      '--impact',
      '1',
      '--treat',
      'A.7.4',
    ]);
    expect(ref.code).toBe(2);
    expect(ref.stderr).toContain('expected <frameworkId>:<requirementId>');
    const missing = await risks(['add', '--likelihood', '1', '--impact', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--title <text>' not specified");
    const unknown = await risks([
      'add',
      '--title',
      'x',
      '--likelihood',
      '1',
      '--impact',
      '1',
      '--treat',
      'iso-42001:A.99',
      '--system',
      'Nope',
    ]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'Unknown AI system "Nope", requirement iso-42001 A.99 (400 BAD_REQUEST)',
    );

    const help = await risks(['add', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--treat <framework:requirement>');
    expect(help.stdout).toContain('Examples:');
  });

  it('lists the register as a table, filtered by state, level, system (id or name) and requirement', async () => {
    const all = await risks(['list']);
    expect(all.code, all.stderr).toBe(0);
    const lines = all.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^RISK ID\s+STATE\s+RESIDUAL\s+INHERENT\s+TREATMENT\s+ACCEPTANCE\s+OWNER\s+TITLE$/,
    );
    expect(lines).toHaveLength(4);
    expect(all.stdout).toMatch(
      new RegExp(
        `^${biased.riskId}\\s+treating\\s+high \\(12\\)\\s+critical \\(20\\)\\s+mitigate 0/2, overdue\\s+-\\s+HR lead\\s+Biased ranking of applicants$`,
        'm',
      ),
    );
    // Piped, no heat map: the table alone.
    expect(all.stdout).not.toContain('Residual risk');

    const titles = async (args: string[]) =>
      json<{ risks: Risk[]; total: number }>(await risks(['list', ...args, '--json'])).risks.map(
        (r) => r.title,
      );
    expect(await titles(['--state', 'needs_acceptance'])).toEqual(['Vendor model outage']);
    expect(await titles(['--level', 'high'])).toEqual(['Biased ranking of applicants']);
    expect(await titles(['--system', 'Chat Helper'])).toEqual(['Vendor model outage']);
    expect(await titles(['--system', systemId])).toEqual(['Biased ranking of applicants']);
    expect(await titles(['--requirement', 'eu-ai-act:Art. 10(1)-(4)'])).toEqual([
      'Biased ranking of applicants',
    ]);
    expect(await titles(['--requirement', 'gdpr:Art. 5'])).toEqual([]);

    const page = json<{ risks: Risk[]; total: number; limit: number; offset: number }>(
      await risks(['list', '--limit', '1', '--offset', '1', '--json']),
    );
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(page.risks.map((r) => r.title)).toEqual(['Vendor model outage']);
    const partial = await risks(['list', '--limit', '1']);
    expect(partial.stderr).toContain('Showing 1 of 3 risks from 0: pass --offset 1 for more.');

    const noSystem = await risks(['list', '--system', 'Nothing']);
    expect(noSystem.code).toBe(1);
    expect(noSystem.stderr).toContain('acme has no AI system Nothing');
    const badState = await risks(['list', '--state', 'done']);
    expect(badState.code).toBe(2);
    expect(badState.stderr).toContain(
      '--state must be one of: open, treating, treated, accepted, needs_acceptance (not "done")',
    );
    const badRequirement = await risks(['list', '--requirement', 'A.7.4']);
    expect(badRequirement.code).toBe(2);
  });

  it('draws the residual heat map from the summary on a terminal', async () => {
    const shown = await runComplyOnTerminal(['risks', 'list'], keyEnv);
    expect(shown.code, shown.stdout).toBe(0);
    const out = shown.stdout;
    expect(out).toContain('Residual risk (likelihood × impact)');
    // Rows likelihood 5 → 1, columns impact 1 → 5; one risk at 3 × 4, one at 2 × 3, one at 1 × 2.
    const row = (likelihood: number) =>
      out
        .split('\n')
        .find((line) => new RegExp(`^[L ] ${likelihood} `).test(line))
        ?.slice(4)
        .match(/.{4}/g)
        ?.map((cell) => cell.trim());
    expect(row(5)).toEqual(['·', '·', '·', '·', '·']);
    expect(row(3)).toEqual(['·', '·', '·', '1', '·']);
    expect(row(2)).toEqual(['·', '·', '1', '·', '·']);
    expect(row(1)).toEqual(['·', '1', '·', '·', '·']);
    expect(out).toMatch(/ {4}\s+1\s+2\s+3\s+4\s+5\s+impact/);
    expect(out).toContain('■ low ■ medium ■ high ■ critical');
    expect(out).toContain(
      '3 risk(s) by residual level: 1 low, 1 medium, 1 high, 0 critical; 1 overdue treatment(s); acceptances: 0 valid, 0 stale, 0 expired',
    );
    const plain = await runComply(['risks', 'list', '--json'], keyEnv);
    expect(plain.stdout).not.toContain('Residual risk');
  });

  it('shows a risk with its treatment requirements live and what keeps it from being treated', async () => {
    await call('PUT', `/orgs/acme/frameworks/iso-42001/requirements/${enc('A.7.4')}/status`, {
      status: 'implemented',
      reviewer: 'al',
    });
    const shown = await risks(['show', biased.riskId]);
    expect(shown.code, shown.stderr).toBe(0);
    const out = shown.stdout;
    expect(out).toMatch(/^residual\s+high \(12\)\s+likelihood 3 × impact 4$/m);
    expect(out).toMatch(
      /^treatment\s+mitigate, 1 of 2 requirements implemented; due 2020-06-30 \(overdue\)$/m,
    );
    expect(out).toMatch(/^plan\s+Rebalance the training data$/m);
    expect(out).toMatch(/^acceptance\s+-$/m);
    expect(out).toContain('To be treated:');
    // The crosswalk carries A.7.4 over to Art. 10(1)-(4) in part.
    expect(out).toContain('  - eu-ai-act Art. 10(1)-(4) is in_progress: implement it');
    expect(out).toContain('  - The treatment was due 2020-06-30 and is overdue.');
    expect(out).toContain('  - The residual level high (12) is above the acceptable level (medium)');
    expect(out).not.toContain('iso-42001 A.7.4 is');
    expect(out).toMatch(/^FRAMEWORK\s+REQUIREMENT\s+STATUS$/m);
    expect(out).toMatch(/^iso-42001\s+A\.7\.4\s+implemented$/m);
    expect(out).toMatch(/^eu-ai-act\s+Art\. 10\(1\)-\(4\)\s+in_progress$/m);

    const asJson = json(await risks(['show', biased.riskId, '--json']));
    expect(asJson).toMatchObject({
      riskId: biased.riskId,
      treatmentProgress: { implemented: 1, total: 2 },
    });
    const none = await risks(['show', 'risk_nope']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('404');
  });

  it('accepts a risk as a signed-in person; a key gets the person_required refusal', async () => {
    const withKey = await risks([
      'accept',
      biased.riskId,
      '--justification',
      'Monitored weekly',
      '--expires',
      '2099-12-31',
    ]);
    expect(withKey.code).toBe(1);
    expect(withKey.stderr).toContain(
      'error: Only a signed-in person can do this; API keys cannot approve (403 FORBIDDEN) {"reason":"person_required"}',
    );
    expect(withKey.stderr).toContain('sign in with `comply login`');

    const noDate = await risks(['accept', biased.riskId, '--justification', 'x']);
    expect(noDate.code).toBe(2);
    const badDate = await risks(['accept', biased.riskId, '--justification', 'x', '--expires', 'soon']);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--expires: use a date like 2027-01-27');

    const login = await runComplyWithInput(
      ['login', '--email', 'ada@example.com', '--password-stdin'],
      sessionEnv,
      `${PASSWORD}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    const past = await risks(
      ['accept', biased.riskId, '--justification', 'x', '--expires', '2020-01-01'],
      sessionEnv,
    );
    expect(past.code).toBe(1);
    expect(past.stderr).toContain('--expires must be in the future');

    const accepted = await risks(
      ['accept', biased.riskId, '--justification', 'Monitored weekly', '--expires', '2099-12-31'],
      sessionEnv,
    );
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/^accepted by\s+Ada Approver <ada@example.com>$/m);
    expect(accepted.stdout).toMatch(/^until\s+2099-12-31T23:59:59.999Z$/m);
    expect(accepted.stdout).toMatch(/^state\s+valid$/m);

    const shown = await risks(['show', biased.riskId]);
    expect(shown.stdout).toMatch(/^state\s+accepted$/m);
    expect(shown.stdout).toMatch(/^acceptance\s+valid until 2099-12-31 \(Ada Approver\)$/m);
    expect(shown.stdout).toMatch(/^accepted by\s+Ada Approver <ada@example.com> on \S+$/m);
    expect(shown.stdout).toMatch(/^accepted until\s+2099-12-31T23:59:59.999Z$/m);
    expect(shown.stdout).toMatch(/^justification\s+Monitored weekly$/m);
    expect(shown.stdout).toContain('To be treated (it is accepted meanwhile):');
    expect((await risks(['list', '--state', 'accepted'])).stdout).toContain(
      'valid until 2099-12-31 (Ada Approver)',
    );

    // A change to its assessed fields makes the acceptance stale: the list says so.
    const typos = json<{ risks: Risk[] }>(await risks(['list', '--level', 'low', '--json'])).risks[0];
    expect(typos.systemIds).toEqual([]);
    const again = await risks(
      ['accept', typos.riskId, '--justification', 'Cosmetic', '--expires', '2099-12-31'],
      sessionEnv,
    );
    expect(again.code, again.stderr).toBe(0);
    await call('PUT', `/orgs/acme/risks/${typos.riskId}`, { likelihood: 2 });
    expect((await risks(['list'])).stdout).toMatch(
      new RegExp(`^${typos.riskId}\\s+open\\s.*stale: the risk changed since Ada Approver accepted it`, 'm'),
    );
  });

  it('exits 3 when the daemon is unreachable', async () => {
    const down = await risks(['list'], { ...keyEnv, COMPLY_URL: 'http://127.0.0.1:9' });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('Cannot reach comply at http://127.0.0.1:9');
  });
});
