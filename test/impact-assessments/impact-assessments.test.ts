import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';

const ORIGIN = 'http://localhost:80';
const ORG = '/api/v1/orgs/acme';
const PASSWORD = 'correct horse battery';

interface Question {
  questionId: string;
  kind: 'text' | 'choice' | 'multi' | 'scale';
  options?: string[];
  required: boolean;
}
interface Template {
  templateId: string;
  version: number;
  sections: { sectionId: string; questions: Question[] }[];
  evidenceFor: { frameworkId: string; requirementId: string }[];
}

/** Every requirement id of the built-in library, as `frameworkId requirementId`. */
function libraryRequirements(): Set<string> {
  const dir = new URL('../../fixtures/frameworks/', import.meta.url);
  const ids = new Set<string>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
    const framework = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
    for (const requirement of framework.requirements) ids.add(`${framework.id} ${requirement.id}`);
  }
  return ids;
}

/** An answer that fits each question: what a diligent officer would give, minus the prose. */
function answerAll(template: Template, onlyRequired = false): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const question of template.sections.flatMap((section) => section.questions)) {
    if (onlyRequired && !question.required) continue;
    const options = question.options ?? [];
    answers[question.questionId] =
      question.kind === 'text'
        ? `Our answer to ${question.questionId}`
        : question.kind === 'choice'
          ? options[0]
          : question.kind === 'multi'
            ? options.slice(0, 2)
            : options.length;
  }
  return answers;
}

