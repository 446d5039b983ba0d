import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from '../cli/check-support.js';
import { ADMIN_KEY } from '../support/app.js';
import { type CliResult, COMPLY_BIN, type Daemon, runComply, startDaemon } from '../support/daemon.js';
import { ofType, Receiver } from './receiver.js';

const PASSWORD = 'correct horse battery staple';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

function runWithInput(args: string[], env: Record<string, string>, input: string): Promise<CliResult> {
  const child = spawn(COMPLY_BIN, args, { env: { ...process.env, CI: 'true', ...env }, stdio: 'pipe' });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdin.end(input);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

const json = <T = Record<string, unknown>>(result: CliResult): T => {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
};

describe('comply webhooks, comply due and the MCP tools', { timeout: 120_000 }, () => {
  let daemon: Daemon;
  let receiver: Receiver;
  let call: ReturnType<typeof api>;
  let configHome: string;
  let keyEnv: Record<string, string>;
  let client: Client;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    daemon = await startDaemon({ COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true' });
    call = api(daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    configHome = mkdtempSync(path.join(tmpdir(), 'comply-config-'));
    keyEnv = {
      COMPLY_URL: daemon.url,
      COMPLY_API_KEY: ADMIN_KEY,
      COMPLY_ORG: 'acme',
      XDG_CONFIG_HOME: configHome,
    };
    await call('POST', '/orgs/acme/controls/A.2.2/evidence', {
      type: 'link',
      title: 'Old policy',
      fileUrl: 'https://example.com/old',
      expiresAt: at(-2),
    });
    const audit = await call<{ auditId: string }>('POST', '/orgs/acme/audits', {
      title: 'IA 2026',
      frameworkIds: ['iso-42001'],
      leadAuditor: 'Ines',
      plannedStart: at(-10),
      plannedEnd: at(5),
    });
    await call('PUT', `/orgs/acme/audits/${audit.auditId}`, { state: 'in_progress' });
    await call('POST', `/orgs/acme/audits/${audit.auditId}/findings`, {
      kind: 'major_nonconformity',
      requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.8' }],
      description: 'Event logs are not kept',
      owner: 'dana@example.com',
      dueDate: at(4),
    });
    const transport = new StdioClientTransport({
      command: COMPLY_BIN,
      args: ['mcp'],
      env: { ...(process.env as Record<string, string>), ...keyEnv },
      stderr: 'pipe',
    });
    client = new Client({ name: 'comply-test', version: '1.0.0' });
    await client.connect(transport);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await daemon?.stop();
    await receiver?.close();
    rmSync(configHome, { recursive: true, force: true });
  });

  it('adds, lists, follows and removes a webhook', async () => {
    const added = json<{ webhookId: string; secret: string }>(
      await runComply(
        ['webhooks', 'add', receiver.url, '--events', 'risk.created', '--description', 'chat', '--json'],
        keyEnv,
      ),
    );
    expect(added.secret).toMatch(/^whsec_/);
    const text = await runComply(['webhooks', 'list'], keyEnv);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(added.webhookId);
    expect(text.stdout).not.toContain(added.secret);

    await call('POST', '/orgs/acme/risks', { title: 'Prompt injection', likelihood: 3, impact: 3 });
    const [request] = await receiver.waitFor(ofType('risk.created'));
    expect(new Webhook(added.secret).verify(request.body, request.headers)).toMatchObject({
      type: 'risk.created',
    });
    await expect
      .poll(
        async () =>
          json<{ total: number }>(
            await runComply(['webhooks', 'deliveries', added.webhookId, '--json'], keyEnv),
          ).total,
        { timeout: 20_000, interval: 200 },
      )
      .toBe(1);
    const log = await runComply(['webhooks', 'deliveries', added.webhookId], keyEnv);
    expect(log.stdout).toMatch(/risk\.created\s+1\s+200\s+delivered/);

    const bad = await runComply(['webhooks', 'add', receiver.url, '--events', 'nothing.happened'], keyEnv);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown event(s) nothing.happened');
    expect((await runComply(['webhooks', 'remove', added.webhookId], keyEnv)).code).toBe(0);
    const after = json<{ webhooks: unknown[] }>(await runComply(['webhooks', 'list', '--json'], keyEnv));
    expect(after.webhooks).toEqual([]);
    expect((await runComply(['webhooks', 'remove', added.webhookId], keyEnv)).code).toBe(1);
  });

  it('shows what is due, overdue first, and a signed-in person’s own items with --mine', async () => {
    const all = json<{ items: { kind: string; overdue: boolean }[]; total: number }>(
      await runComply(['due', '--json'], keyEnv),
    );
    expect(all.items.map((item) => [item.kind, item.overdue])).toEqual([
      ['evidence_expiry', true],
      ['finding_due', false],
    ]);
    const overdue = await runComply(['due', '--overdue'], keyEnv);
    expect(overdue.stdout).toContain('1 item(s) due, 1 overdue');
    expect(overdue.stdout).toContain('Evidence "Old policy"');
    const kind = json<{ total: number }>(await runComply(['due', '--kind', 'finding_due', '--json'], keyEnv));
    expect(kind.total).toBe(1);
    expect((await runComply(['due', '--kind', 'chores'], keyEnv)).code).toBe(2);
    expect((await runComply(['due', '--mine'], keyEnv)).stderr).toContain('--mine needs a signed-in person');

    const invited = await call<{ invitation: { token: string } }>('POST', '/orgs/acme/members', {
      email: 'dana@example.com',
      name: 'Dana Doe',
      role: 'editor',
    });
    const accepted = await fetch(`${daemon.url}/api/v1/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: daemon.url },
      body: JSON.stringify({ token: invited.invitation.token, password: PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    const sessionEnv = { COMPLY_URL: daemon.url, COMPLY_ORG: 'acme', XDG_CONFIG_HOME: configHome };
    const login = await runWithInput(
      ['login', '--email', 'dana@example.com', '--password-stdin'],
      sessionEnv,
      `${PASSWORD}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    const mine = json<{ items: { kind: string; owner: string }[] }>(
      await runComply(['due', '--mine', '--json'], sessionEnv),
    );
    expect(mine.items).toEqual([expect.objectContaining({ kind: 'finding_due', owner: 'dana@example.com' })]);
  });

  it('answers what is due and the open findings as MCP tools', async () => {
    const due = (await client.callTool({ name: 'what_is_due', arguments: { overdue: true } })) as unknown as {
      structuredContent: { items: { kind: string }[]; total: number };
      content: { text: string }[];
    };
    expect(due.structuredContent.total).toBe(1);
    expect(due.content[0].text).toContain('OVERDUE Evidence "Old policy"');
    const findings = (await client.callTool({ name: 'open_findings', arguments: {} })) as unknown as {
      structuredContent: { findings: { kind: string; caps: boolean; requirements: { status: string }[] }[] };
    };
    expect(findings.structuredContent.findings).toEqual([
      expect.objectContaining({
        kind: 'major_nonconformity',
        caps: true,
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.8', status: 'not_started' }],
      }),
    ]);
  });
});
