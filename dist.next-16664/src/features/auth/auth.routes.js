import { Type } from 'typebox';
import { AppError, forbidden } from '../../platform/errors.js';
import { errorResponses } from '../../shared/schemas.js';
import { PERMISSIONS, ROLE_PERMISSIONS, SCOPES } from '../../shared/vocabulary.js';
import { principalOf, sessionTokenOf } from './auth.plugin.js';
import { hasPendingSetup } from './people.store.js';
import { hasPermission } from './scopes.js';
import { AcceptInvitationBody, LoginBody, MeSchema, SignedInSchema, SsoConfigSchema, } from './sessions.schemas.js';
import { closeSession, openSession, SESSION_COOKIE } from './sessions.service.js';
import { acceptInvitation, recordSignOut, signInWithPassword } from './sign-in.service.js';
const TAG = 'people';
/** Where a one-time link leads: the console's page that accepts it. */
export function invitationUrl(base, token) {
    return new URL(`/#/accept/${token}`, base).toString();
}
/** The daemon's public address, or the one this request reached it at. */
export const publicBase = (request, publicUrl) => publicUrl ?? `${request.protocol}://${request.host}`;
/** Opens a session for a person who just signed in, and sets its cookie. */
export async function startSession(reply, ctx, user) {
    const token = await openSession(ctx.db.em(), user.userId, ctx.config.sessions);
    reply.setCookie(SESSION_COOKIE, token, {
        httpOnly: true,
        sameSite: 'strict',
        path: '/',
        secure: ctx.config.publicUrl?.startsWith('https:') ?? false,
        maxAge: Math.floor(ctx.config.sessions.maxMs / 1000),
    });
}
const facts = (request) => ({ requestId: request.id, address: request.ip });
/** Signing in and out, invitations, and who the caller is. */
export const authRoutes = async function authRoutes(app, { ctx }) {
    app.get('/auth/config', {
        config: { public: true },
        schema: {
            tags: [TAG],
            summary: 'How people sign in here: whether single sign-on is configured, whether set-up is pending',
            response: { 200: SsoConfigSchema },
        },
    }, async () => ({
        sso: ctx.config.oidc !== null,
        setupPending: await hasPendingSetup(ctx.db.em(), new Date()),
    }));
    app.post('/auth/login', {
        config: { public: true },
        schema: {
            tags: [TAG],
            summary: 'Sign in with email and password: sets the session cookie',
            description: 'A wrong password and an unknown email get the same `401`. Repeated failures for one email are slowed, ' +
                'then refused with `429` and `Retry-After`. The cookie is HttpOnly, SameSite=Strict, and Secure when ' +
                'COMPLY_PUBLIC_URL is https; the session ends after COMPLY_SESSION_IDLE_MINUTES idle (720) and ' +
                'COMPLY_SESSION_MAX_HOURS in all (168).',
            body: LoginBody,
            response: { 200: SignedInSchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const { user, signedIn } = await signInWithPassword(ctx.db.em(), ctx.signIns, request.body, facts(request));
        await startSession(reply, ctx, user);
        request.log.info({ userId: user.userId }, 'signed in');
        return signedIn;
    });
    app.post('/auth/logout', {
        config: { public: true },
        schema: {
            tags: [TAG],
            summary: 'Sign out: the session ends on the server, on every daemon',
            response: { 204: Type.Null(), ...errorResponses },
        },
    }, async (request, reply) => {
        const token = sessionTokenOf(request);
        if (token) {
            const em = ctx.db.em();
            const userId = await closeSession(em, token);
            if (userId) {
                await ctx.revocations.revoked({ kind: 'user', userId });
                await recordSignOut(em, userId, facts(request));
                request.log.info({ userId }, 'signed out');
            }
        }
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.status(204).send(null);
    });
    app.post('/auth/invitations/accept', {
        config: { public: true },
        schema: {
            tags: [TAG],
            summary: 'Accept an invitation (or the first start’s set-up link): set a password and sign in',
            description: 'The token is single-use and valid for 7 days; a used or expired one gets `400`. A person who already ' +
                'has a password (a member of another organization) gives it. The set-up link also takes `name` and ' +
                '`email` and creates the first person, a platform administrator.',
            body: AcceptInvitationBody,
            response: { 200: SignedInSchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const { user, signedIn } = await acceptInvitation(ctx.db.em(), request.body, facts(request));
        await startSession(reply, ctx, user);
        request.log.info({ userId: user.userId }, 'invitation accepted');
        return signedIn;
    });
    // Single sign-on, when configured: one client per app, its provider discovered on first use.
    const sso = ctx.config.oidc && new OidcSignIn(ctx.config.oidc, ctx.config.publicUrl);
    const ssoPath = '/api/v1/auth/oidc';
    const notConfigured = () => new AppError('NOT_FOUND', 'Single sign-on is not configured (COMPLY_OIDC_ISSUER and friends)', {
        reason: 'sso_not_configured',
    });
    app.get('/auth/oidc/start', {
        config: { public: true },
        schema: {
            tags: [TAG],
            summary: 'Single sign-on: redirects to the OpenID provider (authorization code with PKCE, state and nonce)',
            response: { 302: Type.Null(), ...errorResponses },
        },
    }, async (_request, reply) => {
        if (!sso)
            throw notConfigured();
        const { url, pending } = await sso.start();
        // Lax, not Strict: the provider's redirect back is a navigation from another site.
        reply.setCookie(PENDING_COOKIE, encodePending(pending), {
            httpOnly: true,
            sameSite: 'lax',
            path: ssoPath,
            secure: ctx.config.publicUrl?.startsWith('https:') ?? false,
            maxAge: 600,
        });
        return reply.redirect(url, 302);
    });
    app.get('/auth/oidc/callback', {
        config: { public: true },
        schema: {
            tags: [TAG],
            summary: 'Single sign-on: the provider’s answer; signs in the member with the verified email, then goes to /',
            description: 'Only a member (or platform administrator) whose email the ID token carries with `email_verified: true` ' +
                'is signed in; anyone else gets `403`. An invited member signing in this way accepts the invitation.',
            querystring: Type.Record(Type.String(), Type.String({ maxLength: 4096 })),
            response: { 302: Type.Null(), ...errorResponses },
        },
    }, async (request, reply) => {
        if (!sso)
            throw notConfigured();
        const pending = decodePending(/(?:^|;\s*)comply_oidc=([A-Za-z0-9_-]+)/.exec(request.headers.cookie ?? '')?.[1]);
        reply.clearCookie(PENDING_COOKIE, { path: ssoPath });
        if (!pending) {
            throw forbidden('This sign-in was not started here, or took longer than 10 minutes; start again', {
                reason: 'sso_failed',
            });
        }
        const callbackUrl = new URL(request.url, ctx.config.publicUrl);
        const email = await sso.finish(new URL(CALLBACK_PATH + callbackUrl.search, callbackUrl), pending);
        const { user } = await signInWithVerifiedEmail(ctx.db.em(), email, facts(request));
        await startSession(reply, ctx, user);
        request.log.info({ userId: user.userId }, 'signed in by single sign-on');
        return reply.redirect('/', 302);
    });
    app.get('/me', {
        // An attest-only or export-only key must be able to learn its own scopes.
        config: { anyScope: true },
        schema: {
            tags: [TAG],
            summary: 'Who is asking: the API key (its organization and scopes) or the signed-in person (their orgs)',
            response: { 200: MeSchema, ...errorResponses },
        },
    }, async (request) => {
        const principal = principalOf(request);
        if (principal.actor.type === 'key') {
            return {
                type: 'key',
                keyId: principal.actor.id,
                orgId: principal.orgId,
                platform: principal.platform,
                scopes: [...principal.permissions],
                can: Object.fromEntries(SCOPES.map((scope) => [scope, hasPermission(principal, scope)])),
            };
        }
        const user = principal.session;
        return {
            type: 'user',
            userId: user.userId,
            email: user.email,
            name: user.name,
            platformAdmin: user.platformAdmin,
            orgs: user.memberships
                .filter((member) => member.status === 'active')
                .map((member) => ({
                orgId: member.orgId,
                role: member.role,
                scopes: user.platformAdmin ? [...PERMISSIONS] : [...ROLE_PERMISSIONS[member.role]],
                expiresAt: member.expiresAt,
                frameworkIds: member.frameworkIds,
            })),
        };
    });
};
//# sourceMappingURL=auth.routes.js.map