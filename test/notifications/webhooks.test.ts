import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember, signIn } from '../support/people.js';
import { ofType, Receiver } from './receiver.js';

const ORG = '/api/v1/orgs/acme';
const ORIGIN = 'http://localhost:80';

describe.each(dbKinds)('webhooks (%s)', (kind) => {
  let t: TestApp;
  let receiver: Receiver;
  let flaky: Receiver;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true', COMPLY_WEBHOOK_BACKOFF_MS: '50' },
    });
    await t.createOrg('acme');
    receiver = await new Receiver().start();
    flaky = await new Receiver().start();
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
    await flaky.close();
  });

  const create = (body: unknown, headers: Record<string, string> = {}, key?: string | null) =>
    t.request({
      method: 'POST',
      url: `${ORG}/webhooks`,
      body,
      headers,
      ...(key === undefined ? {} : { key }),
    });

  let webhookId: string;
  let secret: string;

  it('adds a webhook and returns its secret once', async () => {
    const created = await create({
      url: receiver.url,
      events: ['requirement.status_changed', 'risk.created'],
      description: 'chat',
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      url: receiver.url,
      events: ['requirement.status_changed', 'risk.created'],
      description: 'chat',
      createdAt: expect.any(String),
    });
    expect(body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.headers.location).toBe(`${ORG}/webhooks/${body.webhookId}`);
    webhookId = body.webhookId;
    secret = body.secret;

    const one = await t.request({ method: 'GET', url: `${ORG}/webhooks/${webhookId}` });
    expect(one.statusCode).toBe(200);
    expect(one.json()).not.toHaveProperty('secret');
    const list = await t.request({ method: 'GET', url: `${ORG}/webhooks` });
    expect(list.json().webhooks.map((w: { webhookId: string }) => w.webhookId)).toEqual([webhookId]);
    expect(list.body).not.toContain(secret);
    // The audit trail records the webhook, never its secret.
    const trail = await t.request({ method: 'GET', url: `${ORG}/audit-log?action=webhook.created` });
    expect(trail.json().events).toHaveLength(1);
    expect(trail.json().events[0].changes.url.to).toBe(receiver.url);
    expect(trail.body).not.toContain(secret);
  });

  it('delivers a change signed per Standard Webhooks, verified with the reference library', async () => {
    const changed = await t.request({
      method: 'PUT',
      url: `${ORG}/controls/A.6.2.8/status`,
      body: { status: 'implemented', reviewer: 'alice' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [request] = await receiver.waitFor(ofType('requirement.status_changed'));
    const verified = new Webhook(secret).verify(request.body, request.headers) as {
      type: string;
      timestamp: string;
      data: Record<string, unknown>;
    };
    expect(request.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request.headers['content-type']).toBe('application/json');
    expect(verified.type).toBe('requirement.status_changed');
    expect(verified.data).toMatchObject({
      orgId: 'acme',
      resource: { type: 'requirement', id: 'iso-42001/A.6.2.8' },
      actor: { type: 'key' },
      changes: { status: { from: 'not_started', to: 'implemented' } },
    });
    // webhook-id is the audit event's id; data.seq its place in the trail.
    const trail = await t.request({
      method: 'GET',
      url: `${ORG}/audit-log?resourceType=requirement&limit=1`,
    });
    const [event] = trail.json().events;
    expect(request.headers['webhook-id']).toBe(event.eventId);
    expect(verified.data.seq).toBe(event.seq);
    expect(verified.timestamp).toBe(event.at);
    // A tampered body does not verify.
    expect(() =>
      new Webhook(secret).verify(request.body.replace('alice', 'mallory'), request.headers),
    ).toThrow();
    expect(() =>
      new Webhook(secret).verify(request.body.replace('implemented', 'not_started'), request.headers),
    ).toThrow();
  });

  it('sends only the events the webhook subscribes to, and logs each attempt', async () => {
    const before = receiver.received.length;
    const risk = await t.request({
      method: 'POST',
      url: `${ORG}/risks`,
      body: { title: 'Prompt injection', likelihood: 3, impact: 4 },
    });
    expect(risk.statusCode, risk.body).toBe(201);
    const evidence = await t.request({
      method: 'POST',
      url: `${ORG}/controls/A.2.2/evidence`,
      body: { type: 'link', title: 'Policy', fileUrl: 'https://example.com/policy' },
    });
    expect(evidence.statusCode, evidence.body).toBe(201);
    await receiver.waitFor(ofType('risk.created'));
    // The evidence event was read past (not subscribed): give a stray delivery the time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const types = receiver
      .bodies()
      .slice(before)
      .map((body) => body.type);
    expect(types).toEqual(['risk.created']);
    const log = await t.request({ method: 'GET', url: `${ORG}/webhooks/${webhookId}/deliveries` });
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json()).toMatchObject({ webhookId, total: 2, limit: 50, offset: 0 });
    expect(log.json().deliveries[0]).toMatchObject({
      type: 'risk.created',
      attempt: 1,
      statusCode: 200,
      error: null,
      outcome: 'delivered',
      durationMs: expect.any(Number),
    });
    const paged = await t.request({
      method: 'GET',
      url: `${ORG}/webhooks/${webhookId}/deliveries?limit=1&offset=1`,
    });
    expect(paged.json().deliveries.map((d: { type: string }) => d.type)).toEqual([
      'requirement.status_changed',
    ]);
  });

  it('retries after a 500 until the receiver takes it, with the same webhook-id', async () => {
    flaky.answer(500);
    const created = await create({ url: flaky.url, events: ['evidence.created'] });
    expect(created.statusCode, created.body).toBe(201);
    const { webhookId: flakyId, secret: flakySecret } = created.json();
    const evidence = await t.request({
      method: 'POST',
      url: `${ORG}/controls/A.2.3/evidence`,
      body: { type: 'link', title: 'Portal', fileUrl: 'https://example.com/portal' },
    });
    expect(evidence.statusCode, evidence.body).toBe(201);
    const [first, second] = await flaky.waitFor(ofType('evidence.created'), 2);
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(new Webhook(flakySecret).verify(second.body, second.headers)).toMatchObject({
      type: 'evidence.created',
      data: { resource: { type: 'evidence', id: evidence.json().evidenceId } },
    });
    const expectLog = async () => {
      const log = await t.request({ method: 'GET', url: `${ORG}/webhooks/${flakyId}/deliveries` });
      const attempts = log
        .json()
        .deliveries.map((d: Record<string, unknown>) => [d.attempt, d.statusCode, d.outcome, d.error]);
      expect(attempts).toEqual([
        [2, 200, 'delivered', null],
        [1, 500, 'retrying', 'the receiver answered 500'],
      ]);
    };
    // The second attempt is logged just after the receiver answers it.
    await expect.poll(expectLog, { timeout: 5000 }).toBeUndefined();
  });

  it('delivers approvals: an impact assessment approved, a document version published', async () => {
    const approvals = await new Receiver().start();
    try {
      const created = await create({
        url: approvals.url,
        events: ['assessment.approved', 'document.published'],
      });
      expect(created.statusCode, created.body).toBe(201);
      await addMember(t, 'acme', { email: 'alex@example.com', name: 'Alex Approver', role: 'approver' });
      const alex = {
        key: null,
        headers: { cookie: await signIn(t, 'alex@example.com', 'correct horse battery'), origin: ORIGIN },
      };
      const post = async (url: string, body: unknown = {}, who: object = {}) => {
        const response = await t.request({ method: 'POST', url: `${ORG}${url}`, body, ...who });
        expect(response.statusCode, response.body).toBeLessThan(300);
        return response.json();
      };

      const document = await post('/documents', { title: 'AI policy', kind: 'policy', requirements: [] });
      const version = await post(`/documents/${document.documentId}/versions`, {
        content: '# Policy',
        changelog: 'First',
      });
      await post(`/documents/${document.documentId}/versions/${version.versionId}/approve`, {}, alex);

      const system = await post('/ai-systems', {
        name: 'CV screener',
        owner: 'HR',
        purpose: 'Ranks applicants',
        riskLevel: 'high',
        lifecycleStage: 'deployed',
      });
      const template = (
        await t.request({ method: 'GET', url: '/api/v1/impact-assessment-templates/iso-42001-aiia' })
      ).json() as {
        sections: { questions: { questionId: string; kind: string; options?: string[] }[] }[];
      };
      const answers = Object.fromEntries(
        template.sections
          .flatMap((section) => section.questions)
          .map((q) => [
            q.questionId,
            q.kind === 'text'
              ? 'An answer'
              : q.kind === 'choice'
                ? q.options?.[0]
                : q.kind === 'multi'
                  ? q.options?.slice(0, 1)
                  : (q.options ?? []).length,
          ]),
      );
      const assessment = await post(`/ai-systems/${system.systemId}/impact-assessments`, {
        templateId: 'iso-42001-aiia',
      });
      const answered = await t.request({
        method: 'PUT',
        url: `${ORG}/impact-assessments/${assessment.assessmentId}`,
        body: { answers },
      });
      expect(answered.statusCode, answered.body).toBe(200);
      await post(`/impact-assessments/${assessment.assessmentId}/submit`);
      await post(`/impact-assessments/${assessment.assessmentId}/approve`, {}, alex);

      const [published] = await approvals.waitFor(ofType('document.published'));
      const [approved] = await approvals.waitFor(ofType('assessment.approved'));
      const secret = created.json().secret;
      expect(new Webhook(secret).verify(published.body, published.headers)).toMatchObject({
        data: {
          resource: { type: 'document-version', id: version.versionId },
          actor: { type: 'user', name: 'Alex Approver' },
          changes: { state: { from: 'draft', to: 'published' } },
        },
      });
      expect(new Webhook(secret).verify(approved.body, approved.headers)).toMatchObject({
        data: {
          resource: { type: 'impact-assessment', id: assessment.assessmentId },
          changes: { state: { from: 'submitted', to: 'approved' } },
        },
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(approvals.received).toHaveLength(2);
    } finally {
      await approvals.close();
    }
  });

  it('refuses bad bodies, and anyone who may not manage the org', async () => {
    expect((await create({ url: receiver.url, events: [] })).statusCode).toBe(400);
    expect((await create({ url: receiver.url, events: ['item.forgotten'] })).statusCode).toBe(400);
    expect((await create({ url: receiver.url, events: ['risk.created'], extra: 1 })).statusCode).toBe(400);
    const ftp = await create({ url: 'ftp://127.0.0.1/hook', events: ['risk.created'] });
    expect(ftp.statusCode).toBe(400);
    expect(ftp.json().error.details.fields[0].field).toBe('body.url');
    const credentials = await create({ url: 'http://user:pw@127.0.0.1/hook', events: ['risk.created'] });
    expect(credentials.statusCode).toBe(400);
    expect((await create({ url: 'not a url', events: ['risk.created'] })).statusCode).toBe(400);

    const writer = await t.createKey('acme', ['read', 'write']);
    expect((await create({ url: receiver.url, events: ['risk.created'] }, {}, writer)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `${ORG}/webhooks`, key: writer })).statusCode).toBe(403);
    await addMember(t, 'acme', { email: 'ed@example.com', name: 'Ed Editor', role: 'editor' });
    await addMember(t, 'acme', { email: 'olga@example.com', name: 'Olga Owner', role: 'owner' });
    const editor = await signIn(t, 'ed@example.com', 'correct horse battery');
    const owner = await signIn(t, 'olga@example.com', 'correct horse battery');
    const asEditor = await create(
      { url: receiver.url, events: ['risk.created'] },
      { cookie: editor, origin: ORIGIN },
      null,
    );
    expect(asEditor.statusCode).toBe(403);
    const asOwner = await create(
      { url: receiver.url, events: ['finding.opened'] },
      { cookie: owner, origin: ORIGIN },
      null,
    );
    expect(asOwner.statusCode, asOwner.body).toBe(201);
    expect(asOwner.json().createdBy).toMatch(/^usr_/);
  });

  it('removes a webhook: nothing more is sent to it', async () => {
    const removed = await t.request({ method: 'DELETE', url: `${ORG}/webhooks/${webhookId}` });
    expect(removed.statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: `${ORG}/webhooks/${webhookId}` })).statusCode).toBe(404);
    const gone = await t.request({ method: 'GET', url: `${ORG}/webhooks/${webhookId}/deliveries` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { webhookId } });
    expect((await t.request({ method: 'DELETE', url: `${ORG}/webhooks/${webhookId}` })).statusCode).toBe(404);
    const before = receiver.received.length;
    await t.request({
      method: 'POST',
      url: `${ORG}/risks`,
      body: { title: 'Model drift', likelihood: 2, impact: 2 },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received.length).toBe(before);
  });
});

