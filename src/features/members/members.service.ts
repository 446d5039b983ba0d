import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict, resourceNotFound } from '../../platform/errors.js';
import { parseInstant } from '../../platform/time.js';
import type { MemberRole } from '../../shared/vocabulary.js';
import {
  countOtherActiveOwners,
  deleteMembership,
  insertMembership,
  insertUser,
  type MemberRow,
  selectMember,
  selectMembers,
  selectMembershipsOfUser,
  selectUserByEmail,
  updateMembership,
} from '../auth/people.store.js';
import { generateUserId } from '../auth/secrets.js';
import { closeSessionsOf } from '../auth/sessions.service.js';
import { issueInvitation } from '../auth/sign-in.service.js';

export type { MemberRow };

/** The contract's member: `expiresAt` and `frameworkIds` only where set. */
export const memberView = (member: MemberRow) => ({
  userId: member.userId,
  email: member.email,
  name: member.name,
  role: member.role,
  status: member.status,
  createdAt: member.createdAt,
  lastSignInAt: member.lastSignInAt,
  ...(member.expiresAt === null ? {} : { expiresAt: member.expiresAt }),
  ...(member.frameworkIds === null ? {} : { frameworkIds: member.frameworkIds }),
});

/** An auditor's bounds; other roles have none. */
function bounds(
  role: MemberRole,
  expiresAt: string | null | undefined,
  frameworkIds: string[] | null | undefined,
): { expiresAt: Date | null; frameworkIds: string[] | null } {
  if (role !== 'auditor' && (expiresAt || frameworkIds)) {
    throw badRequest('Only auditors have an expiry and a list of frameworks', {
      fields: [{ field: expiresAt ? 'body.expiresAt' : 'body.frameworkIds', message: 'auditors only' }],
    });
  }
  return {
    expiresAt: expiresAt ? parseInstant(expiresAt, 'body.expiresAt') : null,
    frameworkIds: frameworkIds ?? null,
  };
}

/**
 * Invites a person to the org: a new person is created without a password, an existing one (a member of
 * another org) is reused. The member starts `invited`; the one-time token is returned once.
 */
export async function inviteMember(
  em: Em,
  orgId: string,
  input: { email: string; name: string; role: MemberRole; expiresAt?: string; frameworkIds?: string[] },
  knownFrameworks: (ids: string[]) => Promise<string[]>,
): Promise<{ member: MemberRow; invitation: { token: string; expiresAt: Date } }> {
  const limits = bounds(input.role, input.expiresAt, input.frameworkIds);
  if (limits.expiresAt && limits.expiresAt.getTime() <= Date.now()) {
    throw badRequest('expiresAt must be in the future', {
      fields: [{ field: 'body.expiresAt', message: 'in the past' }],
    });
  }
  if (limits.frameworkIds) {
    const unknown = await knownFrameworks(limits.frameworkIds);
    if (unknown.length) {
      throw badRequest(`Unknown framework(s): ${unknown.join(', ')}`, { frameworkIds: unknown });
    }
  }
  return em.transactional(async (tx) => {
    const now = new Date();
    let user = await selectUserByEmail(tx, input.email);
    if (!user) {
      const userId = generateUserId();
      await insertUser(
        tx,
        { userId, email: input.email, name: input.name, passwordHash: null, platformAdmin: false },
        now,
      );
      user = { userId } as NonNullable<typeof user>;
    }
    if (await selectMember(tx, orgId, user.userId)) {
      throw conflict('This email is already a member of the organization', { email: input.email });
    }
    await insertMembership(
      tx,
      { orgId, userId: user.userId, role: input.role, status: 'invited', ...limits },
      now,
    );
    const invitation = await issueInvitation(tx, { userId: user.userId, orgId }, now);
    return { member: (await selectMember(tx, orgId, user.userId)) as MemberRow, invitation };
  });
}

export const listMembers = (em: Em, orgId: string) => selectMembers(em, orgId);

export async function getMember(em: Em, orgId: string, userId: string): Promise<MemberRow> {
  const member = await selectMember(em, orgId, userId);
  if (!member) throw resourceNotFound('Member', { userId });
  return member;
}

const lastOwner = (orgId: string) =>
  conflict('The organization’s last active owner cannot be removed, demoted or disabled', {
    orgId,
    reason: 'last_owner',
  });

/**
 * Changes a member's role, status or auditor bounds. The org's last active owner stays one. Returns the member
 * after the change and whether their sessions must end (disabled).
 */
export async function updateMember(
  em: Em,
  orgId: string,
  userId: string,
  change: {
    role?: MemberRole;
    status?: 'active' | 'disabled';
    expiresAt?: string | null;
    frameworkIds?: string[] | null;
  },
  knownFrameworks: (ids: string[]) => Promise<string[]>,
): Promise<MemberRow> {
  if (change.frameworkIds) {
    const unknown = await knownFrameworks(change.frameworkIds);
    if (unknown.length)
      throw badRequest(`Unknown framework(s): ${unknown.join(', ')}`, { frameworkIds: unknown });
  }
  return em.transactional(async (tx) => {
    const member = await selectMember(tx, orgId, userId, { forUpdate: true });
    if (!member) throw resourceNotFound('Member', { userId });
    const role = change.role ?? member.role;
    const losesOwnership =
      member.role === 'owner' &&
      member.status === 'active' &&
      (role !== 'owner' || change.status === 'disabled');
    if (losesOwnership && (await countOtherActiveOwners(tx, orgId, userId)) === 0) throw lastOwner(orgId);
    const expiresAt = change.expiresAt === undefined ? member.expiresAt : change.expiresAt;
    const frameworkIds = change.frameworkIds === undefined ? member.frameworkIds : change.frameworkIds;
    // Leaving the auditor role drops its bounds; other roles may not be given any.
    const limits =
      role === 'auditor'
        ? bounds(role, expiresAt, frameworkIds)
        : bounds(role, change.expiresAt, change.frameworkIds);
    // An invited member stays invited until they accept; only an accepted membership can be re-enabled.
    const status = change.status === 'active' && member.status === 'invited' ? undefined : change.status;
    await updateMembership(tx, orgId, userId, { role, status, ...limits }, new Date());
    if (status === 'disabled' && (await activeMembershipsOf(tx, userId)) === 0)
      await closeSessionsOf(tx, userId);
    return (await selectMember(tx, orgId, userId)) as MemberRow;
  });
}

const activeMembershipsOf = async (em: Em, userId: string) =>
  (await selectMembershipsOfUser(em, userId)).filter((member) => member.status === 'active').length;

/** Removes a member (their person stays, with any other membership). */
export async function removeMember(em: Em, orgId: string, userId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const member = await selectMember(tx, orgId, userId, { forUpdate: true });
    if (!member) throw resourceNotFound('Member', { userId });
    if (
      member.role === 'owner' &&
      member.status === 'active' &&
      (await countOtherActiveOwners(tx, orgId, userId)) === 0
    ) {
      throw lastOwner(orgId);
    }
    await deleteMembership(tx, orgId, userId);
    if ((await activeMembershipsOf(tx, userId)) === 0) await closeSessionsOf(tx, userId);
  });
}
