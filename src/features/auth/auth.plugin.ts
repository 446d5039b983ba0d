import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../../platform/db/database.js';
import { type AppError, forbidden, unauthorized } from '../../platform/errors.js';
import type { Permission } from '../../shared/vocabulary.js';
import type { AuthFailureLimiter } from './auth-failures.js';
import type { KeyResolver } from './keys.service.js';
import { hasPermission, isPlatform, type Principal } from './scopes.js';
import {
  personPrincipal,
  requestedFramework,
  SESSION_COOKIE,
  type SessionResolver,
} from './sessions.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Permission the route needs; defaults to `read` for GET (and its HEAD) and `write` otherwise. */
    scope?: Permission;
    /** Any valid key may call it, whatever its scopes: the route only describes the caller. */
    anyScope?: boolean;
    /** No credential needed (health, OpenAPI, signing in). */
    public?: boolean;
    /**
     * Only a signed-in person may call it (approvals): a key gets `403` with `reason: "person_required"`.
     * Routes declare it; the check is made here, once.
     */
    person?: boolean;
    /**
     * The route writes nothing the audit trail records (sidecar attestations are their own signed, Merkle-rooted
     * record): its statements then run without naming an actor, which spares each of them a transaction of its
     * own on the hottest write path. A table it did write with a trigger would name comply (`system`) instead.
     */
    outsideAuditTrail?: boolean;
  }
}

export interface AuthSources {
  keys: KeyResolver;
  sessions: SessionResolver;
  refusals: AuthFailureLimiter;
  db: Database;
  /** The daemon's origin as browsers see it (`COMPLY_PUBLIC_URL`); null: the request's own host. */
  publicOrigin: string | null;
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,512})$/;
const SESSION = new RegExp(`(?:^|;\\s*)${SESSION_COOKIE}=([A-Za-z0-9_-]{16,128})(?:;|$)`);
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The principal of an authenticated route; routes only run after the auth hook has set it. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/**
 * Who decided, as a record names it: a signed-in person is always themself, whatever the body says; a key's
 * caller names the reviewer in the body.
 */
export function reviewerOf(request: FastifyRequest, given: string): string {
  const { actor } = principalOf(request);
  return actor.type === 'user' ? actor.name : given;
}

/** The session token a request carries in its cookie, if any. */
export function sessionTokenOf(request: FastifyRequest): string | null {
  return SESSION.exec(request.headers.cookie ?? '')?.[1] ?? null;
}

/** The origin a browser must send with a change authenticated by cookie. */
export function ownOrigin(request: FastifyRequest, publicOrigin: string | null): string {
  return publicOrigin ?? `${request.protocol}://${request.host}`;
}

/**
 * Authenticates every API request, by API key (`Authorization: Bearer`) or by session cookie, and authorises it
 * against the route's permission, the org in its path, an auditor's expiry and frameworks, and whether the route
 * is for people only: 401 for a missing/unknown/revoked key or an ended session, 403 otherwise. An address past
 * its limit of refused authentications gets 429 instead of any further 401, before its secret is looked up,
 * unless the key or session resolved within the last hour (vouched for: another client behind the address
 * keeps working through a flood of bad keys).
 *
 * A change (any method but GET/HEAD/OPTIONS) then runs as its principal's (`Database.actingAs`): the audit
 * trail's triggers name it on every row the request changes.
 */
export function registerAuth(app: FastifyInstance, sources: AuthSources): void {
  const { keys, sessions, refusals, db } = sources;
  app.decorateRequest('principal', null);
  // A callback hook, not an async one: a key the cache knows is checked without a promise.
  app.addHook('onRequest', (request, reply, done) => {
    const config = request.routeOptions.config;
    // Unknown routes fall through to the 404 handler without asking for credentials.
    if (config.public || !request.routeOptions.url) return done();
    const refuse = (error: AppError) => {
      const limited = refusals.refusal(request.ip);
      if (limited) return done(limited);
      refusals.record(request.ip);
      done(error);
    };
    const proceed = (principal: Principal) => {
      const refused = authorize(request, reply, principal, sources.publicOrigin);
      if (refused || READS.has(request.method) || request.routeOptions.config.outsideAuditTrail)
        return done(refused);
      db.actingAs({ actor: principal.actor, requestId: request.id }, () => done());
    };
    const authorization = request.headers.authorization;
    if (authorization === undefined) {
      const token = sessionTokenOf(request);
      if (token === null) {
        return refuse(
          unauthorized('Missing credentials: sign in, or send "Authorization: Bearer <API_KEY>"'),
        );
      }
      const known = sessions.known(token);
      const withUser = (user: ReturnType<SessionResolver['known']>) => {
        if (!user) return refuse(unauthorized('Your session has ended; sign in again'));
        const orgId =
          (request.params as { orgId?: string } | undefined)?.orgId ??
          (request.query as { orgId?: string } | undefined)?.orgId ??
          null;
        const principal = personPrincipal(user, typeof orgId === 'string' ? orgId : null);
        if ('reason' in principal) return done(forbidden(principal.message, { reason: principal.reason }));
        proceed(principal);
      };
      if (known !== undefined) return withUser(known);
      const limited = refusals.refusal(request.ip);
      if (limited && !sessions.vouchedFor(token)) return done(limited);
      sessions.lookUp(token).then(withUser, done);
      return;
    }
    const match = BEARER.exec(authorization);
    if (!match)
      return refuse(unauthorized('Missing or malformed Authorization header (expected "Bearer <API_KEY>")'));
    const known = keys.known(match[1]);
    if (known) return proceed(known);
    if (known === null) return refuse(invalidKey());
    const limited = refusals.refusal(request.ip);
    if (limited && !keys.vouchedFor(match[1])) return done(limited);
    keys.lookUp(match[1]).then((principal) => {
      if (principal) proceed(principal);
      else refuse(invalidKey());
    }, done);
  });
}

const invalidKey = () => unauthorized('Invalid or revoked API key');

/** Sets the request's principal, or returns why it may not go on. */
function authorize(
  request: FastifyRequest,
  _reply: FastifyReply,
  principal: Principal,
  publicOrigin: string | null,
): Error | undefined {
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
  const permission =
    config.scope ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
  if (!config.anyScope && !hasPermission(principal, permission)) {
    const message =
      principal.actor.type === 'key'
        ? `This API key lacks the "${permission}" scope`
        : `Your role (${principal.membership?.role}) does not allow "${permission}"`;
    return forbidden(message, { requiredScope: permission });
  }
  const orgId = (request.params as { orgId?: string } | undefined)?.orgId;
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