describe.each(dbKinds)('webhook addresses (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
    await t.createOrg('acme');
  });
  afterAll(() => t.close());

  it.each([
    ['loopback', 'http://127.0.0.1:9/hook'],
    ['loopback by name', 'http://localhost:9/hook'],
    ['IPv6 loopback', 'http://[::1]:9/hook'],
    ['private', 'https://10.1.2.3/hook'],
    ['private', 'https://192.168.0.10/hook'],
    ['private', 'https://172.16.5.4/hook'],
    ['link-local (cloud metadata)', 'http://169.254.169.254/latest'],
    ['carrier-grade NAT', 'http://100.64.0.1/hook'],
    ['unspecified', 'http://0.0.0.0/hook'],
    ['multicast', 'http://224.0.0.1/hook'],
    ['IPv6 unique local', 'http://[fd00::1]/hook'],
    ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/hook'],
  ])('refuses a %s address (%s) with 400', async (_name, url) => {
    const response = await t.request({
      method: 'POST',
      url: `${ORG}/webhooks`,
      body: { url, events: ['risk.created'] },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error.details).toMatchObject({
      reason: 'private_address',
      fields: [{ field: 'body.url' }],
    });
    expect(response.json().error.message).toContain('COMPLY_WEBHOOK_ALLOW_PRIVATE');
  });
});

