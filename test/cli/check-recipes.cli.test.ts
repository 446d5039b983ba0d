import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { XMLParser } from 'fast-xml-parser';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { policyProblems } from '../../src/clients/gate/policy.js';
import { buildAttestation, signAttestation } from '../../src/clients/sidecar/client.js';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { COMPLY_BIN, type Daemon } from '../support/daemon.js';
import { api, startDaemonOn } from './check-support.js';

/**
 * The README's CI recipes, run as written: the policy file, the GitHub Actions job's `run` steps and the
 * GitLab job's `script`, taken from the fenced blocks of the README section, in a workspace where `comply`
 * is on PATH (as in the image), against a daemon with a CI key.
 */

const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
const section = readme.slice(
  readme.indexOf('## A compliance gate for pipelines'),
  readme.indexOf('\n## ', readme.indexOf('## A compliance gate for pipelines') + 1),
);
const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map(([, lang, body]) => ({
  lang,
  body,
}));
const policyText = blocks.find((b) => b.lang === 'json')?.body ?? '';
const github = parseYaml(blocks.find((b) => b.lang === 'yaml' && b.body.includes('runs-on:'))?.body ?? '{}');
const gitlab = parseYaml(blocks.find((b) => b.lang === 'yaml' && b.body.includes('script:'))?.body ?? '{}');

interface Step {
  name?: string;
  run?: string;
  uses?: string;
  if?: string;
  with?: Record<string, string>;
}

