import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY } from '../support/app.js';
import { type Daemon, runComply, startDaemon } from '../support/daemon.js';

describe('comply CLI against a running daemon', () => {
  let daemon: Daemon;
  let env: Record<string, string>;
  beforeAll(async () => {
    daemon = await startDaemon();
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme' };
  }, 90_000);
  afterAll(async () => {
    await daemon?.stop();
  });

  it('creates and shows an org', async () => {
    const created = await runComply(['orgs', 'create', 'acme', '--name', 'Acme AI', '--json'], env);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ orgId: 'acme', name: 'Acme AI' });
    const shown = await runComply(['orgs', 'show'], env);
    expect(shown.stdout).toMatch(/orgId\s+acme/);
    expect(shown.stdout).toMatch(/not started\s+38/);
  });

  it('lists, searches and changes controls', async () => {
    const list = await runComply(['controls', 'list', '--domain', 'A.7'], { ...env, COMPLY_ORG: '' });
    expect(list.code).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^CONTROL\s+DOMAIN\s+TITLE/);
    expect(list.stdout).toContain('A.7.4');
    expect(list.stdout).not.toContain('\u001b['); // plain text when piped

    const search = await runComply(['controls', 'list', '--search', 'event logs', '--json'], env);
    expect(JSON.parse(search.stdout).controls[0].controlId).toBe('A.6.2.8');

    const status = await runComply(
      ['controls', 'status', 'A.6.2.8', 'implemented', '--reviewer', 'alice', '--json'],
      env,
    );
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ status: 'implemented', reviewer: 'alice' });

    const excluded = await runComply(
      [
        'controls',
        'applicability',
        'A.10.4',
        '--applicable',
        'false',
        '--justification',
        'no customers',
        '--reviewer',
        'bob',
      ],
      env,
    );
    expect(excluded.stdout).toMatch(/applicable\s+false/);

    const filtered = await runComply(['controls', 'list', '--applicable', 'false', '--json'], env);
    expect(JSON.parse(filtered.stdout).controls.map((c: { controlId: string }) => c.controlId)).toEqual([
      'A.10.4',
    ]);
  });

  it('issues, lists and revokes keys', async () => {
    const created = await runComply(['keys', 'create', '--scopes', 'read', '--name', 'ci', '--json'], env);
    const { keyId, key } = JSON.parse(created.stdout);
    expect((await runComply(['orgs', 'show', '--json'], { ...env, COMPLY_API_KEY: key })).code).toBe(0);
    const listed = await runComply(['keys', 'list'], env);
    expect(listed.stdout).toContain(keyId);
    expect(listed.stdout).not.toContain(key);
    expect((await runComply(['keys', 'revoke', keyId], env)).code).toBe(0);
    const refused = await runComply(['orgs', 'show'], { ...env, COMPLY_API_KEY: key });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Invalid or revoked API key (401 UNAUTHORIZED)');
  });

  it('exits non-zero with the API message, and distinguishes usage and connection errors', async () => {
    const missing = await runComply(['orgs', 'show', 'nope'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('Organization not found (404 RESOURCE_NOT_FOUND)');
    const usage = await runComply(['controls', 'status', 'A.2.2'], env);
    expect(usage.code).toBe(2);
    const badScope = await runComply(['keys', 'create', '--scopes', 'root'], env);
    expect(badScope.code).toBe(2);
    const down = await runComply(['orgs', 'show'], { ...env, COMPLY_URL: 'http://127.0.0.1:9' });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('Cannot reach comply');
  });

  it('refuses a second process on the embedded database', async () => {
    const direct = await runComply(['keys', 'create', '--admin', '--direct'], {
      COMPLY_DATA_DIR: daemon.dataDir,
    });
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain('is in use by process');
  });

  it('shuts down cleanly on SIGTERM', async () => {
    expect(await daemon.stop('SIGTERM')).toBe(0);
    expect(daemon.output()).toContain('shutting down');
  });
});
