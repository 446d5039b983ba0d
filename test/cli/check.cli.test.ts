import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AjvDraft04 from 'ajv-draft-04';
import formats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  POLICY_SCHEMA_FILE,
  POLICY_VALIDATOR_FILE,
  policyValidatorText,
} from '../../scripts/write-policy-schema.js';
import { policyProblems } from '../../src/clients/gate/policy.js';
import { policyJsonSchema } from '../../src/clients/gate/policy.schema.js';
import { buildAttestation, signAttestation } from '../../src/clients/sidecar/client.js';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { type Daemon, runComply } from '../support/daemon.js';
import { api, enc, startDaemonOn } from './check-support.js';

const require = createRequire(import.meta.url);

// SARIF 2.1.0's official JSON Schema (draft-04), as the @microsoft/jest-sarif package ships it.
const sarifSchema = JSON.parse(
  readFileSync(
    path.join(
      path.dirname(require.resolve('@microsoft/jest-sarif/package.json')),
      'lib/schemas/sarif-2.1.0-rtm.5.json',
    ),
    'utf8',
  ),
);
// ajv-draft-04 is CommonJS; under NodeNext its default export is the module object.
const Ajv04 = AjvDraft04 as unknown as typeof AjvDraft04.default;
const addFormats = formats as unknown as typeof formats.default;
// Its language pattern is not valid as a unicode regular expression, so patterns compile without the u flag.
const sarifAjv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(sarifAjv);
const validateSarif = sarifAjv.compile(sarifSchema);

describe('the policy schema', () => {
  it('is what comply.policy.schema.json holds', () => {
    const file = JSON.parse(readFileSync(POLICY_SCHEMA_FILE, 'utf8'));
    expect(file, 'run npx tsx scripts/write-policy-schema.ts').toEqual(policyJsonSchema());
  });

  it('is what the validator comply check runs was compiled from', () => {
    expect(readFileSync(POLICY_VALIDATOR_FILE, 'utf8'), 'run npx tsx scripts/write-policy-schema.ts').toBe(
      policyValidatorText(),
    );
  });

  it('names the JSON path of each bad member', () => {
    expect(policyProblems({ frameworks: { 'iso-42001': { minScore: 120 } } })).toEqual([
      '$.frameworks["iso-42001"].minScore: must be <= 100',
    ]);
    expect(
      policyProblems({
        frameworks: { gdpr: {} },
        aiSystems: { riskLevels: ['huge'] },
        epochs: [{ epochId: 'e', merkleRoot: 'x' }],
        extra: 1,
      }),
    ).toEqual([
      '$.extra: is not a known member',
      '$.frameworks.gdpr: must hold at least one rule (minScore, minDirectScore, maxCriticalGaps, maxImportantGaps)',
      '$.aiSystems.attestedWithinDays: is required',
      '$.aiSystems.riskLevels[0]: must be one of "minimal", "limited", "high", "unacceptable"',
      '$.epochs[0].merkleRoot: must match pattern "^[0-9a-fA-F]{64}$"',
    ]);
    expect(policyProblems({ $schema: './comply.policy.schema.json', noExpiredEvidence: {} })).toEqual([]);
  });
});

