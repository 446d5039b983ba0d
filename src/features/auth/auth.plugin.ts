import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type AppError, forbidden, unauthorized } from '../../platform/errors.js';
import type { Scope } from '../../shared/vocabulary.js';
import type { AuthFailureLimiter } from './auth-failures.js';
import type { KeyResolver } from './keys.service.js';
import { hasScope, isPlatform, type Principal } from './scopes.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Permission the route needs; defaults to `read` for GET (and its HEAD) and `write` otherwise. */
    scope?: Scope;
    /** Any valid key may call it, whatever its scopes: the route only describes the caller. */
    anyScope?: boolean;
    /** No credential needed (health, OpenAPI). */
    public?: boolean;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,512})$/;

/** The principal of an authenticated route; routes only run after the auth hook has set it. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/**
 * Authenticates every API request and authorises it against the route's scope and the org in its path:
 * 401 for a missing/unknown/revoked key, 403 for a valid key without the permission or for another org.
 * An address past its limit of refused authentications gets 429 instead of any further 401, before its
 * secret is looked up; a key the cache knows as valid still passes.
 */
export function registerAuth(app: FastifyInstance, keys: KeyResolver, refusals: AuthFailureLimiter): void {
  app.decorateRequest('principal', null);
  // A callback hook, not an async one: a key the cache knows is checked without a promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const config = request.routeOptions.config;
    // Unknown routes fall through to the 404 handler without asking for credentials.
    if (config.public || !request.routeOptions.url) return done();
    const refuse = (error: AppError) => {
      const limited = refusals.refusal(request.ip);
      if (limited) return done(limited);
      refusals.record(request.ip);
      done(error);
    };
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match)
      return refuse(unauthorized('Missing or malformed Authorization header (expected "Bearer <API_KEY>")'));
    const known = keys.known(match[1]);
    if (known) return done(authorize(request, known));
    if (known === null) return refuse(invalidKey());
    const limited = refusals.refusal(request.ip);
    if (limited) return done(limited);
    keys.lookUp(match[1]).then((principal) => {
      if (principal) done(authorize(request, principal));
      else refuse(invalidKey());
    }, done);
  });
}

const invalidKey = () => unauthorized('Invalid or revoked API key');

/** Sets the request's principal, or returns why it may not go on. */
function authorize(request: FastifyRequest, principal: Principal): Error | undefined {
  request.principal = principal;
  const config = request.routeOptions.config;
  const scope = config.scope ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
  if (!config.anyScope && !hasScope(principal, scope)) {
    return forbidden(`This API key lacks the "${scope}" scope`, { requiredScope: scope });
  }
  const orgId = (request.params as { orgId?: string } | undefined)?.orgId;
  if (orgId !== undefined && !isPlatform(principal) && principal.orgId !== orgId) {
    return forbidden('This API key belongs to another organization', { orgId });
  }
  return undefined;
}
