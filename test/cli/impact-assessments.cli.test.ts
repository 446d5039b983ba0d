import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { type CliResult, COMPLY_BIN, runComply, runComplyWithInput } from '../support/daemon.js';
import { api, startDaemonOn } from './check-support.js';

const PASSWORD = 'correct horse battery staple';

interface Assessment {
  assessmentId: string;
  version: number;
  state: string;
  answers: Record<string, unknown>;
  impacts: unknown[];
  approvedBy: { email: string } | null;
}

// One database kind is enough here: the API's behaviour on both is tested in test/impact-assessments.
const kind = dbKinds[0];

describe(`comply assessments on ${kind}`, { timeout: 120_000 }, () => {
  let stop: () => Promise<void>;
  let url: string;
  let call: ReturnType<typeof api>;
  let configHome: string;
  let keyEnv: Record<string, string>;
  let sessionEnv: Record<string, string>;
  let systemId: string;
  let assessmentId: string;

  const json = <T = Record<string, unknown>>(result: CliResult): T => {
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    const started = await startDaemonOn(kind);
    stop = started.stop;
    url = started.daemon.url;
    call = api(url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    const invited = await call<{ invitation: { token: string } }>('POST', '/orgs/acme/members', {
      email: 'alex@example.com',
      name: 'Alex Approver',
      role: 'approver',
    });
    const accepted = await fetch(`${url}/api/v1/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ token: invited.invitation.token, password: PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    ({ systemId } = await call<{ systemId: string }>('POST', '/orgs/acme/ai-systems', {
      name: 'Loan pricing',
      owner: 'Credit',
      purpose: 'Prices consumer loans',
      riskLevel: 'high',
    }));
    configHome = mkdtempSync(path.join(tmpdir(), 'comply-config-'));
    keyEnv = { COMPLY_URL: url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme', XDG_CONFIG_HOME: configHome };
    sessionEnv = { ...keyEnv, COMPLY_API_KEY: '' };
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  it('lists the templates', async () => {
    const list = json<{ templates: { templateId: string }[] }>(
      await runComply(['assessments', 'templates', '--json'], keyEnv),
    );
    expect(list.templates.map((t) => t.templateId)).toEqual([
      'iso-42001-aiia',
      'eu-ai-act-fria',
      'gdpr-dpia',
    ]);
    const text = await runComply(['assessments', 'templates'], keyEnv);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('gdpr Art. 35');
  });

  it('starts a draft and answers questions of each kind, refusing what does not fit', async () => {
    const draft = json<Assessment>(
      await runComply(['assessments', 'start', systemId, '--template', 'gdpr-dpia', '--json'], keyEnv),
    );
    expect(draft).toMatchObject({ version: 1, state: 'draft', answers: {} });
    assessmentId = draft.assessmentId;

    const answer = (...words: string[]) =>
      runComply(['assessments', 'answer', assessmentId, ...words], keyEnv);
    expect((await answer('description', 'Prices', 'loans', 'from', 'credit', 'files')).code).toBe(0);
    expect((await answer('lawful-basis', 'performance of a contract')).code).toBe(0);
    expect((await answer('data-categories', 'financial information', 'location')).code).toBe(0);
    const scale = await answer('likelihood', 'possible');
    expect(scale.code, scale.stderr).toBe(0);
    expect(scale.stdout).toContain('likelihood: 2');
    expect((await answer('severity', '3')).code).toBe(0);

    const twoPoints = await answer('severity', '2', '3');
    expect(twoPoints.code).toBe(2);
    const unknown = await answer('no-such-question', 'x');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no-such-question');
    const wrongOption = await answer('lawful-basis', 'because we can');
    expect(wrongOption.code).toBe(1);
    expect(wrongOption.stderr).toContain('lawful-basis');

    const shown = json<Assessment>(await runComply(['assessments', 'show', assessmentId, '--json'], keyEnv));
    expect(shown.answers).toEqual({
      description: 'Prices loans from credit files',
      'lawful-basis': 'performance of a contract',
      'data-categories': ['financial information', 'location'],
      likelihood: 2,
      severity: 3,
    });
    expect((await answer('severity', '--clear')).code).toBe(0);
    const text = await runComply(['assessments', 'show', assessmentId], keyEnv);
    expect(text.stdout).toContain('Necessity and proportionality');
    expect(text.stdout).toMatch(/severity \*: -/);
  });

  it('replaces the impacts from a JSON file', async () => {
    const file = path.join(configHome, 'impacts.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          affected: 'individuals',
          description: 'Higher prices for some postcodes',
          likelihood: 3,
          severity: 3,
        },
      ]),
    );
    const updated = json<Assessment>(
      await runComply(['assessments', 'impacts', assessmentId, file, '--json'], keyEnv),
    );
    expect(updated.impacts).toHaveLength(1);
    writeFileSync(file, '{"not": "a list"}');
    expect((await runComply(['assessments', 'impacts', assessmentId, file], keyEnv)).code).toBe(2);
  });

  it('refuses to submit with required questions unanswered, then submits', async () => {
    const refused = await runComply(['assessments', 'submit', assessmentId], keyEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('unanswered');
    const template = await call<{
      sections: {
        questions: { questionId: string; kind: string; options?: string[]; required: boolean }[];
      }[];
    }>('GET', '/impact-assessment-templates/gdpr-dpia');
    const answers: Record<string, unknown> = {};
    for (const q of template.sections.flatMap((s) => s.questions).filter((q) => q.required)) {
      const options = q.options ?? [];
      answers[q.questionId] =
        q.kind === 'text'
          ? 'Answered'
          : q.kind === 'choice'
            ? options[0]
            : q.kind === 'multi'
              ? [options[0]]
              : 1;
    }
    await call('PUT', `/orgs/acme/impact-assessments/${assessmentId}`, { answers });
    const submitted = json<Assessment>(
      await runComply(['assessments', 'submit', assessmentId, '--json'], keyEnv),
    );
    expect(submitted.state).toBe('submitted');
  });

  it('approves only as a signed-in person, then revises', async () => {
    const byKey = await runComply(['assessments', 'approve', assessmentId], keyEnv);
    expect(byKey.code).toBe(1);
    expect(byKey.stderr).toContain('person');

    const login = await runComplyWithInput(
      ['login', '--email', 'alex@example.com', '--password-stdin'],
      sessionEnv,
      `${PASSWORD}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    const approved = json<Assessment>(
      await runComply(['assessments', 'approve', assessmentId, '--json'], sessionEnv),
    );
    expect(approved).toMatchObject({ state: 'approved', approvedBy: { email: 'alex@example.com' } });

    const list = await runComply(['assessments', 'list'], keyEnv);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(assessmentId);
    expect(list.stdout).toContain('approved');
    expect(
      json<{ total: number }>(await runComply(['assessments', 'list', '--due', '--json'], keyEnv)).total,
    ).toBe(0);
    await call('PUT', `/orgs/acme/ai-systems/${systemId}`, { purpose: 'Prices loans and mortgages' });
    const due = json<{ total: number; assessments: Assessment[] }>(
      await runComply(['assessments', 'list', '--due', '--json'], keyEnv),
    );
    expect(due.assessments.map((a) => a.assessmentId)).toEqual([assessmentId]);

    const revision = json<Assessment>(
      await runComply(['assessments', 'revise', assessmentId, '--json'], keyEnv),
    );
    expect(revision).toMatchObject({ version: 2, state: 'draft', answers: approved.answers });
    expect((await runComply(['assessments', 'revise', assessmentId], keyEnv)).code).toBe(1);
  });

  it('lists the assessments due again to an agent over MCP', async () => {
    const client = new Client({ name: 'comply-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: COMPLY_BIN,
        args: ['mcp'],
        env: { ...(process.env as Record<string, string>), ...keyEnv },
        stderr: 'pipe',
      }),
    );
    try {
      const result = (await client.callTool({ name: 'list_due_assessments', arguments: {} })) as {
        isError?: boolean;
        content: { text?: string }[];
        structuredContent: Record<string, unknown>;
      };
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        total: 1,
        nextOffset: null,
        assessments: [
          {
            assessmentId,
            systemId,
            systemName: 'Loan pricing',
            templateId: 'gdpr-dpia',
            version: 1,
            reasons: [{ code: 'purpose_changed' }],
          },
        ],
      });
      expect(result.content[0].text).toContain('Loan pricing gdpr-dpia v1 (purpose_changed)');
    } finally {
      await client.close();
    }
  });
});
