import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { type CliResult, runComply } from '../support/daemon.js';
import { api, enc, startDaemonOn } from './check-support.js';

interface Exclusion {
  requirementId: string;
  state: string;
  reviewer: string | null;
  justification: string;
}
interface View {
  orgId: string;
  profile: {
    euAiActRoles: string[];
    generalPurposeModels: boolean;
    updatedBy: string;
    updatedAt: string;
  } | null;
  exclusions: Exclusion[];
  bindNoOne: { requirementId: string }[];
}

// One database kind is enough here: the API's behaviour on both is tested in test/applicability.
const kind = dbKinds[0];

/**
 * `comply profile` shows what the org is under the EU AI Act and each exclusion with its state;
 * `comply profile set` previews (--dry-run) and saves it, saying what it excluded, what a person's record kept
 * and what applies again.
 */
describe(`comply profile on ${kind}`, { timeout: 120_000 }, () => {
  let stop: () => Promise<void>;
  let call: ReturnType<typeof api>;
  let env: Record<string, string>;

  const ok = (result: CliResult) => {
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };
  const json = (result: CliResult) => JSON.parse(ok(result)) as View;
  const record = (requirementId: string) =>
    call<{ applicable: boolean; reviewer: string | null }>(
      'GET',
      `/orgs/acme/frameworks/eu-ai-act/requirements/${enc(requirementId)}`,
    );

  beforeAll(async () => {
    const started = await startDaemonOn(kind);
    stop = started.stop;
    call = api(started.daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    env = { COMPLY_URL: started.daemon.url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme' };
  }, 120_000);
  afterAll(async () => {
    await stop?.();
  });

  it('says there is no profile yet, how to give one, and which provisions bind no organization', async () => {
    const text = ok(await runComply(['profile'], env));
    expect(text).toContain('No applicability profile yet');
    expect(text).toContain('comply profile set --role deployer');
    expect(text).toMatch(/Never gaps, as they bind no organization: .*Art\. 99/);
    const view = json(await runComply(['profile', 'show', '--json'], env));
    expect(view).toMatchObject({ orgId: 'acme', profile: null, exclusions: [] });
    expect(view.bindNoOne.map((p) => p.requirementId)).toContain('Art. 113');
  });

  it('previews with --dry-run, writing nothing', async () => {
    const result = await runComply(['profile', 'set', '--role', 'deployer', '--dry-run'], env);
    const text = ok(result);
    expect(text).toContain('Dry run: nothing was written');
    expect(text).toMatch(/Would exclude \d+ EU AI Act requirement\(s\): .*Art\. 9\b/);
    const preview = json(
      await runComply(['profile', 'set', '--role', 'deployer', '--dry-run', '--json'], env),
    );
    expect(preview.profile).toBeNull();
    expect(preview.exclusions.every((e) => e.state === 'proposed')).toBe(true);
    expect((await record('Art. 9')).applicable).toBe(true);
    expect(json(await runComply(['profile', '--json'], env)).profile).toBeNull();
  });

  it('saves the profile, and shows it with each exclusion and its state', async () => {
    // A person already judged Art. 12: their record stays.
    await call('PUT', `/orgs/acme/frameworks/eu-ai-act/requirements/${enc('Art. 12')}/applicability`, {
      applicable: true,
      justification: 'We also place a logging product on the market',
      reviewer: 'Dana Officer',
    });
    const text = ok(await runComply(['profile', 'set', '--role', 'deployer'], env));
    expect(text).toContain('Saved the applicability profile.');
    expect(text).toMatch(/Excluded \d+ EU AI Act requirement\(s\): .*Art\. 9\b/);
    expect(text).toContain('Kept as a person recorded it (1): Art. 12 applies (Dana Officer)');
    expect(await record('Art. 9')).toMatchObject({ applicable: false, reviewer: 'applicability profile' });
    expect(await record('Art. 12')).toMatchObject({ applicable: true, reviewer: 'Dana Officer' });

    const view = json(await runComply(['profile', '--json'], env));
    expect(view.profile).toMatchObject({ euAiActRoles: ['deployer'], generalPurposeModels: false });
    const shown = ok(await runComply(['profile'], env));
    expect(shown).toMatch(/EU AI Act roles\s+deployer/);
    expect(shown).toMatch(/general-purpose AI models\s+no/);
    expect(shown).toMatch(/saved\s+\d{4}-/);
    expect(shown).toContain(`${view.profile?.updatedAt} by ${view.profile?.updatedBy}`);
    expect(shown).toContain(`${view.exclusions.length} EU AI Act requirement(s) excluded`);
    expect(shown).toMatch(/1 overridden/);
    // The table: a row per exclusion with its state and reviewer, and the reason.
    const art9 = shown.split('\n').find((line) => line.startsWith('Art. 9 '));
    expect(art9).toMatch(/applied\s+applicability profile/);
    expect(art9).toContain('it binds providers, and the organization is a deployer');
    const art12 = shown.split('\n').find((line) => line.startsWith('Art. 12 '));
    expect(art12).toMatch(/overridden\s+Dana Officer/);
  });

  it('says what applies again when the profile changes', async () => {
    const text = ok(
      await runComply(
        ['profile', 'set', '--role', 'deployer', '--role', 'provider', '--general-purpose-models'],
        env,
      ),
    );
    expect(text).toMatch(/Applies again \(\d+\): .*Art\. 9\b/);
    expect(text).not.toMatch(/Excluded .*Art\. 9\b/);
    expect(await record('Art. 9')).toMatchObject({ applicable: true, reviewer: null });
    const view = json(await runComply(['profile', '--json'], env));
    expect(view.profile).toMatchObject({
      euAiActRoles: ['deployer', 'provider'],
      generalPurposeModels: true,
    });
  });

  it('refuses an unknown role, a missing --role and none with another role (exit 2)', async () => {
    const unknown = await runComply(['profile', 'set', '--role', 'manufacturer'], env);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('expected one of provider, deployer');
    const missing = await runComply(['profile', 'set', '--biometrics'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--role');
    const both = await runComply(['profile', 'set', '--role', 'none', '--role', 'deployer'], env);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--role none cannot be combined');
    // None of the roles: every role-bound requirement is excluded.
    const none = json(await runComply(['profile', 'set', '--role', 'none', '--dry-run', '--json'], env));
    expect(none.exclusions.map((e) => e.requirementId)).toEqual(
      expect.arrayContaining(['Art. 9', 'Art. 26(1)-(3)']),
    );
  });

  it('explains itself in --help, with an example', async () => {
    const help = ok(await runComply(['profile', 'set', '--help'], env));
    expect(help).toContain('--general-purpose-models');
    expect(help).toContain('$ comply --org acme profile set --role deployer');
    expect(ok(await runComply(['--help'], env))).toMatch(/profile\s+.*EU AI Act/);
  });
});
