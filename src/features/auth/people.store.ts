/**
 * People: the only module that reads or writes `users`, `memberships`, `invitations` and `sessions`. Secrets
 * (passwords, invitation and session tokens) are stored only as hashes.
 */
import type { Em } from '../../platform/db/database.js';
import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
import { textArray } from '../../platform/db/sql.js';
import type { MemberRole, MemberStatus } from '../../shared/vocabulary.js';

export interface UserRow {
  userId: string;
  email: string;
  name: string;
  passwordHash: string | null;
  platformAdmin: boolean;
  createdAt: string;
  lastSignInAt: string | null;
}

export interface MemberRow {
  orgId: string;
  userId: string;
  email: string;
  name: string;
  role: MemberRole;
  status: MemberStatus;
  expiresAt: string | null;
  frameworkIds: string[] | null;
  createdAt: string;
  lastSignInAt: string | null;
}

const USER_COLUMNS = `user_id as "userId", email, name, password_hash as "passwordHash",
  platform_admin as "platformAdmin", created_at as "createdAt", last_sign_in_at as "lastSignInAt"`;

const MEMBER_COLUMNS = `m.org_id as "orgId", m.user_id as "userId", u.email, u.name, m.role, m.status,
  m.expires_at as "expiresAt", m.framework_ids as "frameworkIds", m.created_at as "createdAt",
  u.last_sign_in_at as "lastSignInAt"`;

const toUser = (row: UserRow): UserRow => ({
  ...row,
  createdAt: toIso(row.createdAt),
  lastSignInAt: toIsoOrNull(row.lastSignInAt),
});

const toMember = (row: MemberRow): MemberRow => ({
  ...row,
  createdAt: toIso(row.createdAt),
  lastSignInAt: toIsoOrNull(row.lastSignInAt),
  expiresAt: toIsoOrNull(row.expiresAt),
});

export async function selectUserByEmail(em: Em, email: string): Promise<UserRow | null> {
  const [row] = await em.execute<UserRow[]>(
    `select ${USER_COLUMNS} from users where lower(email) = lower(?)`,
    [email],
  );
  return row ? toUser(row) : null;
}

export async function selectUser(em: Em, userId: string): Promise<UserRow | null> {
  const [row] = await em.execute<UserRow[]>(`select ${USER_COLUMNS} from users where user_id = ?`, [userId]);
  return row ? toUser(row) : null;
}

export async function countUsers(em: Em): Promise<number> {
  const [{ total }] = await em.execute<{ total: number }[]>('select count(*)::int as total from users');
  return total;
}