// Each command is a process of its own (about 1 s), hence the longer timeout.
describe.each(dbKinds)('comply check on %s', { timeout: 180_000 }, (kind) => {
  let daemon: Daemon;
  let stop: () => Promise<void>;
  let dir: string;
  let env: Record<string, string>;
  let call: ReturnType<typeof api>;
  const check = (org: string, ...args: string[]) =>
    runComply(['check', '--org', org, ...args], { ...env, COMPLY_ORG: '' });

  const setStatus = (org: string, framework: string, requirement: string, status: string) =>
    call('PUT', `/orgs/${org}/frameworks/${framework}/requirements/${enc(requirement)}/status`, {
      status,
      reviewer: 'alice',
    });

  beforeAll(async () => {
    ({ daemon, stop } = await startDaemonOn(kind));
    dir = mkdtempSync(path.join(tmpdir(), 'comply-check-'));
    env = { COMPLY_URL: daemon.url, COMPLY_API_KEY: ADMIN_KEY };
    call = api(daemon.url, ADMIN_KEY);
    for (const org of ['scores', 'evidence', 'regress', 'systems', 'epochs']) {
      await call('POST', '/orgs', { orgId: org, name: `Org ${org}` });
    }
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds scores and gap counts to their limits, and reports each rule in every format', async () => {
    await setStatus('scores', 'iso-42001', 'A.6.2.8', 'implemented');
    await setStatus('scores', 'eu-ai-act', 'Art. 9', 'implemented');
    await call('POST', '/orgs/scores/ai-systems', {
      name: 'Triage',
      owner: 'ops',
      purpose: 'triage of emergency calls',
      riskLevel: 'high',
    });
    const frameworks = await call<{
      frameworks: { frameworkId: string; score: number; directScore: number }[];
    }>('GET', '/orgs/scores/frameworks');
    const iso = frameworks.frameworks.find((f) => f.frameworkId === 'iso-42001');
    const eu = frameworks.frameworks.find((f) => f.frameworkId === 'eu-ai-act');
    expect(iso?.score).toBe(2.6);
    const gaps = await call<{ summary: { critical: number; important: number } }>(
      'GET',
      '/cte/gaps/eu-ai-act?orgId=scores',
    );
    expect(gaps.summary.critical).toBeGreaterThan(0);
    expect(gaps.summary.important).toBeGreaterThan(0);
    const { critical, important } = gaps.summary;
    const direct = eu?.directScore as number;

    const holding = await check(
      'scores',
      '--min-score',
      'iso-42001=2.6',
      '--min-direct-score',
      `eu-ai-act=${direct}`,
      '--max-critical',
      `eu-ai-act=${critical}`,
      '--max-important',
      `eu-ai-act=${important}`,
    );
    expect(holding.stderr).toBe('');
    expect(holding.code).toBe(0);
    expect(holding.stdout).toContain('PASS  iso-42001 score ≥ 2.6: 2.6\n');
    expect(holding.stdout).toContain(`PASS  eu-ai-act direct score ≥ ${direct}: ${direct}\n`);
    expect(holding.stdout).toContain(`PASS  eu-ai-act critical gaps ≤ ${critical}: ${critical}\n`);
    expect(holding.stdout).toContain('comply check scores: all 4 rules hold\n');

    const args = [
      '--min-score',
      'iso-42001=2.7',
      '--min-direct-score',
      `eu-ai-act=${direct + 0.1}`,
      '--max-critical',
      `eu-ai-act=${critical - 1}`,
      '--max-important',
      `eu-ai-act=${important}`,
    ];
    const failing = await check('scores', ...args);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain('FAIL  iso-42001 score ≥ 2.7: 2.6 (expected ≥ 2.7)\n');
    expect(failing.stdout).toContain(`FAIL  eu-ai-act direct score ≥ ${direct + 0.1}: ${direct}`);
    expect(failing.stdout).toContain(`FAIL  eu-ai-act critical gaps ≤ ${critical - 1}: ${critical}`);
    expect(failing.stdout).toContain(`PASS  eu-ai-act important gaps ≤ ${important}`);
    expect(failing.stdout).toContain('comply check scores: 3 of 4 rules failed\n');

    // Every format, each to its own file, in one run; the summary still goes to stdout.
    const files = ['json', 'junit', 'sarif', 'markdown'].map((format) => path.join(dir, `scores.${format}`));
    const reported = await check(
      'scores',
      ...args,
      ...['json', 'junit', 'sarif', 'markdown'].flatMap((format, index) => [
        '--format',
        format,
        '--output',
        files[index],
      ]),
    );
    expect(reported.code).toBe(1);
    expect(reported.stdout).toContain('3 of 4 rules failed');
    const [json, junit, sarif, markdown] = files.map((file) => readFileSync(file, 'utf8'));

    const parsed = JSON.parse(json);
    expect(parsed).toMatchObject({
      orgId: 'scores',
      passed: false,
      summary: { rules: 4, passed: 1, failed: 3 },
    });
    expect(parsed.results.map((r: { rule: string; passed: boolean }) => [r.rule, r.passed])).toEqual([
      ['min-score', false],
      ['min-direct-score', false],
      ['max-critical-gaps', false],
      ['max-important-gaps', true],
    ]);
    expect(parsed.results[2].failures).toHaveLength(critical);

    const xml = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => name === 'testcase',
    }).parse(junit);
    expect(xml.testsuites).toMatchObject({ tests: '4', failures: '3' });
    const cases = xml.testsuites.testsuite.testcase as {
      classname: string;
      name: string;
      failure?: { message: string };
    }[];
    expect(cases.map((c) => [c.classname, c.name, Boolean(c.failure)])).toEqual([
      ['comply.min-score', 'iso-42001 score ≥ 2.7', true],
      ['comply.min-direct-score', `eu-ai-act direct score ≥ ${direct + 0.1}`, true],
      ['comply.max-critical-gaps', `eu-ai-act critical gaps ≤ ${critical - 1}`, true],
      ['comply.max-important-gaps', `eu-ai-act important gaps ≤ ${important}`, false],
    ]);
    expect(cases[0].failure?.message).toBe('iso-42001 score ≥ 2.7: 2.6 (expected ≥ 2.7)');

    const log = JSON.parse(sarif);
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    const results = log.runs[0].results as {
      ruleId: string;
      kind: string;
      level: string;
      ruleIndex: number;
    }[];
    expect(results.map((r) => [r.ruleId, r.kind, r.level])).toEqual([
      ['min-score', 'fail', 'error'],
      ['min-direct-score', 'fail', 'error'],
      ['max-critical-gaps', 'fail', 'error'],
      ['max-important-gaps', 'pass', 'none'],
    ]);
    for (const r of results) expect(log.runs[0].tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);

    expect(markdown).toContain('### comply check: scores ❌ 3 of 4 rules failed');
    expect(markdown).toContain('| ❌ fail | iso-42001 score ≥ 2.7 | ≥ 2.7 | 2.6 |');
    expect(markdown).toContain('| ✅ pass |');
    expect(markdown).toMatch(/<details><summary>eu-ai-act critical gaps ≤ \d+: \d+ item\(s\)<\/summary>/);

    // One format without --output: the report alone on stdout; --json means --format json.
    const alone = await check('scores', '--min-score', 'iso-42001=1', '--json');
    expect(alone.code).toBe(0);
    expect(JSON.parse(alone.stdout)).toMatchObject({ passed: true, summary: { rules: 1 } });
  });

  it('fails on an implemented requirement whose evidence has all expired', async () => {
    await setStatus('evidence', 'iso-42001', 'A.2.2', 'implemented');
    await setStatus('evidence', 'gdpr', 'Art. 30', 'implemented');
    const old = {
      type: 'link',
      fileUrl: 'https://example.com/old',
      effectiveDate: '2020-01-01',
      expiresAt: '2021-01-01',
    };
    await call('POST', '/orgs/evidence/controls/A.2.2/evidence', { ...old, title: 'Policy 2020' });
    expect((await check('evidence', '--no-expired-evidence')).code).toBe(1);
    await call('POST', `/orgs/evidence/frameworks/gdpr/requirements/${enc('Art. 30')}/evidence`, {
      ...old,
      title: 'Records 2020',
    });
    const failed = await check('evidence', '--no-expired-evidence', '--format', 'json');
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).results[0]).toMatchObject({
      rule: 'no-expired-evidence',
      passed: false,
      actual: '2',
      failures: [
        'iso-42001 A.2.2: implemented, all 1 evidence item(s) expired',
        'gdpr Art. 30: implemented, all 1 evidence item(s) expired',
      ],
    });
    // Limited to one framework in a policy file; fresh evidence clears it.
    const policy = path.join(dir, 'evidence.policy.json');
    writeFileSync(policy, JSON.stringify({ noExpiredEvidence: { frameworks: ['iso-42001'] } }));
    await call('POST', '/orgs/evidence/controls/A.2.2/evidence', {
      type: 'link',
      title: 'Policy 2026',
      fileUrl: 'https://example.com/new',
    });
    const scoped = await check('evidence', '--policy', policy);
    expect(scoped.code).toBe(0);
    expect(scoped.stdout).toContain(
      'PASS  no implemented requirement with only expired evidence (iso-42001): 0',
    );
    expect((await check('evidence', '--no-expired-evidence')).code).toBe(1);
  });

  it('compares with a named snapshot: requirements that went backwards and the score drop', async () => {
    await setStatus('regress', 'iso-42001', 'A.2.2', 'implemented');
    await setStatus('regress', 'iso-42001', 'A.2.3', 'implemented');
    await setStatus('regress', 'nist-ai-rmf', 'GOVERN 1.1', 'implemented');
    await call('POST', '/orgs/regress/compliance/snapshot', { label: 'release 1.4' });
    const same = await check('regress', '--baseline', 'release 1.4');
    expect(same.stdout).toContain(
      'PASS  iso-42001 score dropped at most 0 points since snapshot "release 1.4": 5.3',
    );
    expect(same.stdout).toContain('PASS  no requirement went backwards since snapshot "release 1.4": 0');
    expect(same.code).toBe(0);

    await setStatus('regress', 'iso-42001', 'A.2.2', 'in_progress');
    await call('DELETE', `/orgs/regress/frameworks/nist-ai-rmf/requirements/${enc('GOVERN 1.1')}/assessment`);
    const worse = await check(
      'regress',
      '--baseline',
      'release 1.4',
      '--max-score-drop',
      '2',
      '--format',
      'json',
    );
    expect(worse.code).toBe(1);
    const [score, backwards] = JSON.parse(worse.stdout).results;
    expect(score).toMatchObject({ passed: true, actual: '3.9', expected: '≥ 3.3 (snapshot: 5.3)' });
    expect(backwards.passed).toBe(false);
    expect(backwards.failures[0]).toBe('iso-42001 A.2.2: implemented → in_progress');
    expect(backwards.failures[1]).toMatch(
      /^nist-ai-rmf GOVERN 1\.1: implemented → (in_progress|not_started) \((inferred|none)\)$/,
    );

    const policy = path.join(dir, 'regress.policy.json');
    writeFileSync(
      policy,
      JSON.stringify({ regression: { snapshot: 'release 1.4', maxScoreDrop: 1, controls: false } }),
    );
    const scoreOnly = await check('regress', '--policy', policy);
    expect(scoreOnly.code).toBe(1);
    expect(scoreOnly.stdout).toContain(
      'FAIL  iso-42001 score dropped at most 1 points since snapshot "release 1.4": 3.9 (expected ≥ 4.3 (snapshot: 5.3))',
    );
    expect(scoreOnly.stdout).not.toContain('went backwards');

    const unknown = await check('regress', '--baseline', 'release 9');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no snapshot labelled "release 9" (nor with that id) in regress');
  });

  it('needs a recent attestation from every high-risk AI system that is not retired', async () => {
    const none = await check('systems', '--attested-within', '7');
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('PASS  every high-risk AI system attested in the last 7 days: 0 of 0');
    const system = (name: string, riskLevel: string, lifecycleStage = 'deployed') =>
      call<{ systemId: string }>('POST', '/orgs/systems/ai-systems', {
        name,
        owner: 'ops',
        purpose: 'support',
        riskLevel,
        lifecycleStage,
      });
    const triage = await system('Triage', 'high');
    await system('Old scorer', 'high', 'retired');
    const chat = await system('Chat', 'limited');
    const missing = await check('systems', '--attested-within', '7');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      'FAIL  every high-risk AI system attested in the last 7 days: 0 of 1 (expected 1 of 1)',
    );
    expect(missing.stdout).toContain(`Triage (${triage.systemId}, high): no attestation since`);
    expect(missing.stdout).not.toContain('Old scorer');

    const attest = (systemId: string, timestamp: string) =>
      call('POST', '/orgs/systems/attestations', {
        level: 'L0',
        epochId: 'e-1',
        systemId,
        controlIds: ['A.6.2.6'],
        timestamp,
        claims: { ok: true },
      });
    await attest(triage.systemId, new Date(Date.now() - 10 * 86_400_000).toISOString());
    expect((await check('systems', '--attested-within', '7')).code).toBe(1);
    expect((await check('systems', '--attested-within', '11')).code).toBe(0);
    await attest(triage.systemId, new Date().toISOString());
    expect((await check('systems', '--attested-within', '7')).code).toBe(0);

    const policy = path.join(dir, 'systems.policy.json');
    writeFileSync(policy, JSON.stringify({ aiSystems: { attestedWithinDays: 7, level: 'L2' } }));
    const signed = await check('systems', '--policy', policy);
    expect(signed.code).toBe(1);
    expect(signed.stdout).toContain(
      'FAIL  every high-risk AI system attested at L2 in the last 7 days: 0 of 1',
    );
    writeFileSync(
      policy,
      JSON.stringify({ aiSystems: { attestedWithinDays: 7, riskLevels: ['high', 'limited'] } }),
    );
    const both = await check('systems', '--policy', policy, '--format', 'json');
    expect(JSON.parse(both.stdout).results[0]).toMatchObject({
      passed: false,
      actual: '1 of 2',
      failures: [expect.stringMatching(`^Chat \\(${chat.systemId}, limited\\)`)],
    });
  });

  it('holds a signed epoch to its Merkle root', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    await call('POST', '/orgs/epochs/sidecar-keys', {
      publicKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
      keyId: 'edge-1',
    });
    for (const control of ['A.6.2.6', 'A.6.2.8']) {
      const body = buildAttestation({
        level: 'L2',
        epochId: '2026-11-22',
        controlIds: [control],
        claims: { control },
      });
      await call('POST', '/orgs/epochs/attestations', signAttestation(body, { privateKey, keyId: 'edge-1' }));
    }
    const epoch = await call<{ merkleRoot: string }>('GET', '/orgs/epochs/attestations/epochs/2026-11-22');
    const right = await check('epochs', '--epoch', `2026-11-22=${epoch.merkleRoot.toUpperCase()}`);
    expect(right.stdout).toContain(
      `PASS  epoch 2026-11-22 signed (L2) with Merkle root ${epoch.merkleRoot.slice(0, 12)}…`,
    );
    expect(right.code).toBe(0);
    const wrong = await check(
      'epochs',
      '--epoch',
      `2026-11-22=${'0'.repeat(64)}`,
      '--epoch',
      `2026-11-23=${epoch.merkleRoot}`,
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain(`Merkle root is ${epoch.merkleRoot}, expected 000`);
    expect(wrong.stdout).toContain('epoch 2026-11-23 has no attestations');
    // One unsigned attestation in the epoch breaks it, whatever the root.
    await call('POST', '/orgs/epochs/attestations', {
      level: 'L0',
      epochId: '2026-11-22',
      controlIds: ['A.6.2.6'],
      timestamp: new Date().toISOString(),
      claims: {},
    });
    const after = await call<{ merkleRoot: string }>('GET', '/orgs/epochs/attestations/epochs/2026-11-22');
    const unsigned = await check('epochs', '--epoch', `2026-11-22=${after.merkleRoot}`);
    expect(unsigned.code).toBe(1);
    expect(unsigned.stdout).toContain('1 of 3 attestations are unsigned (L0)');
  });

  it('reads ./comply.policy.json by default, points SARIF results into it, and refuses bad usage with exit 2', async () => {
    const cwd = mkdtempSync(path.join(dir, 'repo-'));
    const text = `{
  "frameworks": {
    "iso-42001": { "minScore": 50 },
    "gdpr": { "maxCriticalGaps": 1000 }
  }
}
`;
    writeFileSync(path.join(cwd, 'comply.policy.json'), text);
    const inRepo = (...args: string[]) => runComply(args, { ...env, COMPLY_ORG: 'scores' }, { cwd });
    const sarif = await inRepo('check', '--format', 'sarif');
    expect(sarif.code).toBe(1);
    const log = JSON.parse(sarif.stdout);
    expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
    expect(log.runs[0].results.map((r: { locations: unknown }) => r.locations)).toEqual([
      [{ physicalLocation: { artifactLocation: { uri: 'comply.policy.json' }, region: { startLine: 3 } } }],
      [{ physicalLocation: { artifactLocation: { uri: 'comply.policy.json' }, region: { startLine: 4 } } }],
    ]);
    // A rule from a flag beside the file has no place in it.
    const mixed = await inRepo(
      'check',
      '--policy',
      'comply.policy.json',
      '--min-score',
      'nist-ai-rmf=0',
      '--format',
      'sarif',
    );
    const located = JSON.parse(mixed.stdout).runs[0].results.map(
      (r: { ruleId: string; locations?: unknown }) => [r.ruleId, Boolean(r.locations)],
    );
    expect(located).toEqual([
      ['min-score', true],
      ['max-critical-gaps', true],
      ['min-score', false],
    ]);

    const bad = path.join(dir, 'bad.policy.json');
    writeFileSync(bad, JSON.stringify({ frameworks: { 'iso-42001': { minScore: '80' } } }));
    const invalid = await check('scores', '--policy', bad);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('$.frameworks["iso-42001"].minScore: must be number');
    writeFileSync(bad, '{\n  "frameworks": {,\n}');
    const notJson = await check('scores', '--policy', bad);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/is not valid JSON \(line 2, column 18\): Expected property name/);
    const missing = await check('scores', '--policy', path.join(dir, 'nowhere.json'));
    expect(missing).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('cannot read the policy file'),
    });
    const unknown = await check('scores', '--min-score', 'iso-99999=1');
    expect(unknown).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown framework iso-99999'),
    });
    expect((await check('scores')).stderr).toContain('no rules to check');
    expect((await check('scores', '--min-score', 'iso-42001')).code).toBe(2);
    expect((await check('scores', '--min-score', 'iso-42001=101')).code).toBe(2);
    expect((await check('scores', '--min-score', 'iso-42001=1', '--format', 'xml')).code).toBe(2);
    expect(
      (await check('scores', '--min-score', 'iso-42001=1', '--format', 'json', '--format', 'sarif')).code,
    ).toBe(2);
    expect((await check('scores', '--max-score-drop', '1')).stderr).toContain('needs a snapshot');
    const help = await runComply(['check', '--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Exit codes: 0 every rule holds; 1 a rule failed');
    const unreachable = await runComply(['check', '--org', 'scores', '--min-score', 'iso-42001=1'], {
      ...env,
      COMPLY_URL: 'http://127.0.0.1:9',
    });
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain('Cannot reach comply at http://127.0.0.1:9');
    const noKey = await runComply(['check', '--org', 'scores', '--min-score', 'iso-42001=1'], {
      ...env,
      COMPLY_API_KEY: 'wrong-key-0123456789',
    });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('401 UNAUTHORIZED');
  });
});
