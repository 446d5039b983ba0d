import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { COMPLY_BIN, type Daemon } from '../support/daemon.js';
import { api, enc, startDaemonOn } from './check-support.js';

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent: Record<string, unknown>;
};

// The server runs as `comply mcp`, a child process spoken to over stdio by the SDK's own client.
describe.each(dbKinds)('the risk tools of comply mcp on %s', { timeout: 120_000 }, (kind) => {
  let daemon: Daemon;
  let stop: () => Promise<void>;
  let client: Client;
  let systemId: string;
  const ids: Record<'bias' | 'outage' | 'leak' | 'drift', string> = {
    bias: '',
    outage: '',
    leak: '',
    drift: '',
  };

  const tool = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  beforeAll(async () => {
    ({ daemon, stop } = await startDaemonOn(kind));
    const call = api(daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    const { key } = await call<{ key: string }>('POST', '/orgs/acme/keys', {
      scopes: ['read'],
      name: 'agent',
    });
    systemId = (
      await call<{ systemId: string }>('POST', '/orgs/acme/ai-systems', {
        name: 'CV screener',
        owner: 'HR',
        purpose: 'Ranks applicants',
        riskLevel: 'high',
      })
    ).systemId;
    await call('PUT', `/orgs/acme/frameworks/iso-42001/requirements/${enc('A.7.4')}/status`, {
      status: 'implemented',
      reviewer: 'al',
    });
    const add = async (body: Record<string, unknown>) =>
      (await call<{ riskId: string }>('POST', '/orgs/acme/risks', body)).riskId;
    ids.bias = await add({
      title: 'Biased ranking',
      likelihood: 4,
      impact: 5,
      systemIds: [systemId],
      treatment: {
        option: 'mitigate',
        requirements: [
          { frameworkId: 'iso-42001', requirementId: 'A.7.4' },
          { frameworkId: 'gdpr', requirementId: 'Art. 22' },
        ],
        plan: 'Rebalance the data; a person reviews every rejection',
        dueDate: '2020-03-31T00:00:00.000Z',
      },
      residualLikelihood: 3,
      residualImpact: 4,
    });
    ids.outage = await add({
      title: 'Vendor outage',
      likelihood: 2,
      impact: 3,
      treatment: { option: 'accept', requirements: [] },
    });
    ids.leak = await add({ title: 'Prompt leak', likelihood: 1, impact: 2 });
    ids.drift = await add({
      title: 'Model drift',
      likelihood: 2,
      impact: 2,
      treatment: { option: 'mitigate', requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.7.4' }] },
    });

    const transport = new StdioClientTransport({
      command: COMPLY_BIN,
      args: ['mcp'],
      env: {
        ...(process.env as Record<string, string>),
        COMPLY_URL: daemon.url,
        COMPLY_API_KEY: key,
        COMPLY_ORG: 'acme',
      },
      stderr: 'pipe',
    });
    client = new Client({ name: 'comply-test', version: '1.0.0' });
    await client.connect(transport);
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await stop?.();
  });

  it('describes both tools as reads with their filters', async () => {
    const { tools } = await client.listTools();
    const list = tools.find((t) => t.name === 'list_risks');
    const explain = tools.find((t) => t.name === 'explain_risk_treatment');
    expect(Object.keys(list?.inputSchema.properties ?? {})).toEqual([
      'state',
      'level',
      'systemId',
      'frameworkId',
      'requirementId',
      'limit',
      'offset',
    ]);
    expect(explain?.inputSchema.required).toEqual(['riskId']);
    for (const t of [list, explain]) {
      expect(t?.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
      });
      expect(t?.outputSchema?.type).toBe('object');
    }
    // The assessments due are listed once, by the impact-assessment tool.
    expect(tools.filter((t) => t.name === 'list_due_assessments')).toHaveLength(1);
  });

  it('lists the register with its filters and pages', async () => {
    const all = await tool('list_risks');
    expect(all.isError).toBeFalsy();
    expect(all.structuredContent).toMatchObject({ orgId: 'acme', total: 4, offset: 0, nextOffset: null });
    const risks = all.structuredContent.risks as Record<string, unknown>[];
    expect(risks.map((r) => [r.title, r.state])).toEqual([
      ['Biased ranking', 'treating'],
      ['Vendor outage', 'needs_acceptance'],
      ['Prompt leak', 'open'],
      ['Model drift', 'treated'],
    ]);
    expect(risks[0]).toEqual({
      riskId: ids.bias,
      title: 'Biased ranking',
      systemIds: [systemId],
      owner: null,
      inherent: { score: 20, level: 'critical' },
      residual: { score: 12, level: 'high' },
      state: 'treating',
      treatmentOption: 'mitigate',
      treatmentProgress: { implemented: 1, total: 2 },
      treatmentOverdue: true,
      acceptance: null,
    });
    expect(all.content[0].text).toContain(`${ids.bias} "Biased ranking" (treating, residual high (12))`);

    const titles = async (args: Record<string, unknown>) =>
      ((await tool('list_risks', args)).structuredContent.risks as { title: string }[]).map((r) => r.title);
    expect(await titles({ state: 'needs_acceptance' })).toEqual(['Vendor outage']);
    expect(await titles({ level: 'low' })).toEqual(['Prompt leak', 'Model drift']);
    expect(await titles({ systemId })).toEqual(['Biased ranking']);
    expect(await titles({ frameworkId: 'iso-42001', requirementId: 'A.7.4' })).toEqual([
      'Biased ranking',
      'Model drift',
    ]);
    const page = await tool('list_risks', { limit: 3, offset: 1 });
    expect(page.structuredContent).toMatchObject({ total: 4, offset: 1, nextOffset: null });
    expect((await tool('list_risks', { limit: 2 })).structuredContent.nextOffset).toBe(2);

    const half = await tool('list_risks', { frameworkId: 'iso-42001' });
    expect(half.isError).toBe(true);
    expect(half.content[0].text).toContain('frameworkId and requirementId go together');
  });

  it('explains what a risk’s treatment still needs to be treated', async () => {
    const bias = await tool('explain_risk_treatment', { riskId: ids.bias });
    expect(bias.isError).toBeFalsy();
    expect(bias.structuredContent).toMatchObject({
      riskId: ids.bias,
      state: 'treating',
      option: 'mitigate',
      plan: 'Rebalance the data; a person reviews every rejection',
      dueDate: '2020-03-31T00:00:00.000Z',
      overdue: true,
      inherent: { score: 20, level: 'critical' },
      residual: { score: 12, level: 'high' },
      acceptableLevel: 'medium',
      acceptance: null,
    });
    const requirements = bias.structuredContent.requirements as Record<string, unknown>[];
    expect(requirements).toHaveLength(2);
    expect(requirements[0]).toMatchObject({
      frameworkId: 'iso-42001',
      requirementId: 'A.7.4',
      title: 'Quality of data for AI systems',
      status: 'implemented',
      implemented: true,
    });
    expect(requirements[1]).toMatchObject({
      frameworkId: 'gdpr',
      requirementId: 'Art. 22',
      implemented: false,
    });
    expect(requirements[1].title).toEqual(expect.any(String));
    const missing = bias.structuredContent.missing as string[];
    expect(missing).toHaveLength(3);
    expect(missing[0]).toMatch(/^gdpr Art\. 22 is (not_started|in_progress): implement it/);
    expect(missing[1]).toBe('The treatment was due 2020-03-31 and is overdue.');
    expect(missing[2]).toContain('The residual level high (12) is above the acceptable level (medium)');
    expect(bias.content[0].text).toContain('Missing for treated:\n- gdpr Art. 22 is');

    const outage = await tool('explain_risk_treatment', { riskId: ids.outage });
    expect(outage.structuredContent).toMatchObject({
      option: 'accept',
      requirements: [],
      state: 'needs_acceptance',
    });
    expect((outage.structuredContent.missing as string[])[0]).toContain('The treatment option is accept');
    const leak = await tool('explain_risk_treatment', { riskId: ids.leak });
    expect(leak.structuredContent).toMatchObject({ option: null, plan: null, dueDate: null, overdue: false });
    expect((leak.structuredContent.missing as string[])[0]).toContain('No treatment: choose an option');
    const drift = await tool('explain_risk_treatment', { riskId: ids.drift });
    expect(drift.structuredContent).toMatchObject({ state: 'treated', missing: [] });

    const unknown = await tool('explain_risk_treatment', { riskId: 'risk_nope' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toContain('404');
  });
});