export async function insertUser(
  em: Em,
  user: { userId: string; email: string; name: string; passwordHash: string | null; platformAdmin: boolean },
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into users (user_id, email, name, password_hash, platform_admin, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?)`,
    [user.userId, user.email, user.name, user.passwordHash, user.platformAdmin, now, now],
  );
}

export async function updateUserPassword(
  em: Em,
  userId: string,
  passwordHash: string,
  now: Date,
): Promise<void> {
  await em.execute('update users set password_hash = ?, updated_at = ? where user_id = ?', [
    passwordHash,
    now,
    userId,
  ]);
}

/** Bookkeeping, not a change anybody made: the trail leaves `last_sign_in_at` to the platform's sign-in events. */
export async function touchSignIn(em: Em, userId: string, now: Date): Promise<void> {
  await em.execute('update users set last_sign_in_at = ? where user_id = ?', [now, userId]);
}

/** The user's memberships, every status, with the org's oldest first. */
export async function selectMembershipsOfUser(em: Em, userId: string): Promise<MemberRow[]> {
  const rows = await em.execute<MemberRow[]>(
    `select ${MEMBER_COLUMNS} from memberships m join users u using (user_id) where m.user_id = ? order by m.org_id`,
    [userId],
  );
  return rows.map(toMember);
}

export async function selectMembers(em: Em, orgId: string): Promise<MemberRow[]> {
  const rows = await em.execute<MemberRow[]>(
    `select ${MEMBER_COLUMNS} from memberships m join users u using (user_id)
     where m.org_id = ? order by lower(u.email)`,
    [orgId],
  );
  return rows.map(toMember);
}

/** The member, its row locked when `forUpdate` (role changes check the last owner under the lock). */
export async function selectMember(
  em: Em,
  orgId: string,
  userId: string,
  options: { forUpdate?: boolean } = {},
): Promise<MemberRow | null> {
  const [row] = await em.execute<MemberRow[]>(
    `select ${MEMBER_COLUMNS} from memberships m join users u using (user_id)
     where m.org_id = ? and m.user_id = ?${options.forUpdate ? ' for update of m' : ''}`,
    [orgId, userId],
  );
  return row ? toMember(row) : null;
}

/** Active owners of the org other than `userId`, their rows locked: two demotions cannot both pass. */
export async function countOtherActiveOwners(em: Em, orgId: string, userId: string): Promise<number> {
  const rows = await em.execute<{ userId: string }[]>(
    `select user_id as "userId" from memberships
     where org_id = ? and user_id <> ? and role = 'owner' and status = 'active' for update`,
    [orgId, userId],
  );
  return rows.length;
}

export async function insertMembership(
  em: Em,
  member: {
    orgId: string;
    userId: string;
    role: MemberRole;
    status: MemberStatus;
    expiresAt: Date | null;
    frameworkIds: string[] | null;
  },
  now: Date,
): Promise<void> {
  await em.execute(
    `insert into memberships (org_id, user_id, role, status, expires_at, framework_ids, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?::text[], ?, ?)`,
    [
      member.orgId,
      member.userId,
      member.role,
      member.status,
      member.expiresAt,
      textArray(member.frameworkIds),
      now,
      now,
    ],
  );
}

export async function updateMembership(
  em: Em,
  orgId: string,
  userId: string,
  change: {
    role?: MemberRole;
    status?: MemberStatus;
    expiresAt?: Date | null;
    frameworkIds?: string[] | null;
  },
  now: Date,
): Promise<void> {
  const sets: string[] = [];
  const params: unknown[] = [];
  if (change.role !== undefined) sets.push('role = ?') && params.push(change.role);
  if (change.status !== undefined) sets.push('status = ?') && params.push(change.status);
  if (change.expiresAt !== undefined) sets.push('expires_at = ?') && params.push(change.expiresAt);
  if (change.frameworkIds !== undefined) {
    sets.push('framework_ids = ?::text[]') && params.push(textArray(change.frameworkIds));
  }
  await em.execute(
    `update memberships set ${[...sets, 'updated_at = ?'].join(', ')} where org_id = ? and user_id = ?`,
    [...params, now, orgId, userId],
  );
}

/** Invited memberships of the user become active (the user accepted an invitation, or signed in by SSO). */
export async function activateInvitedMemberships(
  em: Em,
  userId: string,
  orgId: string | null,
  now: Date,
): Promise<void> {
  await em.execute(
    `update memberships set status = 'active', updated_at = ?
     where user_id = ? and status = 'invited'${orgId === null ? '' : ' and org_id = ?'}`,
    orgId === null ? [now, userId] : [now, userId, orgId],
  );
}

export async function deleteMembership(em: Em, orgId: string, userId: string): Promise<void> {
  await em.execute('delete from memberships where org_id = ? and user_id = ?', [orgId, userId]);
}

export interface InvitationRow {
  userId: string | null;
  orgId: string | null;
  expiresAt: string;
  usedAt: string | null;
}

export async function insertInvitation(
  em: Em,
  invitation: { tokenHash: string; userId: string | null; orgId: string | null; expiresAt: Date },
  now: Date,
): Promise<void> {
  await em.execute(
    'insert into invitations (token_hash, user_id, org_id, expires_at, created_at) values (?, ?, ?, ?, ?)',
    [invitation.tokenHash, invitation.userId, invitation.orgId, invitation.expiresAt, now],
  );
}

/** Marks the invitation used and returns it, when it is unused and current; null otherwise (one use only). */
export async function useInvitation(em: Em, tokenHash: string, now: Date): Promise<InvitationRow | null> {
  const [row] = await em.execute<InvitationRow[]>(
    `update invitations set used_at = ? where token_hash = ? and used_at is null and expires_at > ?
     returning user_id as "userId", org_id as "orgId", expires_at as "expiresAt", used_at as "usedAt"`,
    [now, tokenHash, now],
  );
  return row ?? null;
}

/** Whether an unused set-up link (no user, no org) is still current. */
export async function hasPendingSetup(em: Em, now: Date): Promise<boolean> {
  const rows = await em.execute(
    'select 1 from invitations where user_id is null and org_id is null and used_at is null and expires_at > ? limit 1',
    [now],
  );
  return rows.length > 0;
}

export async function insertSession(
  em: Em,
  session: { tokenHash: string; userId: string; expiresAt: Date },
  now: Date,
): Promise<void> {
  await em.execute(
    'insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at) values (?, ?, ?, ?, ?)',
    [session.tokenHash, session.userId, now, now, session.expiresAt],
  );
}

/**
 * The session's user when the session is live (not ended, not past its end, not idle longer than `idleMs`),
 * marking it seen now; null otherwise. One statement: checking and touching cannot drift apart.
 */
export async function touchSession(
  em: Em,
  tokenHash: string,
  idleMs: number,
  now: Date,
): Promise<string | null> {
  const [row] = await em.execute<{ userId: string }[]>(
    `update sessions set last_seen_at = ?
     where token_hash = ? and ended_at is null and expires_at > ? and last_seen_at > ?
     returning user_id as "userId"`,
    [now, tokenHash, now, new Date(now.getTime() - idleMs)],
  );
  return row?.userId ?? null;
}

export async function endSession(em: Em, tokenHash: string, now: Date): Promise<string | null> {
  const [row] = await em.execute<{ userId: string }[]>(
    'update sessions set ended_at = ? where token_hash = ? and ended_at is null returning user_id as "userId"',
    [now, tokenHash],
  );
  return row?.userId ?? null;
}

export async function endSessionsOfUser(em: Em, userId: string, now: Date): Promise<void> {
  await em.execute('update sessions set ended_at = ? where user_id = ? and ended_at is null', [now, userId]);
}