describe.each(dbKinds)('impact assessments on %s', (kind) => {
  let t: TestApp;
  let olivia: string; // owner: submits, and approves what others submitted
  let alex: string; // approver
  let oliviaId: string;
  let alexId: string;
  let writer: string; // an API key with read and write
  let templates: Template[];
  let systemId: string;

  const as = (cookie: string) => ({ key: null, headers: { cookie, origin: ORIGIN } });
  const get = async (url: string) => {
    const res = await t.request({ method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const template = (templateId: string) => templates.find((tpl) => tpl.templateId === templateId) as Template;
  const createSystem = async (name: string, riskLevel = 'high') => {
    const res = await t.request({
      method: 'POST',
      url: `${ORG}/ai-systems`,
      body: { name, owner: 'HR', purpose: 'Ranks job applicants', riskLevel, lifecycleStage: 'deployed' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().systemId as string;
  };
  const start = (system: string, templateId: string, key = writer) =>
    t.request({
      method: 'POST',
      url: `${ORG}/ai-systems/${system}/impact-assessments`,
      key,
      body: { templateId },
    });
  const put = (assessmentId: string, body: unknown, key = writer) =>
    t.request({ method: 'PUT', url: `${ORG}/impact-assessments/${assessmentId}`, key, body });
  const act = (
    assessmentId: string,
    action: string,
    who: { key?: string | null; headers?: Record<string, string> } = {},
  ) =>
    t.request({
      method: 'POST',
      url: `${ORG}/impact-assessments/${assessmentId}/${action}`,
      key: writer,
      ...who,
    });
  /** A draft of the template, fully answered and submitted by the key. */
  const submitted = async (system: string, templateId: string) => {
    const started = await start(system, templateId);
    expect(started.statusCode, started.body).toBe(201);
    const { assessmentId } = started.json();
    expect((await put(assessmentId, { answers: answerAll(template(templateId)) })).statusCode).toBe(200);
    const res = await act(assessmentId, 'submit');
    expect(res.statusCode, res.body).toBe(200);
    return assessmentId as string;
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
    oliviaId = await addMember(t, 'acme', {
      email: 'olivia@example.com',
      name: 'Olivia Officer',
      role: 'owner',
    });
    alexId = await addMember(t, 'acme', {
      email: 'alex@example.com',
      name: 'Alex Approver',
      role: 'approver',
    });
    olivia = await signIn(t, 'olivia@example.com', PASSWORD);
    alex = await signIn(t, 'alex@example.com', PASSWORD);
    writer = await t.createKey('acme', ['read', 'write']);
    templates = (await get('/api/v1/impact-assessment-templates')).templates;
    systemId = await createSystem('CV screener');
  });
  afterAll(async () => {
    await t?.close();
  });

  describe('templates', () => {
    it('serves the three templates, versioned, with typed questions', async () => {
      expect(templates.map((tpl) => tpl.templateId)).toEqual([
        'iso-42001-aiia',
        'eu-ai-act-fria',
        'gdpr-dpia',
      ]);
      for (const tpl of templates) {
        expect(tpl.version).toBeGreaterThanOrEqual(1);
        const questions = tpl.sections.flatMap((section) => section.questions);
        expect(questions.length).toBeGreaterThan(5);
        expect(new Set(questions.map((q) => q.questionId)).size).toBe(questions.length);
        for (const question of questions) {
          expect(['text', 'choice', 'multi', 'scale']).toContain(question.kind);
          if (question.kind === 'text') expect(question.options).toBeUndefined();
          else expect(question.options?.length).toBeGreaterThanOrEqual(2);
        }
      }
    });

    it('names as evidenceFor only requirements of the built-in library', async () => {
      const library = libraryRequirements();
      expect(template('iso-42001-aiia').evidenceFor).toEqual(
        expect.arrayContaining(
          ['A.5.2', 'A.5.3', 'A.5.4', 'A.5.5'].map((requirementId) => ({
            frameworkId: 'iso-42001',
            requirementId,
          })),
        ),
      );
      expect(template('eu-ai-act-fria').evidenceFor).toEqual([
        { frameworkId: 'eu-ai-act', requirementId: 'Art. 27' },
      ]);
      expect(template('gdpr-dpia').evidenceFor).toEqual([{ frameworkId: 'gdpr', requirementId: 'Art. 35' }]);
      for (const tpl of templates) {
        for (const { frameworkId, requirementId } of tpl.evidenceFor) {
          expect(library, `${tpl.templateId}: ${frameworkId} ${requirementId}`).toContain(
            `${frameworkId} ${requirementId}`,
          );
        }
      }
    });

    it('serves one template to any reader, and 404 for an unknown one', async () => {
      const reader = await t.createKey('acme', ['read']);
      const one = await t.request({
        method: 'GET',
        url: '/api/v1/impact-assessment-templates/gdpr-dpia',
        key: reader,
      });
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json()).toEqual(template('gdpr-dpia'));
      const viewer = await t.request({
        method: 'GET',
        url: '/api/v1/impact-assessment-templates',
        ...as(olivia),
      });
      expect(viewer.statusCode).toBe(200);
      const missing = await t.request({ method: 'GET', url: '/api/v1/impact-assessment-templates/nope' });
      expect(missing.statusCode).toBe(404);
      expect(
        (await t.request({ method: 'GET', url: '/api/v1/impact-assessment-templates', key: null }))
          .statusCode,
      ).toBe(401);
    });
  });

  describe('the lifecycle', () => {
    let first: string;
    let second: string;

    it('starts a draft, version 1, with no answers, and refuses a second start of the same template', async () => {
      const res = await start(systemId, 'iso-42001-aiia');
      expect(res.statusCode, res.body).toBe(201);
      const draft = res.json();
      expect(draft).toMatchObject({
        systemId,
        templateId: 'iso-42001-aiia',
        templateVersion: template('iso-42001-aiia').version,
        version: 1,
        state: 'draft',
        answers: {},
        impacts: [],
        createdBy: { type: 'key' },
        submittedBy: null,
        approvedBy: null,
        contentHash: null,
        reassessment: { due: false, reasons: [] },
      });
      expect(draft.createdAt).toBe(draft.updatedAt);
      expect(res.headers.location).toBe(`${ORG}/impact-assessments/${draft.assessmentId}`);
      first = draft.assessmentId;
      expect(await get(res.headers.location as string)).toEqual(draft);

      const again = await start(systemId, 'iso-42001-aiia');
      expect(again.statusCode).toBe(409);
      expect(again.json().error.details).toMatchObject({ assessmentId: first, state: 'draft' });
    });

    it('refuses an unknown template (400) and an unknown system (404)', async () => {
      const unknownTemplate = await start(systemId, 'no-such-template');
      expect(unknownTemplate.statusCode).toBe(400);
      expect(unknownTemplate.json().error.details.fields[0].field).toBe('body.templateId');
      expect((await start('sys-none', 'gdpr-dpia')).statusCode).toBe(404);
    });

    it('refuses an unknown question or an answer of the wrong kind with 400 naming it', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ 'no-such-question': 'x' }, 'no-such-question'],
        [{ 'intended-use': 42 }, 'intended-use'],
        [{ autonomy: 'whatever we like' }, 'autonomy'],
        [{ parties: ['children', 'aliens'] }, 'parties'],
        [{ parties: 'children' }, 'parties'],
        [{ 'overall-severity': 6 }, 'overall-severity'],
        [{ 'overall-severity': 'major' }, 'overall-severity'],
      ];
      for (const [answers, questionId] of cases) {
        const res = await put(first, { answers });
        expect(res.statusCode, JSON.stringify(answers)).toBe(400);
        const { error } = res.json();
        expect(error.message).toContain(questionId);
        expect(error.details.fields.map((f: { field: string }) => f.field)).toEqual([
          `body.answers.${questionId}`,
        ]);
      }
      const impact = await put(first, {
        impacts: [{ affected: 'aliens', description: 'x', likelihood: 1, severity: 1 }],
      });
      expect(impact.statusCode).toBe(400);
      const scale = await put(first, {
        impacts: [{ affected: 'groups', description: 'x', likelihood: 0, severity: 6 }],
      });
      expect(scale.statusCode).toBe(400);
      expect((await get(`${ORG}/impact-assessments/${first}`)).answers).toEqual({});
    });

    it('merges answers, removes one given as null, and replaces the impacts', async () => {
      let res = await put(first, {
        answers: { 'intended-use': 'Ranks applicants', autonomy: 'it decides and a person reviews' },
      });
      expect(res.statusCode, res.body).toBe(200);
      res = await put(first, {
        answers: { parties: ['children'], autonomy: null },
        impacts: [
          {
            affected: 'groups',
            rights: ['equality and non-discrimination'],
            description: 'Older applicants ranked lower',
            likelihood: 3,
            severity: 4,
            mitigation: 'Bias tests per release',
          },
        ],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        state: 'draft',
        answers: { 'intended-use': 'Ranks applicants', parties: ['children'] },
        impacts: [{ affected: 'groups', likelihood: 3, severity: 4 }],
      });
      expect(res.json().answers).not.toHaveProperty('autonomy');
    });

    it('refuses to submit with required questions unanswered, listing them', async () => {
      await put(first, { answers: { benefits: '   ' } });
      const res = await act(first, 'submit', as(olivia));
      expect(res.statusCode, res.body).toBe(400);
      const unanswered = res.json().error.details.unanswered.map((q: { questionId: string }) => q.questionId);
      const required = template('iso-42001-aiia')
        .sections.flatMap((section) => section.questions)
        .filter((q) => q.required)
        .map((q) => q.questionId);
      expect(unanswered).toEqual(required.filter((id) => !['intended-use', 'parties'].includes(id)));
      expect(unanswered).toContain('benefits');
      expect(unanswered).not.toContain('data-quality');
      expect(res.json().error.message).toContain('benefits');
    });

    it('submits once every required question is answered, recording who submitted it', async () => {
      expect((await put(first, { answers: answerAll(template('iso-42001-aiia'), true) })).statusCode).toBe(
        200,
      );
      const res = await act(first, 'submit', as(olivia));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        state: 'submitted',
        submittedBy: { type: 'user', id: oliviaId, name: 'Olivia Officer' },
        approvedBy: null,
      });
      expect(res.json().submittedAt).toEqual(expect.any(String));
    });

    it('refuses to edit or submit anything but a draft with 409', async () => {
      const edit = await put(first, { answers: { benefits: 'more' } });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().error.details).toMatchObject({ state: 'submitted' });
      expect((await act(first, 'submit')).statusCode).toBe(409);
      expect((await act(first, 'revise')).statusCode).toBe(409);
    });

    it('refuses approval by an API key (person_required), a writer, and the submitter (second_person_required)', async () => {
      for (const key of [writer, ADMIN_KEY]) {
        const res = await act(first, 'approve', { key });
        expect(res.statusCode).toBe(403);
        expect(res.json().error.details.reason).toBe('person_required');
      }
      await addMember(t, 'acme', { email: 'eddie@example.com', name: 'Eddie Editor', role: 'editor' });
      const eddie = await signIn(t, 'eddie@example.com', PASSWORD);
      const editor = await act(first, 'approve', as(eddie));
      expect(editor.statusCode).toBe(403);
      expect(editor.json().error.details.requiredScope).toBe('approve');
      const self = await act(first, 'approve', as(olivia));
      expect(self.statusCode).toBe(403);
      expect(self.json().error.details.reason).toBe('second_person_required');
      expect((await get(`${ORG}/impact-assessments/${first}`)).state).toBe('submitted');
    });

    it('is approved by a second person: frozen under its content hash, due for review in 12 months', async () => {
      const res = await act(first, 'approve', as(alex));
      expect(res.statusCode, res.body).toBe(200);
      const approved = res.json();
      expect(approved).toMatchObject({
        state: 'approved',
        approvedBy: { userId: alexId, email: 'alex@example.com', name: 'Alex Approver' },
        systemAtApproval: { riskLevel: 'high', lifecycleStage: 'deployed', purpose: 'Ranks job applicants' },
        reassessment: { due: false, reasons: [] },
      });
      const due = new Date(approved.approvedAt);
      due.setUTCFullYear(due.getUTCFullYear() + 1);
      expect(approved.reviewDue).toBe(due.toISOString());
      const content = {
        assessmentId: first,
        systemId,
        templateId: approved.templateId,
        templateVersion: approved.templateVersion,
        version: 1,
        answers: approved.answers,
        impacts: approved.impacts,
        system: approved.systemAtApproval,
        submittedBy: approved.submittedBy,
        submittedAt: approved.submittedAt,
        approvedBy: approved.approvedBy,
        approvedAt: approved.approvedAt,
        reviewDue: approved.reviewDue,
      };
      expect(approved.contentHash).toBe(
        createHash('sha256')
          .update(canonicalize(content) as string)
          .digest('hex'),
      );
      expect((await put(first, { answers: { benefits: 'changed' } })).statusCode).toBe(409);
      expect((await act(first, 'approve', as(alex))).statusCode).toBe(409);
      expect(await get(`${ORG}/impact-assessments/${first}`)).toEqual(approved);
    });

    it("becomes evidence, a document linking to the assessment, on each of its template's requirements", async () => {
      const approved = await get(`${ORG}/impact-assessments/${first}`);
      const evidenceFor = template('iso-42001-aiia').evidenceFor;
      expect(
        approved.evidence.map(
          ({ frameworkId, requirementId }: { frameworkId: string; requirementId: string }) => ({
            frameworkId,
            requirementId,
          }),
        ),
      ).toEqual(evidenceFor);
      for (const { frameworkId, requirementId, evidenceId } of approved.evidence) {
        const item = await get(
          `${ORG}/frameworks/${frameworkId}/requirements/${encodeURIComponent(requirementId)}/evidence/${evidenceId}`,
        );
        expect(item).toMatchObject({
          type: 'document',
          fileUrl: `http://localhost:80${ORG}/impact-assessments/${first}`,
          createdBy: alexId,
          effectiveDate: approved.approvedAt,
          expiresAt: approved.reviewDue,
          expired: false,
        });
      }
      const control = await get(`${ORG}/controls/A.5.2/evidence`);
      expect(control.evidence.map((item: { evidenceId: string }) => item.evidenceId)).toContain(
        approved.evidence[0].evidenceId,
      );
    });

    it('is revised into a new draft, version 2, with the answers copied; one revision at a time', async () => {
      const approved = await get(`${ORG}/impact-assessments/${first}`);
      const res = await act(first, 'revise');
      expect(res.statusCode, res.body).toBe(201);
      const revision = res.json();
      expect(revision).toMatchObject({
        systemId,
        templateId: 'iso-42001-aiia',
        version: 2,
        state: 'draft',
        answers: approved.answers,
        impacts: approved.impacts,
        approvedBy: null,
        contentHash: null,
      });
      expect(res.headers.location).toBe(`${ORG}/impact-assessments/${revision.assessmentId}`);
      second = revision.assessmentId;
      const twice = await act(first, 'revise');
      expect(twice.statusCode).toBe(409);
      expect(twice.json().error.details.latest).toMatchObject({ assessmentId: second, version: 2 });
      expect((await get(`${ORG}/impact-assessments/${first}`)).state).toBe('approved');
    });

    it('supersedes the older version once the revision is approved', async () => {
      expect((await put(second, { answers: { benefits: 'Faster, fairer screening' } })).statusCode).toBe(200);
      expect((await act(second, 'submit')).statusCode).toBe(200);
      // Submitted by a key: any approver, the owner included, may approve it.
      const res = await act(second, 'approve', as(olivia));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        state: 'approved',
        version: 2,
        answers: { benefits: 'Faster, fairer screening' },
      });
      expect(await get(`${ORG}/impact-assessments/${first}`)).toMatchObject({
        state: 'superseded',
        supersededBy: second,
      });
      const revise = await act(first, 'revise');
      expect(revise.statusCode).toBe(409);
      expect(revise.json().error.details.state).toBe('superseded');

      const list = await get(`${ORG}/ai-systems/${systemId}/impact-assessments`);
      expect(list).toMatchObject({ orgId: 'acme', systemId });
      expect(list.assessments.map((a: { version: number; state: string }) => [a.version, a.state])).toEqual([
        [2, 'approved'],
        [1, 'superseded'],
      ]);
    });

    it('is due for re-assessment once the AI system changes its risk level, and not before', async () => {
      const page = async (query: string) => get(`${ORG}/impact-assessments${query}`);
      expect(
        (await page('?due=true')).assessments.map((a: { assessmentId: string }) => a.assessmentId),
      ).not.toContain(second);
      const changed = await t.request({
        method: 'PUT',
        url: `${ORG}/ai-systems/${systemId}`,
        body: { riskLevel: 'limited', lifecycleStage: 'retired' },
      });
      expect(changed.statusCode, changed.body).toBe(200);
      const assessment = await get(`${ORG}/impact-assessments/${second}`);
      expect(assessment.reassessment.due).toBe(true);
      expect(assessment.reassessment.reasons.map((r: { code: string }) => r.code)).toEqual([
        'risk_level_changed',
        'lifecycle_stage_changed',
      ]);
      expect(assessment.reassessment.reasons[0].message).toContain('from high to limited');
      // The superseded version is not due: its successor is.
      expect((await get(`${ORG}/impact-assessments/${first}`)).reassessment.due).toBe(false);
      const due = await page('?due=true');
      expect(due).toMatchObject({ orgId: 'acme', total: 1, limit: 50, offset: 0 });
      expect(due.assessments.map((a: { assessmentId: string }) => a.assessmentId)).toEqual([second]);
      expect(
        (await page('?due=false')).assessments.map((a: { assessmentId: string }) => a.assessmentId),
      ).not.toContain(second);
      // Put back as it was at approval: no longer due.
      await t.request({
        method: 'PUT',
        url: `${ORG}/ai-systems/${systemId}`,
        body: { riskLevel: 'high', lifecycleStage: 'deployed' },
      });
      expect((await get(`${ORG}/impact-assessments/${second}`)).reassessment).toEqual({
        due: false,
        reasons: [],
      });
    });

    it('is due once its review date has passed', async () => {
      const other = await createSystem('Loan pricing');
      const assessmentId = await submitted(other, 'eu-ai-act-fria');
      expect((await act(assessmentId, 'approve', as(alex))).statusCode).toBe(200);
      expect((await get(`${ORG}/impact-assessments/${assessmentId}`)).reassessment.due).toBe(false);
      await t.db.em().execute(
        `update impact_assessments set approved_at = now() - interval '13 months', review_due = now() - interval '1 month'
           where assessment_id = ?`,
        [assessmentId],
      );
      const assessment = await get(`${ORG}/impact-assessments/${assessmentId}`);
      expect(assessment.reassessment).toMatchObject({ due: true, reasons: [{ code: 'review_due' }] });
      const due = await get(`${ORG}/impact-assessments?due=true&templateId=eu-ai-act-fria`);
      expect(due.assessments.map((a: { assessmentId: string }) => a.assessmentId)).toEqual([assessmentId]);
    });

    it('lists the org’s assessments by state, system and template, paged', async () => {
      const third = await createSystem('Support bot', 'limited');
      const dpia = await start(third, 'gdpr-dpia');
      expect(dpia.statusCode).toBe(201);
      const drafts = await get(`${ORG}/impact-assessments?state=draft`);
      expect(drafts.assessments.map((a: { assessmentId: string }) => a.assessmentId)).toEqual([
        dpia.json().assessmentId,
      ]);
      const all = await get(`${ORG}/impact-assessments?limit=2`);
      expect(all.total).toBe(4);
      expect(all.assessments).toHaveLength(2);
      const rest = await get(`${ORG}/impact-assessments?limit=2&offset=2`);
      expect(
        [...all.assessments, ...rest.assessments].map((a: { assessmentId: string }) => a.assessmentId),
      ).toHaveLength(4);
      expect((await get(`${ORG}/impact-assessments?systemId=${systemId}`)).total).toBe(2);
      expect((await get(`${ORG}/impact-assessments?templateId=gdpr-dpia`)).total).toBe(1);
      expect(
        (await t.request({ method: 'GET', url: `${ORG}/impact-assessments?state=bogus` })).statusCode,
      ).toBe(400);
      expect((await t.request({ method: 'GET', url: `${ORG}/impact-assessments/nope` })).statusCode).toBe(
        404,
      );
      expect(
        (await t.request({ method: 'GET', url: `${ORG}/ai-systems/sys-none/impact-assessments` })).statusCode,
      ).toBe(404);
    });

    it('writes every change to the audit trail, naming who made it', async () => {
      const log = await get(`${ORG}/audit-log?resourceType=impact-assessment&limit=200`);
      const ofFirst = log.events.filter((event: { resource: { id: string } }) => event.resource.id === first);
      const actions = ofFirst.map((event: { action: string }) => event.action).reverse();
      expect(actions[0]).toBe('impact-assessment.created');
      expect(
        actions.filter((action: string) => action === 'impact-assessment.updated').length,
      ).toBeGreaterThanOrEqual(5);
      const states = ofFirst
        .filter((event: { changes?: { state?: unknown } }) => event.changes?.state)
        .map((event: { changes: { state: { to: string } }; actor: { id: string } }) => [
          event.changes.state.to,
          event.actor.id,
        ])
        .reverse();
      const [{ actor: keyActor }] = ofFirst.slice(-1);
      expect(keyActor.type).toBe('key');
      expect(states).toEqual([
        ['draft', keyActor.id],
        ['submitted', oliviaId],
        ['approved', alexId],
        ['superseded', oliviaId],
      ]);
      const evidence = await get(`${ORG}/audit-log?action=evidence.created&actorId=${alexId}`);
      expect(evidence.events.length).toBeGreaterThanOrEqual(template('iso-42001-aiia').evidenceFor.length);
      expect((await get(`${ORG}/audit-log/verify`)).valid).toBe(true);
    });

    it("links an impact to a risk of the org's register, and refuses a risk it does not have with 400 naming it", async () => {
      const draft = (await start(await createSystem('Risky'), 'iso-42001-aiia')).json();
      const risk = await t.request({
        method: 'POST',
        url: `${ORG}/risks`,
        body: { title: 'Applicants treated unequally', likelihood: 3, impact: 4 },
      });
      expect(risk.statusCode, risk.body).toBe(201);
      const { riskId } = risk.json();
      const impact = {
        affected: 'individuals',
        description: 'Unequal treatment',
        likelihood: 2,
        severity: 2,
      };
      const linked = await put(draft.assessmentId, { impacts: [{ ...impact, riskId }] });
      expect(linked.statusCode, linked.body).toBe(200);
      expect(linked.json().impacts).toEqual([{ ...impact, riskId }]);
      const res = await put(draft.assessmentId, {
        impacts: [
          { ...impact, riskId },
          { ...impact, riskId: 'risk-none' },
        ],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.details).toMatchObject({
        fields: [{ field: 'body.impacts.1.riskId' }],
        riskIds: ['risk-none'],
      });
      const other = await t.request({
        method: 'POST',
        url: '/api/v1/orgs',
        body: { orgId: 'other', name: 'Other' },
      });
      expect(other.statusCode, other.body).toBe(201);
      const foreign = await t.request({
        method: 'POST',
        url: '/api/v1/orgs/other/risks',
        body: { title: 'Elsewhere', likelihood: 1, impact: 1 },
      });
      expect(foreign.statusCode, foreign.body).toBe(201);
      const elsewhere = await put(draft.assessmentId, {
        impacts: [{ ...impact, riskId: foreign.json().riskId }],
      });
      expect(elsewhere.statusCode).toBe(400);
      expect((await get(`${ORG}/impact-assessments/${draft.assessmentId}`)).impacts).toEqual([
        { ...impact, riskId },
      ]);
    });
  });

  it('raises an impact into the risk register, linking the draft’s impact to the new risk', async () => {
    const system = await createSystem('Fraud scorer');
    const draft = (await start(system, 'iso-42001-aiia')).json();
    const impact = {
      affected: 'individuals',
      rights: ['non-discrimination'],
      description: 'Legitimate payments blocked for some groups',
      likelihood: 3,
      severity: 4,
    };
    expect((await put(draft.assessmentId, { impacts: [impact] })).statusCode).toBe(200);
    const raised = await t.request({
      method: 'POST',
      url: `${ORG}/impact-assessments/${draft.assessmentId}/impacts/0/risk`,
      key: writer,
    });
    expect(raised.statusCode, raised.body).toBe(201);
    expect(raised.json()).toMatchObject({
      title: impact.description,
      systemIds: [system],
      likelihood: 3,
      impact: 4,
      inherent: { score: 12, level: 'high' },
    });
    const linked = await get(`${ORG}/impact-assessments/${draft.assessmentId}`);
    expect(linked.impacts[0].riskId).toBe(raised.json().riskId);
    const again = await t.request({
      method: 'POST',
      url: `${ORG}/impact-assessments/${draft.assessmentId}/impacts/0/risk`,
      key: writer,
    });
    expect(again.statusCode).toBe(409);
    const missing = await t.request({
      method: 'POST',
      url: `${ORG}/impact-assessments/${draft.assessmentId}/impacts/5/risk`,
      key: writer,
    });
    expect(missing.statusCode).toBe(404);
  });
});
