import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { KeyResolver } from '../auth/keys.service.js';
import { hasScope, isPlatform, type Principal, type Scope } from '../auth/scopes.js';
import { forbidden, unauthorized } from '../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /** Permission the route needs; defaults to `read` for GET (and its HEAD) and `write` otherwise. */
    scope?: Scope;
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
 */
export function registerAuth(app: FastifyInstance, keys: KeyResolver): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    // Unknown routes fall through to the 404 handler without asking for credentials.
    if (config.public || !request.routeOptions.url) return;
    const match = BEARER.exec(request.headers.authorization ?? '');
    if (!match) throw unauthorized('Missing or malformed Authorization header (expected "Bearer <API_KEY>")');
    const principal = await keys.resolve(match[1]);
    if (!principal) throw unauthorized('Invalid or revoked API key');
    request.principal = principal;

    const scope = config.scope ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
    if (!hasScope(principal, scope)) {
      throw forbidden(`This API key lacks the "${scope}" scope`, { requiredScope: scope });
    }
    const orgId = (request.params as { orgId?: string } | undefined)?.orgId;
    if (orgId !== undefined && !isPlatform(principal) && principal.orgId !== orgId) {
      throw forbidden('This API key belongs to another organization', { orgId });
    }
  });
}
