import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, dbKinds } from '../support/app.js';
import { type CliResult, COMPLY_BIN, runComply, runComplyWithInput } from '../support/daemon.js';
import { api, startDaemonOn } from './check-support.js';

const PASSWORD = 'correct horse battery staple';
const DAY = 86_400_000;
const date = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

interface Audit {
  auditId: string;
  state: string;
  frameworkIds: string[];
  conclusion: string | null;
  findings: { open: number; closed: number; byKind: Record<string, number> };
}
interface Finding {
  findingId: string;
  auditId: string;
  kind: string;
  state: string;
  caps: boolean;
  requirements: { frameworkId: string; requirementId: string; status: string }[];
  rootCause: string | null;
  correctiveAction: string | null;
  owner: string | null;
  dueDate: string | null;
  checks: { effective: boolean; note: string; evidenceIds: string[]; checkedBy: { email: string } }[];
}
interface Review {
  reviewId: string;
  state: string;
  attendees: string[];
  period: { from: string; to: string };
  inputs: Record<string, unknown> & {
    scores: { frameworkId: string; from: number | null; to: number | null }[];
    earlierActions: { reviewId: string; text: string; owner?: string; dueDate?: string; overdue: boolean }[];
  };
  notes: Record<string, string>;
  decisions: { text: string; owner?: string; dueDate?: string }[];
  contentHash: string | null;
}

// One database kind is enough here: the API's behaviour on both is tested in test/audits and test/reviews.
const kind = dbKinds[0];

