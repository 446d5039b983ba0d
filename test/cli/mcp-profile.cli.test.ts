import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { COMPLY_BIN } from '../support/daemon.js';
import { api, enc, startDaemonOn } from './check-support.js';

type ToolResult = {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent: {
    profile: { euAiActRoles: string[] } | null;
    exclusions: { requirementId: string; state: string; reviewer: string | null; justification: string }[];
    bindNoOne: { requirementId: string }[];
  };
};

// One database kind is enough here: the API's behaviour on both is tested in test/applicability.
const kind = dbKinds[0];

/** `applicability_profile`: an agent reads what the org is under the EU AI Act and why each exclusion holds. */
describe(`the applicability_profile tool of comply mcp on ${kind}`, { timeout: 120_000 }, () => {
  let stop: () => Promise<void>;
  let call: ReturnType<typeof api>;
  let client: Client;

  const profile = async () =>
    (await client.callTool({ name: 'applicability_profile', arguments: {} })) as ToolResult;

  beforeAll(async () => {
    const started = await startDaemonOn(kind);
    stop = started.stop;
    call = api(started.daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    const { key } = await call<{ key: string }>('POST', '/orgs/acme/keys', {
      scopes: ['read'],
      name: 'agent',
    });
    client = new Client({ name: 'comply-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: COMPLY_BIN,
        args: ['mcp', '--read-only'],
        env: {
          ...(process.env as Record<string, string>),
          COMPLY_URL: started.daemon.url,
          COMPLY_API_KEY: key,
          COMPLY_ORG: 'acme',
        },
        stderr: 'pipe',
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await stop?.();
  });

  it('is a read tool, listed in read-only mode', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'applicability_profile');
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(tool?.outputSchema?.type).toBe('object');
  });

  it('says there is no profile yet, and which provisions bind no organization', async () => {
    const result = await profile();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ profile: null, exclusions: [] });
    expect(result.structuredContent.bindNoOne.map((p) => p.requirementId)).toContain('Art. 99');
    const text = result.content[0].text ?? '';
    expect(text).toContain('No applicability profile yet');
    expect(text).toMatch(/Never gaps, as they bind no organization: .*Art\. 99/);
  });

  it('lists each exclusion with its reason and its state', async () => {
    await call('PUT', `/orgs/acme/frameworks/eu-ai-act/requirements/${enc('Art. 12')}/applicability`, {
      applicable: true,
      justification: 'We also place a logging product on the market',
      reviewer: 'Dana Officer',
    });
    const saved = await call<ToolResult['structuredContent']>('PUT', '/orgs/acme/applicability-profile', {
      euAiActRoles: ['deployer'],
      generalPurposeModels: false,
      biometrics: false,
      lawEnforcement: false,
    });
    const result = await profile();
    expect(result.structuredContent.profile).toMatchObject({ euAiActRoles: ['deployer'] });
    expect(result.structuredContent.exclusions).toEqual(saved.exclusions);
    const text = result.content[0].text ?? '';
    expect(text).toContain('Applicability profile: EU AI Act roles deployer; general-purpose AI models no');
    expect(text).toContain(`${saved.exclusions.length} EU AI Act requirement(s) excluded:`);
    expect(text).toContain(
      'Art. 9 Risk management system — excluded by the profile; why not applicable: it binds providers, and the organization is a deployer',
    );
    expect(text).toContain(
      'Art. 12 Record-keeping — recorded as applicable by Dana Officer, overriding the profile',
    );
    // Every exclusion is named in the text, once per line.
    for (const exclusion of saved.exclusions) {
      expect(text.split('\n').filter((line) => line.startsWith(`${exclusion.requirementId} `))).toHaveLength(
        1,
      );
    }
  });
});
