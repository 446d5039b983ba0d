import { hasScope, isPlatform } from '../auth/scopes.js';
import { forbidden, unauthorized } from '../errors.js';
const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/=]{8,512})$/;
/** The principal of an authenticated route; routes only run after the auth hook has set it. */
export function principalOf(request) {
    if (!request.principal)
        throw unauthorized();
    return request.principal;
}
/**
 * Authenticates every API request and authorises it against the route's scope and the org in its path:
 * 401 for a missing/unknown/revoked key, 403 for a valid key without the permission or for another org.
 */
export function registerAuth(app, keys) {
    app.decorateRequest('principal', null);
    app.addHook('onRequest', async (request) => {
        const config = request.routeOptions.config;
        // Unknown routes fall through to the 404 handler without asking for credentials.
        if (config.public || !request.routeOptions.url)
            return;
        const match = BEARER.exec(request.headers.authorization ?? '');
        if (!match)
            throw unauthorized('Missing or malformed Authorization header (expected "Bearer <API_KEY>")');
        const principal = await keys.resolve(match[1]);
        if (!principal)
            throw unauthorized('Invalid or revoked API key');
        request.principal = principal;
        const scope = config.scope ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
        if (!hasScope(principal, scope)) {
            throw forbidden(`This API key lacks the "${scope}" scope`, { requiredScope: scope });
        }
        const orgId = request.params?.orgId;
        if (orgId !== undefined && !isPlatform(principal) && principal.orgId !== orgId) {
            throw forbidden('This API key belongs to another organization', { orgId });
        }
    });
}
//# sourceMappingURL=auth.js.map