const shell = promisify(execFile);
async function sh(script: string, cwd: string, env: Record<string, string>) {
  try {
    const { stdout, stderr } = await shell('sh', ['-e', '-c', script], {
      cwd,
      env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('the README recipes', () => {
  it('hold a valid policy, a GitHub Actions job and a GitLab CI job', () => {
    expect(policyProblems(JSON.parse(policyText))).toEqual([]);
    const job = github.jobs.compliance;
    expect(Object.keys(job.env).sort()).toEqual(['COMPLY_API_KEY', 'COMPLY_ORG', 'COMPLY_URL']);
    expect(job.steps.filter((s: Step) => s.run)).toHaveLength(2);
    expect(gitlab.compliance.script.length).toBeGreaterThan(2);
    expect(gitlab.compliance.artifacts.reports.junit).toBe('compliance/check.xml');
  });
});

describe.each(dbKinds)('the README CI recipes on %s', { timeout: 180_000 }, (kind) => {
  let daemon: Daemon;
  let stop: () => Promise<void>;
  let dir: string;
  let ciKey: string;
  let call: ReturnType<typeof api>;
  const baseEnv = () => ({
    ...(process.env as Record<string, string>),
    PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`,
    CI: 'true',
    COMPLY_URL: daemon.url,
    COMPLY_API_KEY: ciKey,
  });
  const workspace = (name: string) => {
    const cwd = path.join(dir, name);
    mkdirSync(cwd);
    writeFileSync(path.join(cwd, 'comply.policy.json'), policyText);
    return cwd;
  };

  async function runGithubJob(name: string) {
    const cwd = workspace(name);
    const summary = path.join(dir, `${name}-summary.md`);
    const job = github.jobs.compliance;
    const env = { ...baseEnv(), COMPLY_ORG: job.env.COMPLY_ORG, GITHUB_STEP_SUMMARY: summary };
    const steps: { name: string; code: number; stderr: string }[] = [];
    let failed = false;
    for (const step of job.steps as Step[]) {
      if (!step.run || (failed && step.if !== 'always()')) continue;
      const result = await sh(step.run, cwd, env);
      steps.push({ name: step.name ?? step.run, code: result.code, stderr: result.stderr });
      failed ||= result.code !== 0;
    }
    const upload = (job.steps as Step[]).find((s) => s.uses?.startsWith('actions/upload-artifact'));
    return { cwd, summary, steps, artifacts: path.join(cwd, upload?.with?.path ?? '') };
  }

  async function runGitlabJob(name: string) {
    const cwd = workspace(name);
    const job = gitlab.compliance;
    const result = await sh((job.script as string[]).join('\n'), cwd, { ...baseEnv(), ...job.variables });
    return { cwd, result, junit: path.join(cwd, job.artifacts.reports.junit) };
  }

  const junitCases = (file: string) => {
    const xml = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (n) => n === 'testcase',
    }).parse(readFileSync(file, 'utf8'));
    return xml.testsuites.testsuite.testcase as { classname: string; name: string; failure?: unknown }[];
  };

  beforeAll(async () => {
    ({ daemon, stop } = await startDaemonOn(kind));
    dir = mkdtempSync(path.join(tmpdir(), 'comply-recipes-'));
    mkdirSync(path.join(dir, 'bin'));
    symlinkSync(COMPLY_BIN, path.join(dir, 'bin', 'comply'));
    call = api(daemon.url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    ciKey = (
      await call<{ key: string }>('POST', '/orgs/acme/keys', { scopes: ['read', 'export'], name: 'ci' })
    ).key;
    const { controls } = await call<{ controls: { controlId: string }[] }>('GET', '/controls');
    for (const { controlId } of controls) {
      await call('PUT', `/orgs/acme/controls/${controlId}/status`, { status: 'implemented', reviewer: 'al' });
    }
    await call('POST', '/orgs/acme/compliance/snapshot', { label: 'release-baseline' });
    const triage = await call<{ systemId: string }>('POST', '/orgs/acme/ai-systems', {
      name: 'Triage',
      owner: 'ops',
      purpose: 'triage',
      riskLevel: 'high',
      lifecycleStage: 'deployed',
    });
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    await call('POST', '/orgs/acme/sidecar-keys', {
      publicKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      keyId: 'triage-sidecar',
    });
    const body = buildAttestation({
      level: 'L2',
      epochId: 'today',
      systemId: triage.systemId,
      controlIds: ['A.6.2.6'],
    });
    await call(
      'POST',
      '/orgs/acme/attestations',
      signAttestation(body, { privateKey, keyId: 'triage-sidecar' }),
    );
  }, 180_000);
  afterAll(async () => {
    await stop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exports the SoA and OSCAL as artifacts and passes the gate, then fails it after a regression', async () => {
    const passing = await runGithubJob('github-pass');
    expect(passing.steps.map((s) => [s.name, s.code, s.stderr])).toEqual([
      ['Export the SoA and the OSCAL package', 0, ''],
      ['Compliance gate', 0, ''],
    ]);
    expect(readFileSync(path.join(passing.artifacts, 'soa.md'), 'utf8')).toMatch(/\| A\.6\.2\.8 \|/);
    const zip = unzipSync(readFileSync(path.join(passing.artifacts, 'oscal.zip')));
    expect(Object.keys(zip).sort()).toEqual([
      'assessment-plan.json',
      'assessment-results.json',
      'catalog.json',
      'profile.json',
      'ssp.json',
    ]);
    const cases = junitCases(path.join(passing.artifacts, 'check.xml'));
    expect(cases.map((c) => [c.classname, Boolean(c.failure)])).toEqual([
      ['comply.min-score', false],
      ['comply.max-critical-gaps', false],
      ['comply.min-score', false],
      ['comply.min-score', false],
      ['comply.no-expired-evidence', false],
      ['comply.no-regression', false],
      ['comply.no-regression', false],
      ['comply.ai-systems-attested', false],
    ]);
    expect(readFileSync(passing.summary, 'utf8')).toContain('### comply check: acme ✅ all 8 rules hold');

    const gitlabPass = await runGitlabJob('gitlab-pass');
    expect(gitlabPass.result).toMatchObject({ code: 0, stderr: '' });
    expect(junitCases(gitlabPass.junit).every((c) => !c.failure)).toBe(true);
    expect(readFileSync(path.join(gitlabPass.cwd, 'compliance/check.md'), 'utf8')).toContain(
      '✅ all 8 rules hold',
    );

    // A control goes backwards since the baseline: the same jobs now fail the build at the gate.
    await call('PUT', '/orgs/acme/controls/A.6.2.8/status', { status: 'in_progress', reviewer: 'al' });
    const failing = await runGithubJob('github-fail');
    expect(failing.steps.map((s) => [s.name, s.code])).toEqual([
      ['Export the SoA and the OSCAL package', 0],
      ['Compliance gate', 1],
    ]);
    const failed = junitCases(path.join(failing.artifacts, 'check.xml')).filter((c) => c.failure);
    expect(failed.map((c) => c.name)).toEqual([
      'no requirement went backwards since snapshot "release-baseline"',
    ]);
    expect(readFileSync(failing.summary, 'utf8')).toContain('iso-42001 A.6.2.8: implemented → in\\_progress');
    const gitlabFail = await runGitlabJob('gitlab-fail');
    expect(gitlabFail.result.code).toBe(1);
    expect(gitlabFail.result.stdout).toContain(
      'FAIL  no requirement went backwards since snapshot "release-baseline": 1',
    );
    expect(junitCases(gitlabFail.junit).filter((c) => c.failure)).toHaveLength(1);
  });
});
