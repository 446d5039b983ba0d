import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { COMPLY_BIN, type Daemon, runComply } from '../support/daemon.js';
import { api, enc, startDaemonOn } from './check-support.js';

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent: Record<string, unknown>;
};

const READ_TOOLS = [
  'list_frameworks',
  'get_gaps',
  'explain_coverage',
  'search_requirements',
  'list_conflicts',
  'get_score',
  'get_score_history',
  'list_requirements',
  'get_requirement',
  'list_ai_systems',
  'list_due_assessments',
  'list_risks',
  'explain_risk_treatment',
  'list_documents',
  'list_attestations',
  'get_epoch',
  'list_snapshots',
  'export_soa_markdown',
  'audit_log',
  'prepare_management_review',
  'what_is_due',
  'open_findings',
  'applicability_profile',
];
const WRITE_TOOLS = [
  'record_requirement_status',
  'record_requirement_applicability',
  'add_evidence',
  'create_snapshot',
];

// The server runs as `comply mcp`, a child process spoken to over stdio by the SDK's own client.
describe.each(dbKinds)('comply mcp on %s', { timeout: 120_000 }, (kind) => {
  let daemon: Daemon;
  let stop: () => Promise<void>;
  let call: ReturnType<typeof api>;
  const keys: Record<'read' | 'write' | 'export', string> = { read: '', write: '', export: '' };
  const clients: Client[] = [];

  async function connect(key: string, args: string[] = [], url = daemon.url): Promise<Client> {
    const transport = new StdioClientTransport({
      command: COMPLY_BIN,
      args: ['mcp', ...args],
      env: {
        ...(process.env as Record<string, string>),
        COMPLY_URL: url,
        COMPLY_API_KEY: key,
        COMPLY_ORG: 'acme',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'comply-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return client;
  }
  const tool = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;

  let reader: Client;
  let writer: Client;

  beforeAll(async () => {
    ({ daemon, stop } = await startDaemonOn(kind));
    call = api(daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    for (const [name, scopes] of [
      ['read', ['read']],
      ['write', ['read', 'write']],
      ['export', ['read', 'export']],
    ] as const) {
      keys[name] = (await call<{ key: string }>('POST', '/orgs/acme/keys', { scopes, name })).key;
    }
    await call('PUT', '/orgs/acme/controls/A.6.2.8/status', { status: 'implemented', reviewer: 'al' });
    await call('POST', '/orgs/acme/ai-systems', {
      name: 'Triage',
      owner: 'ops',
      purpose: 'triage',
      riskLevel: 'high',
    });
    await call('POST', '/orgs/acme/attestations', {
      level: 'L0',
      epochId: 'e-1',
      controlIds: ['A.6.2.6'],
      systemId: 'Triage',
      timestamp: new Date().toISOString(),
      claims: { drift: 0.01 },
    });
    [reader, writer] = await Promise.all([connect(keys.read), connect(keys.write)]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await stop?.();
  });

  it('lists every tool with a description, input and output schemas and annotations', async () => {
    const { tools } = await writer.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS, ...WRITE_TOOLS].sort());
    for (const t of tools) {
      expect(t.description?.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      const write = WRITE_TOOLS.includes(t.name);
      expect(t.annotations, t.name).toMatchObject({
        readOnlyHint: !write,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(typeof t.annotations?.idempotentHint).toBe('boolean');
    }
    const gaps = tools.find((t) => t.name === 'get_gaps');
    expect(gaps?.inputSchema.required).toEqual(['frameworkId']);
    expect(Object.keys(gaps?.inputSchema.properties ?? {})).toEqual([
      'frameworkId',
      'priority',
      'limit',
      'offset',
    ]);
    expect(tools.find((t) => t.name === 'add_evidence')?.annotations?.idempotentHint).toBe(false);

    const readOnly = await connect(keys.write, ['--read-only']);
    expect((await readOnly.listTools()).tools.map((t) => t.name).sort()).toEqual([...READ_TOOLS].sort());
  });

  it('answers the read tools with structured content and a short text', async () => {
    const frameworks = await tool(reader, 'list_frameworks');
    expect(frameworks.isError).toBeFalsy();
    const iso = (frameworks.structuredContent.frameworks as { frameworkId: string; score: number }[]).find(
      (f) => f.frameworkId === 'iso-42001',
    );
    expect(iso?.score).toBe(2.6);
    expect(frameworks.content[0].text).toContain('iso-42001: score 2.6%');

    const api = await call<{
      summary: { critical: number };
      gaps: { controlId: string; priority: string }[];
    }>('GET', '/cte/gaps/eu-ai-act?orgId=acme');
    const critical = api.gaps.filter((g) => g.priority === 'critical').map((g) => g.controlId);
    expect(critical.length).toBeGreaterThan(3);
    const first = await tool(reader, 'get_gaps', {
      frameworkId: 'eu-ai-act',
      priority: 'critical',
      limit: 3,
    });
    expect(first.structuredContent).toMatchObject({
      summary: api.summary,
      total: critical.length,
      offset: 0,
      nextOffset: 3,
    });
    const second = await tool(reader, 'get_gaps', {
      frameworkId: 'eu-ai-act',
      priority: 'critical',
      limit: 3,
      offset: 3,
    });
    const ids = [
      ...(first.structuredContent.gaps as { requirementId: string }[]),
      ...(second.structuredContent.gaps as { requirementId: string }[]),
    ].map((g) => g.requirementId);
    expect(ids).toEqual(critical.slice(0, 6));
    expect(
      (first.structuredContent.gaps as { recommendation: string }[])[0].recommendation.length,
    ).toBeGreaterThan(20);

    const why = await tool(reader, 'explain_coverage', {
      frameworkId: 'eu-ai-act',
      requirementId: 'Art. 12',
    });
    expect(why.structuredContent).toMatchObject({ frameworkId: 'eu-ai-act', requirementId: 'Art. 12' });
    expect(why.structuredContent.justifications).toContainEqual(
      expect.objectContaining({ frameworkId: 'iso-42001', requirementId: 'A.6.2.8', status: 'implemented' }),
    );

    const search = await tool(reader, 'search_requirements', {
      query: 'keep logs of AI system events',
      limit: 5,
    });
    expect((search.structuredContent.results as unknown[]).length).toBe(5);

    const score = await tool(reader, 'get_score', {});
    expect(score.structuredContent).toMatchObject({
      frameworkId: 'iso-42001',
      score: 2.6,
      counts: { implemented: 1 },
    });
    const history = await tool(reader, 'get_score_history', { interval: 'monthly' });
    expect((history.structuredContent.points as { score: number }[]).at(-1)?.score).toBe(2.6);

    const listed = await tool(reader, 'list_requirements', {
      frameworkId: 'iso-42001',
      status: 'implemented',
    });
    expect(listed.structuredContent).toMatchObject({
      total: 1,
      nextOffset: null,
      requirements: [{ requirementId: 'A.6.2.8', status: 'implemented', assessment: 'direct' }],
    });
    const one = await tool(reader, 'get_requirement', { frameworkId: 'eu-ai-act', requirementId: 'Art. 12' });
    expect(one.structuredContent).toMatchObject({
      assessment: 'inferred',
      inferred: { from: ['iso-42001 A.6.2.8'] },
    });

    const conflicts = await tool(reader, 'list_conflicts', { frameworkId: 'gdpr' });
    expect((conflicts.structuredContent.conflicts as unknown[]).length).toBeGreaterThan(0);
    const systems = await tool(reader, 'list_ai_systems', { riskLevel: 'high' });
    expect(systems.structuredContent).toMatchObject({ systems: [{ name: 'Triage', riskLevel: 'high' }] });
    const attestations = await tool(reader, 'list_attestations', { epochId: 'e-1' });
    expect(attestations.structuredContent).toMatchObject({
      attestations: [{ level: 'L0', claims: { drift: 0.01 } }],
    });
    const [{ systemId }] = systems.structuredContent.systems as { systemId: string }[];
    const about = await tool(reader, 'list_attestations', { systemId });
    expect(about.structuredContent).toMatchObject({ attestations: [{ systemId, epochId: 'e-1' }] });
    const aboutNone = await tool(reader, 'list_attestations', { systemId: 'no-such-system' });
    expect(aboutNone.structuredContent).toMatchObject({ attestations: [] });
    const epoch = await call<{ merkleRoot: string }>('GET', '/orgs/acme/attestations/epochs/e-1');
    expect((await tool(reader, 'get_epoch', { epochId: 'e-1' })).structuredContent).toMatchObject({
      count: 1,
      levels: { L0: 1, L2: 0 },
      merkleRoot: epoch.merkleRoot,
    });

    // The audit trail takes an owner, an auditor or a platform key.
    const admin = await connect(ADMIN_KEY);
    const audit = await tool(admin, 'audit_log', { resourceType: 'ai-system', verify: true });
    expect(audit.isError, audit.content[0].text).toBeFalsy();
    expect(audit.structuredContent).toMatchObject({
      orgId: 'acme',
      events: [{ action: 'ai-system.created', resource: { type: 'ai-system' } }],
      nextCursor: null,
      verification: { valid: true },
    });
    expect(audit.content[0].text).toContain('Hash chain intact');
    expect((await tool(reader, 'audit_log')).isError).toBe(true);
  });

  it('repeats in the text of each tool the items its structured result holds', async () => {
    const textOf = (result: ToolResult) => result.content.map((c) => c.text ?? '').join('\n');
    const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

    // Which gaps and why, with how many more there are and where.
    const gaps = await tool(reader, 'get_gaps', { frameworkId: 'eu-ai-act', priority: 'critical', limit: 3 });
    const gapList = gaps.structuredContent.gaps as {
      requirementId: string;
      status: string;
      recommendation: string;
    }[];
    expect(gapList).toHaveLength(3);
    for (const gap of gapList) {
      expect(textOf(gaps)).toContain(`[critical] ${gap.requirementId} (${gap.status}`);
      expect(textOf(gaps)).toContain(oneLine(gap.recommendation).slice(0, 60));
    }
    const total = gaps.structuredContent.total as number;
    expect(textOf(gaps)).toContain(`- and ${total - 3} more (next page: offset 3)`);

    // Each requirement with its title and status, bounded: the rest are counted.
    const all = await tool(reader, 'list_requirements', { frameworkId: 'iso-42001' });
    const requirements = all.structuredContent.requirements as { requirementId: string; title: string }[];
    expect(requirements.length).toBeGreaterThan(20);
    for (const r of requirements.slice(0, 20)) expect(textOf(all)).toContain(`${r.requirementId} "`);
    expect(textOf(all)).toContain(`- and ${requirements.length - 20} more`);
    const implemented = await tool(reader, 'list_requirements', {
      frameworkId: 'iso-42001',
      status: 'implemented',
    });
    const [a628] = implemented.structuredContent.requirements as { title: string }[];
    expect(textOf(implemented)).toContain(`A.6.2.8 "${a628.title}": implemented (direct)`);

    // Why a requirement is covered: the records it rests on.
    const why = await tool(reader, 'explain_coverage', {
      frameworkId: 'eu-ai-act',
      requirementId: 'Art. 12',
    });
    expect(textOf(why)).toContain('iso-42001 A.6.2.8 implemented');

    // Attestations, AI systems and conflicts by id, with what they say.
    const attestations = await tool(reader, 'list_attestations', { epochId: 'e-1' });
    const [attestation] = attestations.structuredContent.attestations as { attestationId: string }[];
    expect(textOf(attestations)).toContain(attestation.attestationId);
    expect(textOf(attestations)).toContain('controls A.6.2.6');
    const systems = await tool(reader, 'list_ai_systems', {});
    const [system] = systems.structuredContent.systems as { systemId: string }[];
    expect(textOf(systems)).toContain(`Triage (high, design) ${system.systemId}`);
    const conflicts = await tool(reader, 'list_conflicts', { frameworkId: 'gdpr' });
    const conflictList = conflicts.structuredContent.conflicts as {
      conflictId: string;
      requirements: string[];
    }[];
    for (const conflict of conflictList.slice(0, 20)) {
      expect(textOf(conflicts)).toContain(`${conflict.conflictId} (`);
      expect(textOf(conflicts)).toContain(conflict.requirements.join(' and '));
    }
    expect(textOf(conflicts)).toContain('Resolution:');
  });

  it('returns API refusals and bad input as tool errors, and keeps serving', async () => {
    const unknown = await tool(reader, 'get_score', { frameworkId: 'iso-99999' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0].text).toContain('Framework not found (404 RESOURCE_NOT_FOUND)');
    const invalid = await tool(writer, 'record_requirement_status', {
      frameworkId: 'eu-ai-act',
      requirementId: 'Art. 9',
      status: 'done',
      reviewer: 'al',
    });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).toMatch(/status/);
    const soa = await tool(reader, 'export_soa_markdown');
    expect(soa.isError).toBe(true);
    expect(soa.content[0].text).toContain('403 FORBIDDEN');
    expect((await tool(reader, 'get_score')).isError).toBeFalsy();

    const stranded = await connect(keys.read, [], 'http://127.0.0.1:9');
    const unreachable = await tool(stranded, 'list_frameworks');
    expect(unreachable.isError).toBe(true);
    expect(unreachable.content[0].text).toContain('Cannot reach comply at http://127.0.0.1:9');
  });

  it('explains itself with --help and needs an organization', async () => {
    const help = await runComply(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('"mcpServers"');
    const noOrg = await runComply(['mcp'], {
      COMPLY_URL: daemon.url,
      COMPLY_API_KEY: keys.read,
      COMPLY_ORG: '',
    });
    expect(noOrg.code).toBe(2);
    expect(noOrg.stderr).toContain('No organization given');
  });

  it('writes only with the write scope', async () => {
    const path = `/orgs/acme/frameworks/eu-ai-act/requirements/${enc('Art. 9')}`;
    const args = {
      frameworkId: 'eu-ai-act',
      requirementId: 'Art. 9',
      status: 'implemented',
      reviewer: 'alice',
      note: 'RMS in place',
    };
    const refused = await tool(reader, 'record_requirement_status', args);
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toContain('(403 FORBIDDEN)');
    expect((await call<{ assessment: string }>('GET', path)).assessment).not.toBe('direct');
    for (const [name, extra] of [
      ['add_evidence', { type: 'link', title: 'RMS', fileUrl: 'https://example.com/rms' }],
      ['record_requirement_applicability', { applicable: false, justification: 'n/a', reviewer: 'al' }],
      ['create_snapshot', { label: 'never' }],
    ] as const) {
      const result = await tool(reader, name, {
        frameworkId: 'eu-ai-act',
        requirementId: 'Art. 9',
        ...extra,
      });
      expect(result.isError, name).toBe(true);
    }
    expect(await call<{ total: number }>('GET', '/orgs/acme/compliance/snapshots')).toMatchObject({
      total: 0,
    });

    const recorded = await tool(writer, 'record_requirement_status', args);
    expect(recorded.isError).toBeFalsy();
    expect(recorded.structuredContent).toMatchObject({
      requirementId: 'Art. 9',
      status: 'implemented',
      assessment: 'direct',
      reviewer: 'alice',
    });
    expect(await call('GET', path)).toMatchObject({
      status: 'implemented',
      assessment: 'direct',
      note: 'RMS in place',
    });
    const evidence = await tool(writer, 'add_evidence', {
      frameworkId: 'eu-ai-act',
      requirementId: 'Art. 9',
      type: 'link',
      title: 'Risk management system',
      fileUrl: 'https://example.com/rms',
    });
    expect(evidence.structuredContent).toMatchObject({ title: 'Risk management system', expired: false });
    expect(await call('GET', path)).toMatchObject({ evidenceCount: 1 });
    const snapshot = await tool(writer, 'create_snapshot', { label: 'agent baseline' });
    expect(snapshot.structuredContent).toMatchObject({ label: 'agent baseline', score: 2.6 });
    const again = await tool(writer, 'create_snapshot', { label: 'agent baseline' });
    expect(again.isError).toBe(true);
    expect(again.content[0].text).toContain('409 CONFLICT');
  });

  it('serves resources and prompts', async () => {
    const { resources } = await reader.listResources();
    const soaUri = 'comply://orgs/acme/soa.md';
    expect(resources.map((r) => r.uri)).toContain(soaUri);
    expect(resources.map((r) => r.uri)).toContain('comply://orgs/acme/frameworks/eu-ai-act/requirements');
    const { resourceTemplates } = await reader.listResourceTemplates();
    expect(resourceTemplates[0].uriTemplate).toBe('comply://orgs/acme/frameworks/{frameworkId}/requirements');

    const exporter = await connect(keys.export);
    const soa = await exporter.readResource({ uri: soaUri });
    expect(soa.contents[0].mimeType).toBe('text/markdown');
    expect((soa.contents[0] as { text: string }).text).toMatch(/\| A\.6\.2\.8 \|/);
    await expect(reader.readResource({ uri: soaUri })).rejects.toThrow(
      /lacks the "export" scope \(403 FORBIDDEN\)/,
    );

    const requirements = await reader.readResource({
      uri: 'comply://orgs/acme/frameworks/eu-ai-act/requirements',
    });
    const body = JSON.parse((requirements.contents[0] as { text: string }).text);
    expect(body.frameworkId).toBe('eu-ai-act');
    expect(body.requirements).toContainEqual(
      expect.objectContaining({ requirementId: 'Art. 12', assessment: 'inferred' }),
    );

    const { prompts } = await reader.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['audit_summary', 'close_gap', 'plan_next_quarter']);
    const prompt = await reader.getPrompt({ name: 'audit_summary', arguments: { frameworkId: 'eu-ai-act' } });
    expect(prompt.messages[0].content).toMatchObject({
      type: 'text',
      text: expect.stringContaining('get_gaps for eu-ai-act'),
    });
  });
});
