/**
 * The daily email digest: once a day (from the configured UTC hour on), each active member of an org who has
 * items gets one email of what is overdue and what falls due within 7 days. A member's items are those whose
 * owner is their name or email (any case); owners of the org also get every overdue item. The digest of a
 * member and day is claimed in `notification_digests` in the transaction that sends it, so none goes twice.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../platform/config.js';
import type { Em } from '../../platform/db/database.js';
import { selectOrg, selectOrgIds } from '../../records/orgs.store.js';
import { agendaOf, type DueItem } from '../agenda/agenda.service.js';
import { type MemberRow, selectMembers } from '../auth/people.store.js';
import { analysisOf } from '../cte/analysis.service.js';
import { DUE_SOON_MS } from './due-scan.service.js';
import { claimDigest, selectDigestsOfDay } from './reminders.store.js';

export type MailSettings = NonNullable<Config['mail']>;

/** The items of the agenda a member is told of (see the module comment). */
export function itemsOf(member: Pick<MemberRow, 'name' | 'email' | 'role'>, items: DueItem[]): DueItem[] {
  const names = new Set([member.name.toLowerCase(), member.email.toLowerCase()]);
  return items.filter(
    (item) =>
      (item.owner !== undefined && names.has(item.owner.toLowerCase())) ||
      (member.role === 'owner' && item.overdue),
  );
}

const line = (item: DueItem) =>
  `- ${item.dueAt.slice(0, 10)}  ${item.title}  [${item.kind.replaceAll('_', ' ')}${item.owner ? `, owner ${item.owner}` : ''}]`;

/** The digest's subject and text. */
export function digestMessage(
  org: { orgId: string; name: string },
  member: Pick<MemberRow, 'name'>,
  items: DueItem[],
  publicUrl: string | null,
) {
  const overdue = items.filter((item) => item.overdue);
  const soon = items.filter((item) => !item.overdue);
  const counts = [
    overdue.length ? `${overdue.length} overdue` : '',
    soon.length ? `${soon.length} due soon` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const sections = [
    overdue.length ? `Overdue:\n${overdue.map(line).join('\n')}` : '',
    soon.length ? `Due within 7 days:\n${soon.map(line).join('\n')}` : '',
  ].filter(Boolean);
  return {
    subject: `${org.name}: ${counts}`,
    text: [
      `Hello ${member.name},`,
      `here is what is due in ${org.name} (${org.orgId}):`,
      ...sections,
      publicUrl
        ? `Open comply: ${new URL('/', publicUrl).toString()}`
        : 'See `comply due --mine` for the list.',
      'You get this digest once a day while you have items due soon or overdue.',
    ].join('\n\n'),
  };
}

/** The day a digest counts for (UTC). */
export const dayOf = (now: Date) => now.toISOString().slice(0, 10);

/**
 * Sends the day's digests that are not sent yet, from the configured hour on; returns how many it sent. A
 * failure to send leaves that member's digest unclaimed for the next run.
 */
export async function sendDigests(
  em: Em,
  mail: MailSettings,
  options: { publicUrl: string | null; log: FastifyBaseLogger; now?: Date; orgId?: string },
): Promise<number> {
  const now = options.now ?? new Date();
  if (now.getUTCHours() < mail.digestHourUtc) return 0;
  const day = dayOf(now);
  const transport = nodemailer.createTransport(mail.smtpUrl);
  let sent = 0;
  try {
    for (const orgId of options.orgId ? [options.orgId] : await selectOrgIds(em)) {
      const sentToday = await selectDigestsOfDay(em, orgId, day);
      const members = (await selectMembers(em, orgId)).filter(
        (member) => member.status === 'active' && !sentToday.has(member.userId),
      );
      if (members.length === 0) continue;
      const [org, { items }] = await Promise.all([
        selectOrg(em, orgId),
        analysisOf(em, orgId).then((analysis) => agendaOf(em, orgId, analysis, now.getTime())),
      ]);
      if (!org) continue;
      const relevant = items.filter((item) => Date.parse(item.dueAt) - now.getTime() <= DUE_SOON_MS);
      for (const member of members) {
        const mine = itemsOf(member, relevant);
        if (mine.length === 0) continue;
        try {
          const delivered = await em.transactional(async (tx) => {
            if (!(await claimDigest(tx, { orgId, userId: member.userId, day, items: mine.length }, now))) {
              return false;
            }
            const message = digestMessage(org, member, mine, options.publicUrl);
            await transport.sendMail({
              from: mail.from,
              to: { name: member.name, address: member.email },
              subject: message.subject,
              text: message.text,
            });
            return true;
          });
          if (delivered) sent += 1;
        } catch (error) {
          options.log.warn(
            { err: error, orgId, userId: member.userId },
            'could not send the digest; it is tried again on the next run',
          );
        }
      }
    }
  } finally {
    transport.close();
  }
  return sent;
}