describe(`comply audits, findings and reviews on ${kind}`, { timeout: 180_000 }, () => {
  let stop: () => Promise<void>;
  let url: string;
  let call: ReturnType<typeof api>;
  let configHome: string;
  let keyEnv: Record<string, string>;
  let sessionEnv: Record<string, string>;
  let auditId: string;
  let major: Finding;
  let evidenceId: string;
  let reviewId: string;
  const periodFrom = date(-30);
  const periodTo = date(1);

  const json = <T = Record<string, unknown>>(result: CliResult): T => {
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as T;
  };
  const ok = (result: CliResult) => {
    expect(result.code, result.stderr).toBe(0);
    return result.stdout;
  };

  beforeAll(async () => {
    const started = await startDaemonOn(kind);
    stop = started.stop;
    url = started.daemon.url;
    call = api(url, ADMIN_KEY);
    await call('POST', '/orgs', { orgId: 'acme', name: 'Acme AI' });
    const invited = await call<{ invitation: { token: string } }>('POST', '/orgs/acme/members', {
      email: 'ada@example.com',
      name: 'Ada Approver',
      role: 'approver',
    });
    const accepted = await fetch(`${url}/api/v1/auth/invitations/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ token: invited.invitation.token, password: PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    await call('PUT', '/orgs/acme/controls/A.6.2.4/status', { status: 'implemented', reviewer: 'r' });
    ({ evidenceId } = await call<{ evidenceId: string }>('POST', '/orgs/acme/controls/A.6.2.4/evidence', {
      type: 'link',
      title: 'Validation gate in the release pipeline',
      fileUrl: 'https://ci.example.com/pipelines/release',
    }));
    await call('POST', '/orgs/acme/risks', { title: 'Biased ranking', likelihood: 4, impact: 5 });
    await call('POST', '/orgs/acme/attestations', {
      level: 'L0',
      epochId: 'e-1',
      controlIds: ['A.6.2.6'],
      timestamp: new Date().toISOString(),
      claims: { drift: 0.01 },
    });
    configHome = mkdtempSync(path.join(tmpdir(), 'comply-config-'));
    keyEnv = { COMPLY_URL: url, COMPLY_API_KEY: ADMIN_KEY, COMPLY_ORG: 'acme', XDG_CONFIG_HOME: configHome };
    sessionEnv = { ...keyEnv, COMPLY_API_KEY: '' };
  }, 120_000);
  afterAll(async () => {
    await stop?.();
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  it('plans an internal audit and starts it, refusing what does not fit', async () => {
    const planned = json<Audit>(
      await runComply(
        [
          'audits',
          'plan',
          '--title',
          'Internal audit 2026',
          '--frameworks',
          'iso-42001,eu-ai-act',
          '--lead',
          'Ines Internal',
          '--start',
          date(-20),
          '--end',
          date(-10),
          '--json',
        ],
        keyEnv,
      ),
    );
    expect(planned).toMatchObject({ state: 'planned', frameworkIds: ['iso-42001', 'eu-ai-act'] });
    auditId = planned.auditId;

    const base = ['audits', 'plan', '--title', 't', '--lead', 'l', '--start', date(0), '--end', date(1)];
    const unknown = await runComply([...base, '--frameworks', 'no-such-framework'], keyEnv);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no-such-framework');
    expect((await runComply(base, keyEnv)).code).toBe(2); // no --frameworks
    const badDate = await runComply([...base, '--frameworks', 'iso-42001', '--start', 'soon'], keyEnv);
    expect(badDate.code).toBe(2);
    expect(badDate.stderr).toContain('--start: use a date like 2027-01-27');

    const list = ok(await runComply(['audits', 'list'], keyEnv));
    expect(list.split('\n')[0]).toMatch(
      /^AUDIT ID\s+STATE\s+PLANNED\s+FRAMEWORKS\s+LEAD\s+OPEN\s+CLOSED\s+TITLE/,
    );
    expect(list).toMatch(
      new RegExp(`${auditId}\\s+planned\\s+\\S+ → \\S+\\s+iso-42001,eu-ai-act\\s+Ines Internal`),
    );

    const started = ok(await runComply(['audits', 'start', auditId], keyEnv));
    expect(started).toMatch(/^state\s+in_progress$/m);
    const help = ok(await runComply(['audits', '--help'], keyEnv));
    for (const command of ['plan', 'list', 'show', 'start', 'complete']) expect(help).toContain(command);
  });

  it('opens a major nonconformity that caps its requirements, and updates it', async () => {
    major = json<Finding>(
      await runComply(
        [
          'findings',
          'open',
          auditId,
          '--kind',
          'major_nonconformity',
          '--requirement',
          'iso-42001:A.6.2.4',
          'eu-ai-act:Art. 15',
          '--description',
          'Models reach production without the documented validation',
          '--owner',
          'Dana Ops',
          '--due',
          date(40),
          '--json',
        ],
        keyEnv,
      ),
    );
    expect(major).toMatchObject({
      kind: 'major_nonconformity',
      state: 'open',
      caps: true,
      owner: 'Dana Ops',
      requirements: [
        { frameworkId: 'iso-42001', requirementId: 'A.6.2.4', status: 'in_progress' },
        { frameworkId: 'eu-ai-act', requirementId: 'Art. 15' },
      ],
    });
    const requirement = await call<{ status: string; findings?: { findingId: string }[] }>(
      'GET',
      '/orgs/acme/frameworks/iso-42001/requirements/A.6.2.4',
    );
    expect(requirement).toMatchObject({ status: 'in_progress', findings: [{ findingId: major.findingId }] });

    const opened = ok(
      await runComply(
        [
          'findings',
          'open',
          auditId,
          '--kind',
          'opportunity',
          '--description',
          'Automate evidence collection',
        ],
        keyEnv,
      ),
    );
    expect(opened).toMatch(/^caps\s+no: only an open major nonconformity caps$/m);
    expect(opened).toMatch(/^requirements\s+-$/m);
    const badKind = await runComply(
      ['findings', 'open', auditId, '--kind', 'blunder', '--description', 'x'],
      keyEnv,
    );
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('major_nonconformity, minor_nonconformity, observation, opportunity');
    const badRef = await runComply(
      [
        'findings',
        'open',
        auditId,
        '--kind',
        'observation',
        '--requirement',
        'A.6.2.4',
        '--description',
        'x',
      ],
      keyEnv,
    );
    expect(badRef.code).toBe(2);
    expect(badRef.stderr).toContain('expected <frameworkId>:<requirementId>');

    const shown = ok(await runComply(['findings', 'show', major.findingId], keyEnv));
    expect(shown).toMatch(/^Requirements\nFRAMEWORK\s+REQUIREMENT\s+STATUS\s+CAPPED\s+TITLE$/m);
    expect(shown).toMatch(/^iso-42001\s+A\.6\.2\.4\s+in_progress\s+yes \(this finding\)\s+\S/m);
    expect(shown).toMatch(/^eu-ai-act\s+Art\. 15\s+\S+\s+yes \(this finding\)/m);
    expect(shown).toContain('Effectiveness checks: none');

    const listed = json<{ findings: Finding[] }>(
      await runComply(
        ['findings', 'list', '--state', 'open', '--kind', 'major_nonconformity', '--json'],
        keyEnv,
      ),
    );
    expect(listed.findings.map((f) => f.findingId)).toEqual([major.findingId]);
    const table = ok(await runComply(['findings', 'list'], keyEnv));
    expect(table).toMatch(
      new RegExp(
        `^${major.findingId}\\s+${auditId}\\s+major_nonconformity\\s+open\\s+yes\\s+Dana Ops\\s+`,
        'm',
      ),
    );
    expect(table).toMatch(/opportunity\s+open\s+no/);

    expect((await runComply(['findings', 'update', auditId, major.findingId], keyEnv)).code).toBe(2);
    const updated = json<Finding>(
      await runComply(
        [
          'findings',
          'update',
          auditId,
          major.findingId,
          '--root-cause',
          'No gate in the pipeline',
          '--action',
          'Validation gate added to the release pipeline',
          '--json',
        ],
        keyEnv,
      ),
    );
    expect(updated).toMatchObject({
      rootCause: 'No gate in the pipeline',
      correctiveAction: 'Validation gate added to the release pipeline',
      owner: 'Dana Ops',
    });
  });

  it('checks effectiveness as a signed-in person only: an ineffective check keeps it open, an effective one closes it', async () => {
    const check = [
      'findings',
      'check',
      auditId,
      major.findingId,
      '--effective',
      '--note',
      'Gate blocks unvalidated models',
    ];
    const byKey = await runComply(check, keyEnv);
    expect(byKey.code).toBe(1);
    expect(byKey.stderr).toContain('person_required');
    expect(byKey.stderr).toContain('comply login');
    expect((await runComply([...check, '--ineffective'], keyEnv)).code).toBe(2);
    expect(
      (
        await runComply(
          check.filter((arg) => arg !== '--effective'),
          keyEnv,
        )
      ).code,
    ).toBe(2);

    const login = await runComplyWithInput(
      ['login', '--email', 'ada@example.com', '--password-stdin'],
      sessionEnv,
      `${PASSWORD}\n`,
    );
    expect(login.code, login.stderr).toBe(0);
    const ineffective = ok(
      await runComply(
        ['findings', 'check', auditId, major.findingId, '--ineffective', '--note', 'Two models skipped it'],
        sessionEnv,
      ),
    );
    expect(ineffective).toContain(
      `Recorded an ineffective check of ${major.findingId} by Ada Approver: it stays open`,
    );
    expect(ineffective).toContain('keeps capping its requirements at in_progress');
    expect(
      (await call<{ status: string }>('GET', '/orgs/acme/frameworks/iso-42001/requirements/A.6.2.4')).status,
    ).toBe('in_progress');

    const closed = json<Finding>(await runComply([...check, '--evidence', evidenceId, '--json'], sessionEnv));
    expect(closed).toMatchObject({ state: 'closed', caps: false });
    expect(closed.checks).toMatchObject([
      { effective: false, evidenceIds: [] },
      { effective: true, evidenceIds: [evidenceId], checkedBy: { email: 'ada@example.com' } },
    ]);
    const shown = ok(await runComply(['findings', 'show', major.findingId], keyEnv));
    expect(shown).toMatch(/^state\s+closed$/m);
    expect(shown).toMatch(/^caps\s+no: closed by an effective check$/m);
    expect(shown).toMatch(/^iso-42001\s+A\.6\.2\.4\s+implemented\s+no\s+/m);
    expect(shown).toMatch(/Ada Approver <ada@example\.com>\s+no\s+-\s+Two models skipped it/);
    expect(shown).toMatch(
      new RegExp(`Ada Approver <ada@example\\.com>\\s+yes\\s+${evidenceId}\\s+Gate blocks`),
    );
    const again = await runComply(check, sessionEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('409');
  });

  it('completes the audit with a conclusion and shows it with its findings', async () => {
    expect((await runComply(['audits', 'complete', auditId], keyEnv)).code).toBe(2);
    const completed = json<Audit>(
      await runComply(
        ['audits', 'complete', auditId, '--conclusion', 'Conforms after one major', '--json'],
        keyEnv,
      ),
    );
    expect(completed).toMatchObject({
      state: 'completed',
      conclusion: 'Conforms after one major',
      findings: { open: 1, closed: 1, byKind: { major_nonconformity: 1, opportunity: 1 } },
    });
    const shown = ok(await runComply(['audits', 'show', auditId], keyEnv));
    expect(shown).toMatch(/^conclusion\s+Conforms after one major$/m);
    expect(shown).toMatch(/^findings\s+1 open, 1 closed; 1 major nonconformity; 1 opportunity$/m);
    expect(shown).toMatch(/^FINDING ID\s+AUDIT ID\s+KIND\s+STATE\s+CAPS/m);
    expect(shown).toContain(major.findingId);
    const asJson = json<{ audit: Audit; findings: Finding[] }>(
      await runComply(['audits', 'show', auditId, '--json'], keyEnv),
    );
    expect(asJson.audit.auditId).toBe(auditId);
    expect(asJson.findings).toHaveLength(2);
    const late = await runComply(
      ['findings', 'open', auditId, '--kind', 'observation', '--description', 'Too late'],
      keyEnv,
    );
    expect(late.code).toBe(1);
    expect(late.stderr).toContain('409');
    expect((await runComply(['audits', 'show', 'aud_nope'], keyEnv)).code).toBe(1);
  });

  it('holds a management review and prints its inputs as tables', async () => {
    const held = await runComply(
      ['reviews', 'hold', '--from', periodFrom, '--to', periodTo, '--attendee', 'Cleo CEO', 'Ciro CISO'],
      keyEnv,
    );
    const text = ok(held);
    reviewId = /^reviewId\s+(\S+)$/m.exec(text)?.[1] ?? '';
    const review = await call<Review>('GET', `/orgs/acme/management-reviews/${reviewId}`);
    expect(review).toMatchObject({ state: 'open', attendees: ['Cleo CEO', 'Ciro CISO'] });
    expect(review.period.to).toBe(`${date(2)}T00:00:00.000Z`); // a bare --to date counts in full

    expect(text).toMatch(/^Scores \(from → to\)\nFRAMEWORK\s+FROM\s+TO\s+CHANGE\s+NAME$/m);
    const iso = review.inputs.scores.find((s) => s.frameworkId === 'iso-42001');
    expect(text).toMatch(new RegExp(`^iso-42001\\s+\\S+\\s+${iso?.to}%\\s+\\S+\\s+ISO/IEC 42001`, 'm'));
    expect(text).toContain(
      'Nonconformities: 1 opened, 1 closed, 0 open at the end; opened by kind: major_nonconformity 1',
    );
    expect(text).toMatch(
      new RegExp(`^${auditId}\\s+${date(0)}\\s+.*Internal audit 2026\\s+Conforms after one major`, 'm'),
    );
    expect(text).toContain('Attestations by level: L0 1');
    expect(text).toMatch(/^Risks by residual level: \w+ 1; by state: \w+ 1$/m);
    expect(text).toMatch(
      /^Opportunities for improvement\nFINDING ID\s+OPENED\s+DESCRIPTION\n\S+\s+\S+\s+Automate evidence collection$/m,
    );
    expect(text).toContain('Actions from earlier reviews: none');
    expect(text).toContain('Decisions: none');

    const missing = await runComply(['reviews', 'hold', '--from', periodFrom, '--to', periodTo], keyEnv);
    expect(missing.code).toBe(2);
    const backwards = await runComply(
      ['reviews', 'hold', '--from', periodTo, '--to', periodFrom, '--attendee', 'x'],
      keyEnv,
    );
    expect(backwards.code).toBe(1);
    expect(backwards.stderr).toBe('error: The period must end after it starts\n');
  });

  it('keeps notes and decisions while open, and closes with the content hash', async () => {
    const noted = ok(
      await runComply(
        ['reviews', 'note', reviewId, 'scores', 'ISO', '42001', 'dipped', 'with', 'the', 'major'],
        keyEnv,
      ),
    );
    expect(noted.trim()).toBe('scores: ISO 42001 dipped with the major');
    const badInput = await runComply(['reviews', 'note', reviewId, 'weather', 'fine'], keyEnv);
    expect(badInput.code).toBe(2);
    expect(badInput.stderr).toContain('earlierActions, scores, nonconformities');

    ok(
      await runComply(
        [
          'reviews',
          'decide',
          reviewId,
          '--text',
          'Fund a validation engineer',
          '--owner',
          'Cleo CEO',
          '--due',
          date(30),
        ],
        keyEnv,
      ),
    );
    const decided = ok(
      await runComply(['reviews', 'decide', reviewId, '--text', 'Re-audit A.6.2.4'], keyEnv),
    );
    expect(decided).toMatch(/^1\s+Cleo CEO\s+\S+\s+Fund a validation engineer$/m);
    expect(decided).toMatch(/^2\s+-\s+-\s+Re-audit A\.6\.2\.4$/m);
    const review = await call<Review>('GET', `/orgs/acme/management-reviews/${reviewId}`);
    expect(review.notes).toEqual({ scores: 'ISO 42001 dipped with the major' });
    expect(review.decisions).toEqual([
      { text: 'Fund a validation engineer', owner: 'Cleo CEO', dueDate: `${date(30)}T23:59:59.999Z` },
      { text: 'Re-audit A.6.2.4' },
    ]);
    const due = await call<{ items: { kind: string; title: string }[] }>(
      'GET',
      '/orgs/acme/due?kind=decision_due',
    );
    expect(due.items).toHaveLength(1);

    const shown = ok(await runComply(['reviews', 'show', reviewId], keyEnv));
    expect(shown).toContain('  note: ISO 42001 dipped with the major');
    const list = ok(await runComply(['reviews', 'list'], keyEnv));
    expect(list).toMatch(
      new RegExp(
        `^${reviewId}\\s+${date(0)}\\s+${periodFrom} → ${date(2)}\\s+open\\s+2\\s+Cleo CEO, Ciro CISO`,
        'm',
      ),
    );

    const closed = ok(await runComply(['reviews', 'close', reviewId], keyEnv));
    const hash = /its content hash is ([0-9a-f]{64})$/m.exec(closed)?.[1];
    expect(hash).toBeDefined();
    expect((await call<Review>('GET', `/orgs/acme/management-reviews/${reviewId}`)).contentHash).toBe(hash);
    const frozen = await runComply(['reviews', 'decide', reviewId, '--text', 'Too late'], keyEnv);
    expect(frozen.code).toBe(1);
    expect(frozen.stderr).toContain('409');
    expect((await runComply(['reviews', 'close', reviewId], keyEnv)).code).toBe(1);
  });

  it('prepares the inputs of a review over MCP by reading, equal to those a review computes', async () => {
    const client = new Client({ name: 'comply-test', version: '1.0.0' });
    const { key } = await call<{ key: string }>('POST', '/orgs/acme/keys', {
      scopes: ['read'],
      name: 'reader',
    });
    await client.connect(
      new StdioClientTransport({
        command: COMPLY_BIN,
        args: ['mcp'],
        env: { ...(process.env as Record<string, string>), ...keyEnv, COMPLY_API_KEY: key },
        stderr: 'pipe',
      }),
    );
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((t) => t.name === 'prepare_management_review');
      expect(tool?.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
      expect(tool?.inputSchema.required).toEqual(['from', 'to']);

      const before = (await call<{ reviews: Review[] }>('GET', '/orgs/acme/management-reviews')).reviews;
      const result = (await client.callTool({
        name: 'prepare_management_review',
        arguments: { from: periodFrom, to: periodTo },
      })) as { isError?: boolean; content: { text?: string }[]; structuredContent: Record<string, unknown> };
      expect(result.isError, result.content[0]?.text).toBeFalsy();
      expect(result.content[0]?.text).toContain('nothing was created');
      // Read only: no review was created by it (with a read key it could not be).
      expect(
        (await call<{ reviews: Review[] }>('GET', '/orgs/acme/management-reviews')).reviews,
      ).toHaveLength(before.length);

      // The same period held as a review now: the inputs the tool read are the ones the daemon computes.
      const reference = await call<Review>('POST', '/orgs/acme/management-reviews', {
        heldAt: new Date().toISOString(),
        attendees: ['x'],
        period: { from: `${periodFrom}T00:00:00.000Z`, to: `${date(2)}T00:00:00.000Z` },
      });
      const prepared = result.structuredContent as Record<string, unknown> & {
        earlierActions: { reviewId: string; text: string; owner: string | null; dueDate: string | null }[];
      };
      expect(prepared.period).toEqual(reference.period);
      for (const input of ['scores', 'nonconformities', 'audits', 'attestations', 'opportunities']) {
        expect(prepared[input], input).toEqual(reference.inputs[input]);
      }
      const risks = reference.inputs.risks as Record<string, unknown>;
      expect(prepared.risks).toMatchObject({
        byLevel: risks.byLevel,
        byState: risks.byState,
        acceptancesExpiring: risks.acceptancesExpiring,
        overdueTreatments: 0,
      });
      expect(prepared.earlierActions).toEqual(
        reference.inputs.earlierActions.map((action) => ({
          reviewId: action.reviewId,
          heldAt: expect.any(String),
          text: action.text,
          owner: action.owner ?? null,
          dueDate: action.dueDate ?? null,
          overdue: action.overdue,
        })),
      );
      expect(prepared.earlierActions.map((a) => a.text)).toEqual([
        'Fund a validation engineer',
        'Re-audit A.6.2.4',
      ]);
      expect(prepared.openFindings).toMatchObject([{ kind: 'opportunity', caps: false }]);
      expect(prepared.due).toMatchObject({
        total: 1,
        overdue: 0,
        items: [{ kind: 'decision_due', resource: { type: 'management-review', id: `${reviewId}#0` } }],
      });
      expect(prepared.sources).toContain('GET /orgs/{orgId}/management-reviews');

      const bad = (await client.callTool({
        name: 'prepare_management_review',
        arguments: { from: 'last spring', to: periodTo },
      })) as { isError?: boolean };
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
