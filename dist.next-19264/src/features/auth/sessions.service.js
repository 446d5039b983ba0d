import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { reportCache } from '../../platform/metrics/events.js';
import { ISO_42001, ROLE_PERMISSIONS } from '../../shared/vocabulary.js';
import { endSession, endSessionsOfUser, insertSession, selectMembershipsOfUser, selectUser, touchSession, } from './people.store.js';
import { generateToken, tokenHash } from './secrets.js';
export const SESSION_COOKIE = 'comply_session';
/** Opens a session for the user: the token goes into the cookie, only its hash into the database. */
export async function openSession(em, userId, limits, now = new Date()) {
    const token = generateToken();
    await insertSession(em, { tokenHash: tokenHash(token), userId, expiresAt: new Date(now.getTime() + limits.maxMs) }, now);
    return token;
}
/** Ends one session; the user it belonged to, or null when it had already ended. */
export const closeSession = (em, token) => endSession(em, tokenHash(token), new Date());
/** Ends every session of the user (disabled, removed from every org). */
export const closeSessionsOf = (em, userId) => endSessionsOfUser(em, userId, new Date());
const CACHE_TTL_MS = 10_000;
const CACHE_CAPACITY = 10_000;
/**
 * Resolves session cookies to people, as `KeyResolver` does keys: looked up by the token's hash, the answer
 * cached 10 s. Each lookup marks the session seen, so idleness is measured to within that. Sign-outs,
 * disabled members and role changes reach every instance's cache at once through the revocation bus.
 */
export class SessionResolver {
    em;
    limits;
    sessions = new TtlCache(CACHE_TTL_MS, CACHE_CAPACITY);
    constructor(em, limits) {
        this.em = em;
        this.limits = limits;
    }
    known(token) {
        const user = this.sessions.get(token);
        reportCache('sessions', user !== undefined);
        return user;
    }
    async lookUp(token) {
        const hash = tokenHash(token);
        const em = this.em();
        const userId = await touchSession(em, hash, this.limits.idleMs, new Date());
        const user = userId ? await selectUser(em, userId) : null;
        const resolved = user && {
            tokenHash: hash,
            userId: user.userId,
            email: user.email,
            name: user.name,
            platformAdmin: user.platformAdmin,
            memberships: (await selectMembershipsOfUser(em, user.userId)).map((member) => ({
                orgId: member.orgId,
                role: member.role,
                status: member.status,
                expiresAt: member.expiresAt,
                frameworkIds: member.frameworkIds,
            })),
        };
        this.sessions.set(token, resolved);
        return resolved;
    }
    evictUser(userId) {
        this.sessions.deleteWhere((user) => user?.userId === userId);
    }
    evictSession(hash) {
        this.sessions.deleteWhere((user) => user?.tokenHash === hash);
    }
    clear() {
        this.sessions.clear();
    }
}
/**
 * The principal of a person acting in `orgId` (null: a route naming no org, acting in their first org), or
 * why they may not. Platform administrators act on every org, as platform keys do.
 */
export function personPrincipal(user, orgId, now = Date.now()) {
    const actor = { type: 'user', id: user.userId, name: user.name };
    const active = user.memberships.filter((member) => member.status === 'active');
    const membership = orgId === null ? active[0] : user.memberships.find((member) => member.orgId === orgId);
    if (user.platformAdmin && (!membership || orgId === null)) {
        return { actor, orgId, platform: true, permissions: ['admin'], session: user };
    }
    if (!membership) {
        return {
            reason: 'not_a_member',
            message: orgId === null
                ? 'You are not a member of any organization'
                : 'You are not a member of this organization',
        };
    }
    if (membership.status !== 'active') {
        return {
            reason: 'member_disabled',
            message: `Your membership of ${membership.orgId} is ${membership.status}`,
        };
    }
    if (membership.expiresAt !== null && Date.parse(membership.expiresAt) <= now) {
        return {
            reason: 'access_expired',
            message: `Your access to ${membership.orgId} ended at ${membership.expiresAt}`,
        };
    }
    const permissions = user.platformAdmin ? ['admin'] : [...ROLE_PERMISSIONS[membership.role]];
    return {
        actor,
        orgId: membership.orgId,
        platform: user.platformAdmin,
        permissions,
        membership,
        session: user,
    };
}
/**
 * The framework a request reads, for an auditor bounded to some: the `frameworkId` it names (path or query),
 * or ISO/IEC 42001 for the control routes. Null: the request names none.
 */
export function requestedFramework(url, params, query) {
    const named = params?.frameworkId ??
        query?.frameworkId ??
        query?.framework;
    if (named)
        return named;
    if (/^\/api\/v1\/(orgs\/:orgId\/)?controls\b/.test(url))
        return ISO_42001;
    return null;
}
//# sourceMappingURL=sessions.service.js.map