describe('a daemon stopping while a delivery waits for its retry', () => {
  it('stops at once; the delivery stays pending for the next start', async () => {
    const t = await createTestApp(dbKinds[0], {
      env: { COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true', COMPLY_WEBHOOK_BACKOFF_MS: '600000' },
    });
    const receiver = await new Receiver().start();
    try {
      await t.createOrg('acme');
      receiver.answer(503);
      const created = await t.request({
        method: 'POST',
        url: `${ORG}/webhooks`,
        body: { url: receiver.url, events: ['risk.created'] },
      });
      expect(created.statusCode, created.body).toBe(201);
      await t.request({
        method: 'POST',
        url: `${ORG}/risks`,
        body: { title: 'Drift', likelihood: 2, impact: 2 },
      });
      await receiver.waitFor(ofType('risk.created'));
      await expect
        .poll(async () => {
          const log = await t.request({
            method: 'GET',
            url: `${ORG}/webhooks/${created.json().webhookId}/deliveries`,
          });
          return log.json().deliveries.map((d: { outcome: string }) => d.outcome);
        })
        .toEqual(['retrying']);
      const [pending] = await t.db
        .em()
        .execute<{ state: string; wait: number }[]>(
          `select state, extract(epoch from next_attempt_at - now())::int as wait from webhook_deliveries`,
        );
      expect(pending.state).toBe('pending');
      expect(pending.wait).toBeGreaterThan(500);
      const started = Date.now();
      await t.app.close();
      await t.jobs.close();
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await t.close();
      await receiver.close();
    }
  });
});
