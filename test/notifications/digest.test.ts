import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digestJob } from '../../src/features/notifications/notifications.jobs.js';
import { ConfigError, loadConfig } from '../../src/platform/config.js';
import { createTestApp, dbKinds, type TestApp } from '../support/app.js';
import { addMember } from '../support/people.js';

const ORG = '/api/v1/orgs/acme';
const DAY = 86_400_000;
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();

interface Mail {
  from: string;
  to: string[];
  subject: string;
  text: string;
}

/** Undoes quoted-printable soft breaks and escapes (nodemailer wraps long lines so). */
const unquote = (text: string) =>
  text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

/** A real SMTP server on the loopback interface, keeping every message it accepts. */
async function startSmtp(): Promise<{ server: SMTPServer; port: number; mails: Mail[] }> {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const [head, ...body] = raw.split(/\r?\n\r?\n/);
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: /^Subject: (.*)$/m.exec(head)?.[1] ?? '',
          text: unquote(body.join('\n\n')),
        });
        callback();
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  return { server, port: (server.server.address() as AddressInfo).port, mails };
}

describe.each(dbKinds)('the daily digest by email (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, {
      env: {
        COMPLY_SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        COMPLY_MAIL_FROM: 'comply <comply@example.com>',
        COMPLY_DIGEST_HOUR: '0',
      },
    });
    await t.createOrg('acme', 'Acme AI');
    await addMember(t, 'acme', { email: 'dana@example.com', name: 'Dana Doe', role: 'editor' });
    await addMember(t, 'acme', { email: 'olga@example.com', name: 'Olga Owner', role: 'owner' });
    await addMember(t, 'acme', { email: 'vic@example.com', name: 'Vic Viewer', role: 'viewer' });
    const post = async (url: string, body: unknown) => {
      const response = await t.request({ method: 'POST', url: `${ORG}${url}`, body });
      expect(response.statusCode, response.body).toBe(201);
    };
    await post('/controls/A.2.2/evidence', {
      type: 'link',
      title: 'Old policy',
      fileUrl: 'https://example.com/old',
      expiresAt: at(-2),
    });
    await post('/risks', {
      title: 'Unvalidated updates',
      owner: 'Dana Doe',
      likelihood: 3,
      impact: 3,
      treatment: {
        option: 'mitigate',
        requirements: [{ frameworkId: 'iso-42001', requirementId: 'A.6.2.4' }],
        dueDate: at(2),
      },
    });
    await post('/risks', {
      title: 'Later review',
      owner: 'dana@example.com',
      likelihood: 1,
      impact: 1,
      reviewDate: at(40),
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  it('sends each member with items one digest a day, received by the SMTP server', async () => {
    expect(await t.jobs.run(digestJob, {})).toEqual({ sent: 2 });
    expect(smtp.mails.map((mail) => mail.to).sort()).toEqual([['dana@example.com'], ['olga@example.com']]);
    const dana = smtp.mails.find((mail) => mail.to[0] === 'dana@example.com') as Mail;
    expect(dana.from).toBe('comply@example.com');
    expect(dana.subject).toBe('Acme AI: 1 due soon');
    expect(dana.text).toContain('Hello Dana Doe');
    expect(dana.text).toContain('Treatment of "Unvalidated updates"');
    // Due in 40 days: not in the digest.
    expect(dana.text).not.toContain('Later review');
    const olga = smtp.mails.find((mail) => mail.to[0] === 'olga@example.com') as Mail;
    expect(olga.subject).toBe('Acme AI: 1 overdue');
    expect(olga.text).toContain('Evidence "Old policy" (iso-42001 A.2.2) expires');

    // The same day: nothing more.
    expect(await t.jobs.run(digestJob, {})).toEqual({ sent: 0 });
    expect(smtp.mails).toHaveLength(2);
    // The next day: again.
    expect(await t.jobs.run(digestJob, { now: Date.now() + DAY })).toEqual({ sent: 2 });
    expect(smtp.mails).toHaveLength(4);
  });
});

describe('digest settings', () => {
  it('needs a sender with an SMTP server, and an hour of the day', () => {
    expect(loadConfig({}).mail).toBeNull();
    expect(() => loadConfig({ COMPLY_SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(ConfigError);
    expect(() => loadConfig({ COMPLY_SMTP_URL: 'http://127.0.0.1:25', COMPLY_MAIL_FROM: 'a@b.c' })).toThrow(
      ConfigError,
    );
    expect(
      loadConfig({ COMPLY_SMTP_URL: 'smtps://mail.example.com', COMPLY_MAIL_FROM: 'a@b.c' }).mail,
    ).toEqual({
      smtpUrl: 'smtps://mail.example.com',
      from: 'a@b.c',
      digestHourUtc: 7,
    });
    expect(() =>
      loadConfig({ COMPLY_SMTP_URL: 'smtp://h', COMPLY_MAIL_FROM: 'a@b.c', COMPLY_DIGEST_HOUR: '24' }),
    ).toThrow(ConfigError);
    expect(loadConfig({ COMPLY_WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks.allowPrivate).toBe(true);
    expect(() => loadConfig({ COMPLY_WEBHOOK_ALLOW_PRIVATE: 'yes' })).toThrow(ConfigError);
  });
});
