import { setTimeout as sleep } from 'node:timers/promises';
import { actAs, appendEvent, PLATFORM_CHAIN } from '../../platform/audit/audit.store.js';
import { TtlCache } from '../../platform/cache/ttl-cache.js';
import { AppError, badRequest, forbidden, unauthorized } from '../../platform/errors.js';
import { activateInvitedMemberships, countUsers, hasPendingSetup, insertInvitation, insertUser, selectMembershipsOfUser, selectUser, selectUserByEmail, touchSignIn, updateUserPassword, useInvitation, } from './people.store.js';
import { generateToken, generateUserId, hashPassword, passwordMatches, tokenHash } from './secrets.js';
export const signedInView = (user, members) => ({
    user: {
        userId: user.userId,
        email: user.email,
        name: user.name,
        platformAdmin: user.platformAdmin,
        lastSignInAt: user.lastSignInAt,
    },
    orgs: members.filter((member) => member.status === 'active').map(({ orgId, role }) => ({ orgId, role })),
});
/**
 * Failed sign-ins per email (known or not, so the answer reveals nothing): from `slowAfter` failures on each
 * attempt waits a second per failure beyond it, from `max` on the email is refused with 429 until the window
 * ends. Counted per daemon, like refused keys (src/features/auth/auth-failures.ts).
 */
export class SignInThrottle {
    limits;
    failures;
    constructor(limits) {
        this.limits = limits;
        this.failures = new TtlCache(limits.windowMs, 100_000);
    }
    /** Waits as long as the email's failures ask, or throws the 429 once they reach the limit. */
    async admit(email, now = Date.now()) {
        const failures = this.failures.get(email.toLowerCase());
        if (!failures || failures.endsAt <= now)
            return;
        if (failures.count >= this.limits.max) {
            const retryAfterSeconds = Math.max(1, Math.ceil((failures.endsAt - now) / 1000));
            throw new AppError('RATE_LIMITED', 'Too many failed sign-ins for this email; try again later', { retryAfterSeconds }, { 'retry-after': String(retryAfterSeconds) });
        }
        const excess = failures.count - this.limits.slowAfter + 1;
        if (excess > 0)
            await sleep(Math.min(excess, 5) * 1000);
    }
    fail(email, now = Date.now()) {
        const key = email.toLowerCase();
        const failures = this.failures.get(key);
        if (failures && failures.endsAt > now)
            failures.count += 1;
        else
            this.failures.set(key, { count: 1, endsAt: now + this.limits.windowMs });
    }
    succeed(email) {
        this.failures.delete(email.toLowerCase());
    }
}
const userActor = (user) => ({
    type: 'user',
    id: user.userId,
    name: user.name,
});
/** Signs in by email and password: the person, or the same 401 whether the email or the password was wrong. */
export async function signInWithPassword(em, throttle, input, facts) {
    await throttle.admit(input.email);
    const user = await selectUserByEmail(em, input.email);
    const members = user ? await selectMembershipsOfUser(em, user.userId) : [];
    const usable = user && (user.platformAdmin || members.some((member) => member.status === 'active'));
    if (!(await passwordMatches(user?.passwordHash ?? null, input.password)) || !user || !usable) {
        throttle.fail(input.email);
        await appendEvent(em, PLATFORM_CHAIN, {
            actor: user ? userActor(user) : { type: 'system', id: 'anonymous', name: input.email.slice(0, 254) },
            action: 'auth.sign_in_failed',
            resource: { type: 'user', id: user?.userId ?? input.email.slice(0, 254).toLowerCase() },
            changes: { address: { from: null, to: facts.address } },
            requestId: facts.requestId,
        });
        throw unauthorized('Wrong email or password');
    }
    throttle.succeed(input.email);
    return { user, signedIn: await recordSignIn(em, user, 'password', facts) };
}
/** Records a sign-in (password, invitation or single sign-on) on the platform log and the user. */
export async function recordSignIn(em, user, method, facts) {
    const now = new Date();
    await em.transactional(async (tx) => {
        await touchSignIn(tx, user.userId, now);
        await appendEvent(tx, PLATFORM_CHAIN, {
            actor: userActor(user),
            action: 'auth.signed_in',
            resource: { type: 'user', id: user.userId },
            changes: { method: { from: null, to: method }, address: { from: null, to: facts.address } },
            requestId: facts.requestId,
        });
    });
    return signedInView({ ...user, lastSignInAt: now.toISOString() }, await selectMembershipsOfUser(em, user.userId));
}
export async function recordSignOut(em, userId, facts) {
    const user = await selectUser(em, userId);
    await appendEvent(em, PLATFORM_CHAIN, {
        actor: user ? userActor(user) : { type: 'system', id: userId, name: userId },
        action: 'auth.signed_out',
        resource: { type: 'user', id: userId },
        requestId: facts.requestId,
    });
}
const INVITATION_DAYS = 7;
/** A one-time link for the user (an invitation to `orgId`) or, with neither, the first start's set-up link. */
export async function issueInvitation(em, target, now = new Date()) {
    const token = generateToken();
    const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
    await insertInvitation(em, { tokenHash: tokenHash(token), ...target, expiresAt }, now);
    return { token, expiresAt };
}
/**
 * Creates the set-up link of a daemon that has no person yet (first start), or null when people exist or a
 * link is already pending.
 */
