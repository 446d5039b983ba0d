import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCliConfig } from '../../src/clients/cli/config.js';
import { ADMIN_KEY, createScratchDatabase, dbKinds } from '../support/app.js';
import {
  type CliResult,
  type Daemon,
  runComply,
  runComplyWithInput,
  startDaemon,
} from '../support/daemon.js';
import { api } from './check-support.js';

interface Event {
  eventId: string;
  seq: number;
  action: string;
  actor: { type: string; id: string; name: string };
  resource: { type: string; id: string };
  changes?: Record<string, { from: unknown; to: unknown }>;
}

const PASSWORD = 'correct horse battery staple';

// Altering a row of the audit trail under a running daemon needs a database another client can reach.
const kind = dbKinds.includes('postgres') ? 'postgres' : 'pglite';

describe(`comply login, members and audit-log on ${kind}`, { timeout: 120_000 }, () => {
  let daemon: Daemon;
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | null = null;
  let call: ReturnType<typeof api>;
  let configHome: string;
  /** As the platform key. */
  let keyEnv: Record<string, string>;
  /** As whoever `comply login` signed in (no key). */
  let sessionEnv: Record<string, string>;
  let sessionFile: string;

  const accept = async (token: string) => {
    const response = await fetch(`${daemon.url}/api/v1/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: daemon.url },
      body: JSON.stringify({ token, password: PASSWORD }),
    });
    expect(response.status, await response.clone().text()).toBe(200);
  };
  const json = <T = Record<string, unknown>>(result: CliResult): T => {
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    scratch = kind === 'postgres' ? await createScratchDatabase() : null;
    daemon = await startDaemon(scratch ? { DATABASE_URL: scratch.url } : {});
    call = api(daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    configHome = mkdtempSync(path.join(tmpdir(), 'comply-config-'));
    sessionFile = path.join(configHome, 'comply', 'session.json');
    keyEnv = {
      COMPLY_URL: daemon.url,
      COMPLY_API_KEY: ADMIN_KEY,
      COMPLY_ORG: 'acme',
      XDG_CONFIG_HOME: configHome,
    };
    sessionEnv = { ...keyEnv, COMPLY_API_KEY: '' };
  }, 120_000);
  afterAll(async () => {
    await daemon?.stop();
    await scratch?.drop();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  it('keeps the session in $XDG_CONFIG_HOME/comply, else ~/.config/comply', () => {
    expect(loadCliConfig({ XDG_CONFIG_HOME: '/x', HOME: '/h' }).sessionFile).toBe('/x/comply/session.json');
    expect(loadCliConfig({ HOME: '/h' }).sessionFile).toBe('/h/.config/comply/session.json');
  });

  it('invites the first owner with a key and accepts the invitation', async () => {
    const created = json<{ status: string; role: string; invitation: { token: string; url: string } }>(
      await runComply(
        ['members', 'invite', 'alice@example.com', '--name', 'Alice Owner', '--role', 'owner', '--json'],
        keyEnv,
      ),
    );
    expect(created).toMatchObject({ status: 'invited', role: 'owner' });
    await accept(created.invitation.token);

    const badRole = await runComply(
      ['members', 'invite', 'x@example.com', '--name', 'X', '--role', 'boss'],
      keyEnv,
    );
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain(
      '--role must be one of: viewer, editor, approver, owner, auditor (not "boss")',
    );
    const noName = await runComply(['members', 'invite', 'x@example.com', '--role', 'viewer'], keyEnv);
    expect(noName.code).toBe(2);
    const badDate = await runComply(
      ['members', 'invite', 'x@example.com', '--name', 'X', '--role', 'auditor', '--expires', 'soon'],
      keyEnv,
    );
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--expires: use a date like 2027-01-27');
  });

  it('signs in with --password-stdin and keeps the session readable by its owner only', async () => {
    const wrong = await runComplyWithInput(
      ['login', '--email', 'alice@example.com', '--password-stdin'],
      sessionEnv,
      'not the password\n',
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('401');
    expect(existsSync(sessionFile)).toBe(false);

    const noEmail = await runComplyWithInput(['login', '--password-stdin'], sessionEnv, `${PASSWORD}\n`);
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr).toContain('--password-stdin needs --email');
    const noTerminal = await runComply(['login', '--email', 'alice@example.com'], sessionEnv);
    expect(noTerminal.code).toBe(2);
    expect(noTerminal.stderr).toContain('No terminal to ask for the password: pass --password-stdin');

    const login = await runComplyWithInput(
      ['login', '--email', 'alice@example.com', '--password-stdin'],
      sessionEnv,
      `${PASSWORD}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Signed in to ${daemon.url} as Alice Owner <alice@example.com>`);
    expect(login.stdout).toContain('Organizations: acme (owner)');
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(sessionFile)).mode & 0o777).toBe(0o700);
    const stored = JSON.parse(readFileSync(sessionFile, 'utf8'));
    expect(stored).toEqual({
      url: daemon.url,
      cookie: expect.stringMatching(/^\S{16,}$/),
      email: 'alice@example.com',
      savedAt: expect.any(String),
    });

    // A key given as well takes precedence; the login says so.
    const withKey = await runComplyWithInput(
      ['login', '--email', 'alice@example.com', '--password-stdin', '--json'],
      keyEnv,
      PASSWORD,
    );
    expect(json(withKey)).toMatchObject({ user: { email: 'alice@example.com' }, orgs: [{ orgId: 'acme' }] });
    expect(withKey.stderr).toContain('an API key is set');
    expect(statSync(sessionFile).mode & 0o777).toBe(0o600);
  });

  it('shows who the CLI acts as: the person, or the key that takes precedence', async () => {
    const person = json(await runComply(['whoami', '--json'], sessionEnv));
    expect(person).toMatchObject({
      type: 'user',
      email: 'alice@example.com',
      name: 'Alice Owner',
      platformAdmin: false,
      orgs: [{ orgId: 'acme', role: 'owner' }],
    });
    const text = await runComply(['whoami'], sessionEnv);
    expect(text.stdout).toMatch(/signed in as\s+Alice Owner <alice@example.com>/);
    expect(text.stdout).toMatch(/^acme\s+owner\s+/m);

    expect(json(await runComply(['whoami', '--json'], keyEnv))).toMatchObject({
      type: 'key',
      platform: true,
    });
    const { key } = await call<{ key: string }>('POST', '/orgs/acme/keys', {
      scopes: ['read'],
      name: 'reader',
    });
    const asKey = await runComply(['whoami'], { ...sessionEnv, COMPLY_API_KEY: key });
    expect(asKey.stdout).toMatch(/signed in as\s+API key/);
    expect(asKey.stdout).toMatch(/org\s+acme/);

    // The session is only sent to the daemon that issued it.
    const elsewhere = await runComply(['whoami'], { ...sessionEnv, COMPLY_URL: 'http://127.0.0.1:9' });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(`the stored session is for ${daemon.url}`);
  });

  it('invites, lists and changes members through the session', async () => {
    const invited = await runComply(
      ['members', 'invite', 'bob@example.com', '--name', 'Bob Editor', '--role', 'approver'],
      sessionEnv,
    );
    expect(invited.code, invited.stderr).toBe(0);
    expect(invited.stdout).toMatch(/status\s+invited/);
    expect(invited.stdout).toContain('it is not shown again');
    const link = invited.stdout.trim().split('\n').at(-1) ?? '';
    expect(link).toMatch(/^https?:\/\/\S+$/);
    expect(invited.stdout.split(link).length).toBe(2); // printed once

    const auditor = json<{ role: string; expiresAt: string; frameworkIds: string[] }>(
      await runComply(
        [
          'members',
          'invite',
          'eve@audit.example',
          '--name',
          'Eve Auditor',
          '--role',
          'auditor',
          '--expires',
          '2099-06-30',
          '--frameworks',
          'iso-42001,eu-ai-act',
          '--json',
        ],
        sessionEnv,
      ),
    );
    expect(auditor).toMatchObject({ role: 'auditor', frameworkIds: ['iso-42001', 'eu-ai-act'] });
    expect(new Date(auditor.expiresAt).toISOString()).toBe('2099-06-30T23:59:59.999Z');

    const list = await runComply(['members', 'list'], sessionEnv);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.split('\n')[0]).toMatch(/^USER ID\s+EMAIL\s+NAME\s+ROLE\s+STATUS\s+LAST SIGN-IN/);
    expect(list.stdout).toMatch(/alice@example\.com\s+Alice Owner\s+owner\s+active/);
    expect(list.stdout).toMatch(/bob@example\.com\s+Bob Editor\s+approver\s+invited/);

    const role = json(
      await runComply(['members', 'set-role', 'bob@example.com', 'editor', '--json'], sessionEnv),
    );
    expect(role).toMatchObject({ email: 'bob@example.com', role: 'editor' });
    const disabled = await runComply(['members', 'disable', 'bob@example.com'], sessionEnv);
    expect(disabled.stdout).toMatch(/status\s+disabled/);
    const members = json<{ members: { userId: string; email: string; status: string }[] }>(
      await runComply(['members', 'list', '--json'], sessionEnv),
    ).members;
    const bob = members.find((m) => m.email === 'bob@example.com');
    expect(bob?.status).toBe('disabled');
    const enabled = json(await runComply(['members', 'enable', bob?.userId ?? '', '--json'], sessionEnv));
    expect(enabled).toMatchObject({ status: 'active' });

    const removed = await runComply(['members', 'remove', 'eve@audit.example'], sessionEnv);
    expect(removed.stdout).toContain('Removed eve@audit.example');
    expect((await runComply(['members', 'list'], sessionEnv)).stdout).not.toContain('eve@audit.example');

    const lastOwner = await runComply(['members', 'set-role', 'alice@example.com', 'viewer'], sessionEnv);
    expect(lastOwner.code).toBe(1);
    expect(lastOwner.stderr).toContain('409');
    const nobody = await runComply(['members', 'disable', 'nobody@example.com'], sessionEnv);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('acme has no member nobody@example.com');
    const badRole = await runComply(['members', 'set-role', 'bob@example.com', 'boss'], sessionEnv);
    expect(badRole.code).toBe(2);
  });

  it('reads the audit trail: who did what, filtered and paged', async () => {
    const log = json<{ orgId: string; events: Event[]; nextCursor: string | null }>(
      await runComply(['audit-log', '--limit', '500', '--json'], sessionEnv),
    );
    expect(log.orgId).toBe('acme');
    expect(log.nextCursor).toBeNull();
    const seqs = log.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(seqs.at(-1)).toBe(1);
    const created = log.events.filter((e) => e.action === 'member.created');
    expect(created.map((e) => [e.actor.type, e.actor.name])).toEqual(
      expect.arrayContaining([
        ['user', 'Alice Owner'],
        ['key', expect.any(String)],
      ]),
    );
    expect(log.events.some((e) => e.action === 'member.updated' && e.changes?.role)).toBe(true);

    const text = await runComply(['audit-log'], sessionEnv);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^\d+ event\(s\) of acme, newest first/);
    expect(text.stdout).toMatch(/^SEQ\s+AT\s+ACTOR\s+ACTION\s+RESOURCE\s+CHANGED/m);
    expect(text.stdout).toMatch(/Alice Owner \(user\)\s+member\.updated\s+member \S+\s+role/);

    const updates = json<{ events: Event[] }>(
      await runComply(['audit-log', '--action', 'member.updated', '--json'], sessionEnv),
    );
    expect(updates.events.length).toBeGreaterThan(0);
    expect(updates.events.every((e) => e.action === 'member.updated')).toBe(true);
    const alice = (await runComply(['whoami', '--json'], sessionEnv).then(json)) as { userId: string };
    const byAlice = json<{ events: Event[] }>(
      await runComply(
        ['audit-log', '--actor', alice.userId, '--resource-type', 'member', '--json'],
        sessionEnv,
      ),
    );
    expect(byAlice.events.length).toBeGreaterThan(0);
    expect(byAlice.events.every((e) => e.actor.id === alice.userId && e.resource.type === 'member')).toBe(
      true,
    );
    const future = json<{ events: Event[] }>(
      await runComply(['audit-log', '--from', '2099-01-01', '--json'], sessionEnv),
    );
    expect(future.events).toEqual([]);

    const page = await runComply(['audit-log', '--limit', '2'], sessionEnv);
    expect(page.stdout).toMatch(/older ones: --cursor \S+ \(or --all\)/);
    const all = json<{ events: Event[]; nextCursor: null }>(
      await runComply(['audit-log', '--all', '--limit', '5', '--json'], sessionEnv),
    );
    expect(all.nextCursor).toBeNull();
    expect(all.events.map((e) => e.seq)).toEqual(seqs);

    const badLimit = await runComply(['audit-log', '--limit', '900'], sessionEnv);
    expect(badLimit.code).toBe(2);
  });

  it('verifies the hash chain, exit code 0 when intact', async () => {
    const intact = await runComply(['audit-log', '--verify'], sessionEnv);
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toMatch(/^intact {2}\d+ event\(s\) of acme, head [0-9a-f]{64}$/m);
    expect(json(await runComply(['audit-log', '--verify', '--json'], sessionEnv))).toMatchObject({
      orgId: 'acme',
      valid: true,
    });
    const mixed = await runComply(['audit-log', '--verify', '--limit', '3'], sessionEnv);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain('--verify checks the whole log; it takes no --limit');
  });

  it('reads the platform log of sign-ins with a platform key only', async () => {
    const platform = json<{ orgId: null; events: Event[] }>(
      await runComply(['audit-log', '--platform', '--json'], keyEnv),
    );
    expect(platform.orgId).toBeNull();
    expect(platform.events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['auth.signed_in', 'auth.sign_in_failed']),
    );
    expect((await runComply(['audit-log', '--platform', '--verify'], keyEnv)).code).toBe(0);
    const refused = await runComply(['audit-log', '--platform'], sessionEnv);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('403');
  });

  it.skipIf(kind !== 'postgres')(
    'names the first altered event and exits 1 when the chain is broken',
    async () => {
      const { events } = await call<{ events: Event[] }>('GET', '/orgs/acme/audit-log?limit=500');
      const second = events.find((e) => e.seq === 2);
      expect(second).toBeDefined();
      await tamper(scratch?.url ?? '', second?.eventId ?? '');

      const broken = await runComply(['audit-log', '--verify'], sessionEnv);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain(
        `BROKEN  the hash chain of acme breaks at seq 2 (event ${second?.eventId})`,
      );
      expect(broken.stdout).toMatch(/^action\s+tampered\.action$/m);
      const asJson = await runComply(['audit-log', '--verify', '--json'], sessionEnv);
      expect(asJson.code).toBe(1);
      expect(JSON.parse(asJson.stdout)).toMatchObject({
        valid: false,
        firstInvalid: { seq: 2, eventId: second?.eventId },
      });
    },
  );

  it('tells a person whose session ended to sign in again', async () => {
    const bobHome = mkdtempSync(path.join(tmpdir(), 'comply-config-'));
    try {
      const bobEnv = { ...sessionEnv, XDG_CONFIG_HOME: bobHome };
      const invited = json<{ invitation: { token: string } }>(
        await runComply(
          ['members', 'invite', 'carol@example.com', '--name', 'Carol', '--role', 'viewer', '--json'],
          sessionEnv,
        ),
      );
      await accept(invited.invitation.token);
      const login = await runComplyWithInput(
        ['login', '--email', 'carol@example.com', '--password-stdin'],
        bobEnv,
        PASSWORD,
      );
      expect(login.code, login.stderr).toBe(0);
      expect((await runComply(['members', 'list'], bobEnv)).code).toBe(1); // a viewer cannot manage members
      expect((await runComply(['orgs', 'show'], bobEnv)).code).toBe(0);
      expect((await runComply(['members', 'disable', 'carol@example.com'], sessionEnv)).code).toBe(0);
      const ended = await runComply(['orgs', 'show'], bobEnv);
      expect(ended.code).toBe(1);
      expect(ended.stderr).toContain('sign in again with `comply login`');
      expect(ended.stderr).toContain('401');
    } finally {
      rmSync(bobHome, { recursive: true, force: true });
    }
  });

  it('signs out: the daemon forgets the session and the file is gone', async () => {
    const { cookie } = JSON.parse(readFileSync(sessionFile, 'utf8'));
    const out = await runComply(['logout'], sessionEnv);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toContain(`Signed out alice@example.com from ${daemon.url}`);
    expect(existsSync(sessionFile)).toBe(false);
    const me = await fetch(`${daemon.url}/api/v1/me`, { headers: { cookie: `comply_session=${cookie}` } });
    expect(me.status).toBe(401);
    const whoami = await runComply(['whoami'], sessionEnv);
    expect(whoami.code).toBe(1);
    expect(whoami.stderr).toContain('Not signed in: run `comply login` or set COMPLY_API_KEY');
    expect((await runComply(['logout'], sessionEnv)).stdout).toContain('Not signed in.');

    // A session the daemon no longer knows is still removed.
    writeFileSync(
      sessionFile,
      JSON.stringify({ url: daemon.url, cookie: cookie, email: 'alice@example.com', savedAt: '' }),
      { mode: 0o600 },
    );
    expect((await runComply(['logout'], sessionEnv)).code).toBe(0);
    expect(existsSync(sessionFile)).toBe(false);
  });
});

/** Changes one event's row behind the daemon's back, as someone with database access might. */
async function tamper(url: string, eventId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // Triggers (which may refuse changes to the log) are off for this session only: a superuser's doing.
    await client.query('set session_replication_role = replica');
    const { rowCount } = await client.query(
      `update audit_events set action = 'tampered.action' where event_id = $1`,
      [eventId],
    );
    expect(rowCount).toBe(1);
  } finally {
    await client.end();
  }
}
