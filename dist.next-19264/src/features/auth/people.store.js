import { toIso, toIsoOrNull } from '../../platform/db/instant.js';
const USER_COLUMNS = `user_id as "userId", email, name, password_hash as "passwordHash",
  platform_admin as "platformAdmin", created_at as "createdAt", last_sign_in_at as "lastSignInAt"`;
const MEMBER_COLUMNS = `m.org_id as "orgId", m.user_id as "userId", u.email, u.name, m.role, m.status,
  m.expires_at as "expiresAt", m.framework_ids as "frameworkIds", m.created_at as "createdAt",
  u.last_sign_in_at as "lastSignInAt"`;
const toUser = (row) => ({
    ...row,
    createdAt: toIso(row.createdAt),
    lastSignInAt: toIsoOrNull(row.lastSignInAt),
});
const toMember = (row) => ({
    ...row,
    createdAt: toIso(row.createdAt),
    lastSignInAt: toIsoOrNull(row.lastSignInAt),
    expiresAt: toIsoOrNull(row.expiresAt),
});
/** A text[] literal: bound arrays would be spread into a list of parameters. */
const textArray = (values) => values === null ? null : `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
export async function selectUserByEmail(em, email) {
    const [row] = await em.execute(`select ${USER_COLUMNS} from users where lower(email) = lower(?)`, [email]);
    return row ? toUser(row) : null;
}
export async function selectUser(em, userId) {
    const [row] = await em.execute(`select ${USER_COLUMNS} from users where user_id = ?`, [userId]);
    return row ? toUser(row) : null;
}
export async function countUsers(em) {
    const [{ total }] = await em.execute('select count(*)::int as total from users');
    return total;
}
export async function insertUser(em, user, now) {
    await em.execute(`insert into users (user_id, email, name, password_hash, platform_admin, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?)`, [user.userId, user.email, user.name, user.passwordHash, user.platformAdmin, now, now]);
}
export async function updateUserPassword(em, userId, passwordHash, now) {
    await em.execute('update users set password_hash = ?, updated_at = ? where user_id = ?', [
        passwordHash,
        now,
        userId,
    ]);
}
/** Bookkeeping, not a change anybody made: the trail leaves `last_sign_in_at` to the platform's sign-in events. */
export async function touchSignIn(em, userId, now) {
    await em.execute('update users set last_sign_in_at = ? where user_id = ?', [now, userId]);
}
/** The user's memberships, every status, with the org's oldest first. */
export async function selectMembershipsOfUser(em, userId) {
    const rows = await em.execute(`select ${MEMBER_COLUMNS} from memberships m join users u using (user_id) where m.user_id = ? order by m.org_id`, [userId]);
    return rows.map(toMember);
}
export async function selectMembers(em, orgId) {
    const rows = await em.execute(`select ${MEMBER_COLUMNS} from memberships m join users u using (user_id)
     where m.org_id = ? order by lower(u.email)`, [orgId]);
    return rows.map(toMember);
}
/** The member, its row locked when `forUpdate` (role changes check the last owner under the lock). */
export async function selectMember(em, orgId, userId, options = {}) {
    const [row] = await em.execute(`select ${MEMBER_COLUMNS} from memberships m join users u using (user_id)
     where m.org_id = ? and m.user_id = ?${options.forUpdate ? ' for update of m' : ''}`, [orgId, userId]);
    return row ? toMember(row) : null;
}
/** Active owners of the org other than `userId`, their rows locked: two demotions cannot both pass. */
export async function countOtherActiveOwners(em, orgId, userId) {
    const rows = await em.execute(`select user_id as "userId" from memberships
     where org_id = ? and user_id <> ? and role = 'owner' and status = 'active' for update`, [orgId, userId]);
    return rows.length;
}
export async function insertMembership(em, member, now) {
    await em.execute(`insert into memberships (org_id, user_id, role, status, expires_at, framework_ids, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?::text[], ?, ?)`, [
        member.orgId,
        member.userId,
        member.role,
        member.status,
        member.expiresAt,
        textArray(member.frameworkIds),
        now,
        now,
    ]);
}
export async function updateMembership(em, orgId, userId, change, now) {
    const sets = [];
    const params = [];
    if (change.role !== undefined)
        sets.push('role = ?') && params.push(change.role);
    if (change.status !== undefined)
        sets.push('status = ?') && params.push(change.status);
    if (change.expiresAt !== undefined)
        sets.push('expires_at = ?') && params.push(change.expiresAt);
    if (change.frameworkIds !== undefined) {
        sets.push('framework_ids = ?::text[]') && params.push(textArray(change.frameworkIds));
    }
    await em.execute(`update memberships set ${[...sets, 'updated_at = ?'].join(', ')} where org_id = ? and user_id = ?`, [...params, now, orgId, userId]);
}
/** Invited memberships of the user become active (the user accepted an invitation, or signed in by SSO). */
export async function activateInvitedMemberships(em, userId, orgId, now) {
    await em.execute(`update memberships set status = 'active', updated_at = ?
     where user_id = ? and status = 'invited'${orgId === null ? '' : ' and org_id = ?'}`, orgId === null ? [now, userId] : [now, userId, orgId]);
}
export async function deleteMembership(em, orgId, userId) {
    await em.execute('delete from memberships where org_id = ? and user_id = ?', [orgId, userId]);
}
export async function insertInvitation(em, invitation, now) {
    await em.execute('insert into invitations (token_hash, user_id, org_id, expires_at, created_at) values (?, ?, ?, ?, ?)', [invitation.tokenHash, invitation.userId, invitation.orgId, invitation.expiresAt, now]);
}
/** Marks the invitation used and returns it, when it is unused and current; null otherwise (one use only). */
export async function useInvitation(em, tokenHash, now) {
    const [row] = await em.execute(`update invitations set used_at = ? where token_hash = ? and used_at is null and expires_at > ?
     returning user_id as "userId", org_id as "orgId", expires_at as "expiresAt", used_at as "usedAt"`, [now, tokenHash, now]);
    return row ?? null;
}
/** Whether an unused set-up link (no user, no org) is still current. */
export async function hasPendingSetup(em, now) {
    const rows = await em.execute('select 1 from invitations where user_id is null and org_id is null and used_at is null and expires_at > ? limit 1', [now]);
    return rows.length > 0;
}
export async function insertSession(em, session, now) {
    await em.execute('insert into sessions (token_hash, user_id, created_at, last_seen_at, expires_at) values (?, ?, ?, ?, ?)', [session.tokenHash, session.userId, now, now, session.expiresAt]);
}
/**
 * The session's user when the session is live (not ended, not past its end, not idle longer than `idleMs`),
 * marking it seen now; null otherwise. One statement: checking and touching cannot drift apart.
 */
export async function touchSession(em, tokenHash, idleMs, now) {
    const [row] = await em.execute(`update sessions set last_seen_at = ?
     where token_hash = ? and ended_at is null and expires_at > ? and last_seen_at > ?
     returning user_id as "userId"`, [now, tokenHash, now, new Date(now.getTime() - idleMs)]);
    return row?.userId ?? null;
}
export async function endSession(em, tokenHash, now) {
    const [row] = await em.execute('update sessions set ended_at = ? where token_hash = ? and ended_at is null returning user_id as "userId"', [now, tokenHash]);
    return row?.userId ?? null;
}
export async function endSessionsOfUser(em, userId, now) {
    await em.execute('update sessions set ended_at = ? where user_id = ? and ended_at is null', [now, userId]);
}
//# sourceMappingURL=people.store.js.map