export async function issueSetupLink(em) {
    if ((await countUsers(em)) > 0 || (await hasPendingSetup(em, new Date())))
        return null;
    return issueInvitation(em, { userId: null, orgId: null });
}
/**
 * Accepts an invitation: sets the person's password (a person who already has one must give it), activates
 * the invited membership and signs them in. The set-up link creates the first person, a platform administrator,
 * from the name and email given with it. A used or expired token is refused.
 */
export async function acceptInvitation(em, input, facts) {
    const passwordHash = await hashPassword(input.password);
    const user = await em.transactional(async (tx) => {
        const now = new Date();
        const invitation = await useInvitation(tx, tokenHash(input.token), now);
        if (!invitation)
            throw badRequest('This link was already used or has expired; ask for a new invitation');
        if (invitation.userId === null) {
            if (!input.name || !input.email) {
                throw badRequest('The set-up link needs your name and email', {
                    fields: [
                        { field: 'body.name', message: 'required' },
                        { field: 'body.email', message: 'required' },
                    ],
                });
            }
            const userId = generateUserId();
            await actAs(tx, userActor({ userId, name: input.name }), facts.requestId);
            await insertUser(tx, { userId, email: input.email, name: input.name, passwordHash, platformAdmin: true }, now);
            return (await selectUser(tx, userId));
        }
        const existing = (await selectUser(tx, invitation.userId));
        await actAs(tx, userActor(existing), facts.requestId);
        if (existing.passwordHash !== null) {
            if (!(await passwordMatches(existing.passwordHash, input.password))) {
                throw forbidden('You already have a password: give it to accept this invitation', {
                    reason: 'password_mismatch',
                });
            }
        }
        else {
            await updateUserPassword(tx, existing.userId, passwordHash, now);
        }
        await activateInvitedMemberships(tx, existing.userId, invitation.orgId, now);
        return existing;
    });
    return { user, signedIn: await recordSignIn(em, user, invitation(user), facts) };
}
const invitation = (user) => (user.platformAdmin ? 'setup' : 'invitation');
/**
 * Signs in the person whose verified email an OpenID provider vouched for. Only members (or platform
 * administrators) may: anyone else gets 403. An invited member who signs in this way accepts the invitation.
 */
export async function signInWithVerifiedEmail(em, email, facts) {
    const user = await selectUserByEmail(em, email);
    const members = user ? await selectMembershipsOfUser(em, user.userId) : [];
    const usable = members.filter((member) => member.status !== 'disabled');
    if (!user || (!user.platformAdmin && usable.length === 0)) {
        await appendEvent(em, PLATFORM_CHAIN, {
            actor: { type: 'system', id: 'anonymous', name: email.slice(0, 254) },
            action: 'auth.sign_in_failed',
            resource: { type: 'user', id: email.slice(0, 254).toLowerCase() },
            changes: { method: { from: null, to: 'sso' }, address: { from: null, to: facts.address } },
            requestId: facts.requestId,
        });
        throw forbidden('No member of comply has this email; ask an owner to invite you', {
            reason: 'not_a_member',
        });
    }
    await em.transactional(async (tx) => {
        await actAs(tx, userActor(user), facts.requestId);
        await activateInvitedMemberships(tx, user.userId, null, new Date());
    });
    return { user, signedIn: await recordSignIn(em, user, 'sso', facts) };
}
//# sourceMappingURL=sign-in.service.js.map