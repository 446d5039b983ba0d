import { forbidden, unauthorized } from '../../platform/errors.js';
import { hasPermission, isPlatform } from './scopes.js';
import { personPrincipal, requestedFramework, SESSION_COOKIE, } from './sessions.service.js';
const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,512})$/;
const SESSION = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([A-Za-z0-9_-]{16,128})(?:;|$)`);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** The principal of an authenticated route; routes only run after the auth hook has set it. */
export function principalOf(request) {
    if (!request.principal)
        throw unauthorized();
    return request.principal;
}
/**
 * Who decided, as a record names it: a signed-in person is always themself, whatever the body says; a key's
 * caller names the reviewer in the body.
 */
export function reviewerOf(request, given) {
    const { actor } = principalOf(request);
    return actor.type === 'user' ? actor.name : given;
}
/** The session token a request carries in its cookie, if any. */
export function sessionTokenOf(request) {
    return SESSION.exec(request.headers.cookie ?? '')?.[1] ?? null;
}
/** The origin a browser must send with a change authenticated by cookie. */
export function ownOrigin(request, publicOrigin) {
    return publicOrigin ?? `${request.protocol}://${request.host}`;
}
/**
 * Authenticates every API request, by API key (`Authorization: Bearer`) or by session cookie, and authorises it
 * against the route's permission, the org in its path, an auditor's expiry and frameworks, and whether the route
 * is for people only: 401 for a missing/unknown/revoked key or an ended session, 403 otherwise. An address past
 * its limit of refused authentications gets 429 instead of any further 401, before its secret is looked up.
 *
 * A change (any method but GET/HEAD/OPTIONS) then runs as its principal's (`Database.actingAs`): the audit
 * trail's triggers name it on every row the request changes.
 */
export function registerAuth(app, sources) {
    const { keys, sessions, refusals, db } = sources;
    app.decorateRequest('principal', null);
    // A callback hook, not an async one: a key the cache knows is checked without a promise.
    app.addHook('onRequest', (request, reply, done) => {
        const config = request.routeOptions.config;
        // Unknown routes fall through to the 404 handler without asking for credentials.
        if (config.public || !request.routeOptions.url)
            return done();
        const refuse = (error) => {
            const limited = refusals.refusal(request.ip);
            if (limited)
                return done(limited);
            refusals.record(request.ip);
            done(error);
        };
        const proceed = (principal) => {
            const refused = authorize(request, reply, principal, sources.publicOrigin);
            if (refused || READS.has(request.method))
                return done(refused);
            db.actingAs({ actor: principal.actor, requestId: request.id }, () => done());
        };
        const authorization = request.headers.authorization;
        if (authorization === undefined) {
            const token = sessionTokenOf(request);
            if (token === null) {
                return refuse(unauthorized('Missing credentials: sign in, or send "Authorization: Bearer <API_KEY>"'));
            }
            const known = sessions.known(token);
            const withUser = (user) => {
                if (!user)
                    return refuse(unauthorized('Your session has ended; sign in again'));
                const orgId = request.params?.orgId ??
                    request.query?.orgId ??
                    null;
                const principal = personPrincipal(user, typeof orgId === 'string' ? orgId : null);
                if ('reason' in principal)
                    return done(forbidden(principal.message, { reason: principal.reason }));
                proceed(principal);
            };
            if (known !== undefined)
                return withUser(known);
            const limited = refusals.refusal(request.ip);
            if (limited)
                return done(limited);
            sessions.lookUp(token).then(withUser, done);
            return;
        }
        const match = BEARER.exec(authorization);
        if (!match)
            return refuse(unauthorized('Missing or malformed Authorization header (expected "Bearer <API_KEY>")'));
        const known = keys.known(match[1]);
        if (known)
            return proceed(known);
        if (known === null)
            return refuse(invalidKey());
        const limited = refusals.refusal(request.ip);
        if (limited)
            return done(limited);
        keys.lookUp(match[1]).then((principal) => {
            if (principal)
                proceed(principal);
            else
                refuse(invalidKey());
        }, done);
    });
}
const invalidKey = () => unauthorized('Invalid or revoked API key');
/** Sets the request's principal, or returns why it may not go on. */
function authorize(request, _reply, principal, publicOrigin) {
    request.principal = principal;
    const config = request.routeOptions.config;
    if (principal.session && !READS.has(request.method)) {
        // A browser sends Origin with every cross-site change; a change without it, or from another site, is
        // refused (cross-site request forgery). SameSite=Strict cookies are the first guard, this the second.
        const expected = ownOrigin(request, publicOrigin);
        if (request.headers.origin !== expected) {
            return forbidden('A change made with a session must come from the console’s own origin', {
                reason: 'cross_site_request',
                expectedOrigin: expected,
            });
        }
    }
    if (config.person && principal.actor.type !== 'user') {
        return forbidden('Only a signed-in person can do this; API keys cannot approve', {
            reason: 'person_required',
        });
    }
    const permission = config.scope ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
    if (!config.anyScope && !hasPermission(principal, permission)) {
        const message = principal.actor.type === 'key'
            ? `This API key lacks the "${permission}" scope`
            : `Your role (${principal.membership?.role}) does not allow "${permission}"`;
        return forbidden(message, { requiredScope: permission });
    }
    const orgId = request.params?.orgId;
    if (orgId !== undefined && !isPlatform(principal) && principal.orgId !== orgId) {
        return forbidden('This API key belongs to another organization', { orgId });
    }
    const frameworks = principal.membership?.frameworkIds;
    if (frameworks) {
        const frameworkId = requestedFramework(request.routeOptions.url ?? '', request.params, request.query);
        if (frameworkId !== null && !frameworks.includes(frameworkId)) {
            return forbidden(`Your access covers ${frameworks.join(', ')} only`, {
                reason: 'framework_out_of_scope',
                frameworkId,
            });
        }
    }
    return undefined;
}
//# sourceMappingURL=auth.plugin.js.map