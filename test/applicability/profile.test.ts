/**
 * The applicability profile: an org says what it is under the EU AI Act, and comply writes the exclusions that
 * follow into its records with generated justifications, leaving every judgement a person made alone; gaps
 * leave out provisions that bind no organization and rank the rest by the systems each concerns; conflicts
 * ignore excluded requirements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';

interface Exclusion {
  requirementId: string;
  justification: string;
  state: string;
  reviewer: string | null;
}
interface Gap {
  controlId: string;
  priority: string;
}

describe.each(dbKinds)('applicability profile on %s', { timeout: 120_000 }, (kind) => {
  let t: TestApp;
  const org = `${kind}-profile`;
  const base = `/api/v1/orgs/${org}`;
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) => {
    const res = await t.request({ method, url, body });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const record = async (requirementId: string) =>
    call('GET', `${base}/frameworks/eu-ai-act/requirements/${encodeURIComponent(requirementId)}`);
  const gaps = async (): Promise<Gap[]> =>
    (await call('GET', `/api/v1/cte/gaps/eu-ai-act?orgId=${org}`)).gaps;
  const deployer = {
    euAiActRoles: ['deployer'],
    generalPurposeModels: false,
    biometrics: false,
    lawEnforcement: false,
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg(org);
    // One high-risk CV-screening model and a limited-risk support chatbot.
    await call('POST', `${base}/ai-systems`, {
      name: 'cv-screening',
      owner: 'HR',
      purpose: 'Rank job applicants',
      riskLevel: 'high',
    });
    await call('POST', `${base}/ai-systems`, {
      name: 'support-chatbot',
      owner: 'Support',
      purpose: 'Answer customers',
      riskLevel: 'limited',
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts without a profile, listing the provisions that bind no organization', async () => {
    const view = await call('GET', `${base}/applicability-profile`);
    expect(view).toMatchObject({ orgId: org, profile: null, exclusions: [] });
    expect(view.bindNoOne.map((entry: { requirementId: string }) => entry.requirementId)).toEqual(
      expect.arrayContaining(['Art. 99', 'Art. 113']),
    );
  });

  it('leaves penalties and entry into force out of the gaps, and ranks by the systems a requirement concerns', async () => {
    const before = await gaps();
    const ids = before.map((gap) => gap.controlId);
    expect(ids).not.toContain('Art. 99');
    expect(ids).not.toContain('Art. 113');
    const priority = (id: string) => before.find((gap) => gap.controlId === id)?.priority;
    // A high-risk duty counts the high-risk system; a prohibition counts no system (none is unacceptable);
    // a GPAI-model duty counts none either.
    expect(priority('Art. 9')).toBe('critical');
    expect(priority('Art. 5(1)')).not.toBe('critical');
    expect(priority('Art. 53(1)(a)-(b)')).not.toBe('critical');
  });

  it('previews with dryRun, writing nothing', async () => {
    const preview = await call('PUT', `${base}/applicability-profile?dryRun=true`, deployer);
    expect(preview.profile).toBeNull();
    const excluded = preview.exclusions.map((exclusion: Exclusion) => exclusion.requirementId);
    expect(excluded).toEqual(expect.arrayContaining(['Art. 9', 'Art. 16', 'Art. 23', 'Art. 24', 'Art. 51']));
    expect(preview.exclusions.every((exclusion: Exclusion) => exclusion.state === 'proposed')).toBe(true);
    expect((await record('Art. 9')).applicable).toBe(true);
  });

  it('writes the exclusions with generated justifications, and gaps and scores follow', async () => {
    const gapsBefore = (await gaps()).length;
    const view = await call('PUT', `${base}/applicability-profile`, deployer);
    expect(view.profile).toMatchObject({ ...deployer, updatedBy: expect.any(String) });
    const art9 = view.exclusions.find((exclusion: Exclusion) => exclusion.requirementId === 'Art. 9');
    expect(art9).toMatchObject({ state: 'applied', reviewer: 'applicability profile' });
    expect(art9.justification).toMatch(/binds providers, and the organization is a deployer/);
    // Deployer duties stay; the law-enforcement exception and post-remote biometric identification go.
    const excluded = view.exclusions.map((exclusion: Exclusion) => exclusion.requirementId);
    expect(excluded).not.toContain('Art. 26(1)-(3)');
    expect(excluded).not.toContain('Art. 4');
    expect(excluded).toEqual(expect.arrayContaining(['Art. 5(3)', 'Art. 26(10)', 'Art. 50(3)']));
    expect(await record('Art. 9')).toMatchObject({
      applicable: false,
      reviewer: 'applicability profile',
      justification: art9.justification,
    });
    const after = await gaps();
    expect(after.map((gap) => gap.controlId)).not.toContain('Art. 9');
    expect(after.length).toBeLessThan(gapsBefore);
    // Saving the same profile again writes nothing new.
    const changesBefore = (await call('GET', `${base}/audit-log?limit=1`)).events[0].seq;
    await call('PUT', `${base}/applicability-profile`, deployer);
    const changesAfter = (await call('GET', `${base}/audit-log?limit=1`)).events[0].seq;
    expect(changesAfter - changesBefore).toBe(0);
  });

  it('keeps the officer’s own judgement, and withdraws its exclusions that no longer follow', async () => {
    await call('PUT', `${base}/frameworks/eu-ai-act/requirements/Art.%2012/applicability`, {
      applicable: true,
      justification: 'We also place a logging product on the market',
      reviewer: 'Dana Officer',
    });
    const view = await call('PUT', `${base}/applicability-profile`, deployer);
    const art12 = view.exclusions.find((exclusion: Exclusion) => exclusion.requirementId === 'Art. 12');
    expect(art12).toMatchObject({ state: 'overridden', reviewer: 'Dana Officer' });
    expect((await record('Art. 12')).applicable).toBe(true);
    // Now a provider too: the provider duties apply again; the officer's record is untouched.
    const both = await call('PUT', `${base}/applicability-profile`, {
      ...deployer,
      euAiActRoles: ['provider', 'deployer'],
    });
    const excluded = both.exclusions.map((exclusion: Exclusion) => exclusion.requirementId);
    expect(excluded).not.toContain('Art. 9');
    expect(await record('Art. 9')).toMatchObject({ applicable: true, reviewer: null, justification: null });
    expect(await record('Art. 12')).toMatchObject({ applicable: true, reviewer: 'Dana Officer' });
    expect(excluded).toContain('Art. 23');
  });

  it('leaves conflicts that touch an excluded requirement out', async () => {
    const all = await call('GET', '/api/v1/cte/conflicts');
    const mine = await call('GET', `/api/v1/cte/conflicts?orgId=${org}`);
    expect(mine.conflicts.length).toBeLessThanOrEqual(all.conflicts.length);
    // Exclude every requirement of the first conflict that touches the EU AI Act: it leaves the org's list.
    const touching = all.conflicts.find((conflict: { requirements: { frameworkId: string }[] }) =>
      conflict.requirements.some((ref) => ref.frameworkId === 'eu-ai-act'),
    );
    const ref = touching.requirements.find((r: { frameworkId: string }) => r.frameworkId === 'eu-ai-act');
    await call(
      'PUT',
      `${base}/frameworks/eu-ai-act/requirements/${encodeURIComponent(ref.requirementId)}/applicability`,
      { applicable: false, justification: 'Out of scope for us', reviewer: 'Dana Officer' },
    );
    const after = await call('GET', `/api/v1/cte/conflicts?orgId=${org}`);
    const ids = after.conflicts.map((conflict: { conflictId: string }) => conflict.conflictId);
    expect(ids).not.toContain(touching.conflictId);
    const everything = await call('GET', '/api/v1/cte/conflicts');
    expect(everything.conflicts.map((conflict: { conflictId: string }) => conflict.conflictId)).toContain(
      touching.conflictId,
    );
  });

  it('refuses a bad profile with 400 and a key without write with 403', async () => {
    const bad = await t.request({
      method: 'PUT',
      url: `${base}/applicability-profile`,
      body: { ...deployer, euAiActRoles: ['manufacturer'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBeDefined();
    const missing = await t.request({
      method: 'PUT',
      url: `${base}/applicability-profile`,
      body: { euAiActRoles: [] },
    });
    expect(missing.statusCode).toBe(400);
    const reader = await t.createKey(org, ['read']);
    const refused = await t.request({
      method: 'PUT',
      url: `${base}/applicability-profile`,
      body: deployer,
      key: reader,
    });
    expect(refused.statusCode).toBe(403);
  });
});
