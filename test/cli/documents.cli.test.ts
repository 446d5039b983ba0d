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

interface Version {
  versionId: string;
  version: number;
  state: string;
  content: string | null;
  contentHash: string | null;
  approvedBy: { email: string } | null;
}
interface Document {
  documentId: string;
  published: { versionId: string; version: number } | null;
  draft: { versionId: string; version: number } | null;
  nextReviewAt: string | null;
}

// One database kind is enough here: the API's behaviour on both is tested in test/documents.
const kind = dbKinds[0];

describe(`comply documents on ${kind}`, { timeout: 120_000 }, () => {
  let stop: () => Promise<void>;
  let url: string;
  let configHome: string;
  let keyEnv: Record<string, string>;
  let sessionEnv: Record<string, string>;
  let documentId: string;
  let first: Version;
  let second: Version;

  const json = <T = Record<string, unknown>>(result: CliResult): T => {
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };
  const file = (name: string, text: string) => {
    const where = path.join(configHome, name);
    writeFileSync(where, text);
    return where;
  };

  beforeAll(async () => {
    const started = await startDaemonOn(kind);
    stop = started.stop;
    url = started.daemon.url;
    const call = api(url, ADMIN_KEY);
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
    configHome = mkdtempSync(path.join(tmpdir(), 'comply-config-'));
    keyEnv = { COMPLY_URL: url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme', XDG_CONFIG_HOME: configHome };
    sessionEnv = { ...keyEnv, COMPLY_API_KEY: '' };
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  it('creates a document serving requirements, with a review cadence', async () => {
    const created = json<Document & { requirements: unknown[]; reviewEvery: string }>(
      await runComply(
        [
          'documents',
          'create',
          '--title',
          'AI policy',
          '--kind',
          'policy',
          '--owner',
          'CISO',
          '--requirement',
          'iso-42001:A.2.2',
          '--requirement',
          'eu-ai-act:Art. 17',
          '--review-every',
          'P1Y',
          '--json',
        ],
        keyEnv,
      ),
    );
    expect(created).toMatchObject({
      requirements: [
        { frameworkId: 'iso-42001', requirementId: 'A.2.2' },
        { frameworkId: 'eu-ai-act', requirementId: 'Art. 17' },
      ],
      reviewEvery: 'P1Y',
      published: null,
      draft: null,
    });
    documentId = created.documentId;
    const badRef = await runComply(
      ['documents', 'create', '--title', 'x', '--kind', 'plan', '--requirement', 'no-colon'],
      keyEnv,
    );
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('frameworkId:requirementId');
    const unknown = await runComply(
      ['documents', 'create', '--title', 'x', '--kind', 'plan', '--requirement', 'iso-42001:A.99'],
      keyEnv,
    );
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('A.99');
  });

  it('drafts from a Markdown file, then edits the draft in progress', async () => {
    const noChangelog = await runComply(
      ['documents', 'draft', documentId, '--file', file('v1.md', '# AI policy\n')],
      keyEnv,
    );
    expect(noChangelog.code).toBe(2);
    first = json<Version>(
      await runComply(
        [
          'documents',
          'draft',
          documentId,
          '--file',
          file('v1.md', '# AI policy\n'),
          '--changelog',
          'Issued',
          '--json',
        ],
        keyEnv,
      ),
    );
    expect(first).toMatchObject({ version: 1, state: 'draft', content: '# AI policy\n' });
    const edited = json<Version>(
      await runComply(
        [
          'documents',
          'draft',
          documentId,
          '--file',
          file('v1.md', '# AI policy\n\nWe use AI responsibly.\n'),
          '--json',
        ],
        keyEnv,
      ),
    );
    expect(edited).toMatchObject({
      versionId: first.versionId,
      content: '# AI policy\n\nWe use AI responsibly.\n',
    });
  });

  it('approves only as a signed-in person, and shows the published version', async () => {
    const byKey = await runComply(['documents', 'approve', documentId, first.versionId], keyEnv);
    expect(byKey.code).toBe(1);
    expect(byKey.stderr).toContain('person');
    const login = await runComplyWithInput(
      ['login', '--email', 'alex@example.com', '--password-stdin'],
      sessionEnv,
      `${PASSWORD}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    const approved = json<Version>(
      await runComply(['documents', 'approve', documentId, first.versionId, '--json'], sessionEnv),
    );
    expect(approved).toMatchObject({ state: 'published', approvedBy: { email: 'alex@example.com' } });
    expect(approved.contentHash).toMatch(/^[0-9a-f]{64}$/);

    const shown = await runComply(['documents', 'show', documentId], keyEnv);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`v1 published`);
    expect(shown.stdout).toContain('iso-42001 A.2.2, eu-ai-act Art. 17');
    const version = await runComply(['documents', 'show', documentId, first.versionId], keyEnv);
    expect(version.stdout).toContain('We use AI responsibly.');
    expect(version.stdout).toContain('Alex Approver <alex@example.com>');
  });

  it('drafts the next version and diffs it against the one before', async () => {
    second = json<Version>(
      await runComply(
        [
          'documents',
          'draft',
          documentId,
          '--file',
          file('v2.md', '# AI policy\n\nWe use AI responsibly and lawfully.\n'),
          '--changelog',
          'Lawfulness',
          '--json',
        ],
        keyEnv,
      ),
    );
    expect(second).toMatchObject({ version: 2, state: 'draft' });
    const document = json<Document>(await runComply(['documents', 'show', documentId, '--json'], keyEnv));
    expect(document.published?.versionId).toBe(first.versionId);
    expect(document.draft?.versionId).toBe(second.versionId);

    const diff = await runComply(['documents', 'diff', documentId, second.versionId], keyEnv);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('--- version 1 (published)');
    expect(diff.stdout).toContain('+++ version 2 (draft)');
    expect(diff.stdout).toContain('-We use AI responsibly.');
    expect(diff.stdout).toContain('+We use AI responsibly and lawfully.');
    expect(diff.stdout).toMatch(/^@@ -1,3 \+1,3 @@$/m);
    const firstHasNoneBefore = await runComply(['documents', 'diff', documentId, first.versionId], keyEnv);
    expect(firstHasNoneBefore.code).toBe(2);
  });

  it('lists the documents, and tells an agent what is due for review over MCP', async () => {
    const list = await runComply(['documents', 'list'], keyEnv);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain(documentId);
    expect(list.stdout).toContain('v1');
    expect(list.stdout).toContain('v2');

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
      const result = (await client.callTool({ name: 'list_documents', arguments: {} })) as {
        isError?: boolean;
        content: { text?: string }[];
        structuredContent: Record<string, unknown>;
      };
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        total: 1,
        nextOffset: null,
        documents: [
          {
            documentId,
            title: 'AI policy',
            kind: 'policy',
            reviewDue: false,
            published: { versionId: first.versionId, version: 1 },
            draft: { versionId: second.versionId, version: 2 },
          },
        ],
      });
      expect(result.content[0].text).toContain('AI policy (policy, v1 in force, draft v2, review due');
    } finally {
      await client.close();
    }
  });

  it('deletes only a document never published', async () => {
    const scratch = json<Document>(
      await runComply(['documents', 'create', '--title', 'Scratch', '--kind', 'plan', '--json'], keyEnv),
    );
    expect((await runComply(['documents', 'delete', scratch.documentId], keyEnv)).code).toBe(0);
    const refused = await runComply(['documents', 'delete', documentId], keyEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('published');
  });
});
