import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OscalPackage, validateOscalPackage } from '../../src/features/exports/oscal/index.js';
import { ADMIN_KEY } from '../support/app.js';
import { type Daemon, runComply, startDaemon } from '../support/daemon.js';

/** Each test spawns the CLI a few times; a busy machine makes every spawn slow. */
const CLI_TIMEOUT_MS = 120_000;

describe('comply export against a running daemon', () => {
  let daemon: Daemon;
  let env: Record<string, string>;
  let dir: string;
  const api = (method: string, url: string, body?: unknown) =>
    fetch(`${daemon.url}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  beforeAll(async () => {
    daemon = await startDaemon();
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme' };
    dir = mkdtempSync(path.join(tmpdir(), 'comply-export-'));
    expect((await api('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' })).status).toBe(201);
    await api('PUT', '/orgs/acme/controls/A.2.2/status', {
      status: 'implemented',
      reviewer: 'alice',
      note: 'Approved by the board',
    });
    await api('PUT', '/orgs/acme/controls/A.10.4/applicability', {
      applicable: false,
      justification: 'No customers',
      reviewer: 'bob',
    });
    await api('POST', '/orgs/acme/controls/A.2.2/evidence', {
      type: 'document',
      title: 'AI policy',
      fileUrl: 'https://files.example.com/policy.pdf',
    });
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    'writes the OSCAL package to a file, as JSON or as a zip',
    async () => {
      const file = path.join(dir, 'package.json');
      const result = await runComply(['export', 'oscal', '-o', file], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^wrote .*package\.json \([\d.]+ kB, application\/json\)\n$/);
      const pkg: OscalPackage = JSON.parse(readFileSync(file, 'utf8'));
      expect(validateOscalPackage(pkg)).toEqual([]);

      const zipFile = path.join(dir, 'package.zip');
      const zipped = await runComply(['export', 'oscal', '--zip', '-o', zipFile, '--json'], env);
      expect(zipped.code, zipped.stderr).toBe(0);
      expect(JSON.parse(zipped.stdout)).toMatchObject({ file: zipFile, contentType: 'application/zip' });
      expect(Object.keys(unzipSync(readFileSync(zipFile)))).toHaveLength(5);
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'writes the Statement of Applicability to a file or, without -o, to stdout alone',
    async () => {
      const file = path.join(dir, 'soa.csv');
      const result = await runComply(['export', 'soa', '--format', 'csv', '-o', file], env);
      expect(result.code, result.stderr).toBe(0);
      const records: Record<string, string>[] = parse(readFileSync(file, 'utf8'), { columns: true });
      expect(records).toHaveLength(38);
      expect(records.find((r) => r.controlId === 'A.10.4')).toMatchObject({
        applicable: 'false',
        justification: 'No customers',
      });
      const policy = records.find((r) => r.controlId === 'A.2.2');
      expect(policy?.note).toBe('Approved by the board');
      expect(policy?.evidenceReferences).toMatch(
        /^AI policy \(document, files\.example\.com\/policy\.pdf, added \d{4}-\d\d-\d\d\)$/,
      );

      const piped = await runComply(['export', 'soa', '--format', 'markdown'], env);
      expect(piped.code).toBe(0);
      expect(piped.stdout.startsWith('# Statement of Applicability')).toBe(true);
      expect(piped.stderr).toBe('');
    },
    CLI_TIMEOUT_MS,
  );

  it(
    'exits non-zero on a bad format, an unknown snapshot or a key without the export scope',
    async () => {
      const format = await runComply(['export', 'soa', '--format', 'xml'], env);
      expect(format.code).toBe(2);
      const snapshot = await runComply(
        ['export', 'soa', '--snapshot', 'nope', '-o', path.join(dir, 'x')],
        env,
      );
      expect(snapshot.code).toBe(1);
      expect(snapshot.stderr).toContain('no snapshot labelled "nope" (nor with that id) in acme');
      const { key } = (await (await api('POST', '/orgs/acme/keys', { scopes: ['read'] })).json()) as {
        key: string;
      };
      const refused = await runComply(['export', 'oscal'], { ...env, COMPLY_API_KEY: key });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('403 FORBIDDEN');
    },
    CLI_TIMEOUT_MS,
  );
});
