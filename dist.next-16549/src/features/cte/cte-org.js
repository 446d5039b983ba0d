import { badRequest, forbidden } from '../../platform/errors.js';
import { whenReady } from '../../platform/ready.js';
import { principalOf } from '../auth/auth.plugin.js';
import { isPlatform } from '../auth/scopes.js';
export function analysedOrg(ctx, request, orgId) {
    const principal = principalOf(request);
    if (!isPlatform(principal)) {
        if (orgId !== undefined && orgId !== principal.orgId) {
            throw forbidden('This API key belongs to another organization', { orgId });
        }
        return principal.orgId;
    }
    if (orgId === undefined) {
        throw badRequest('A platform key must name the organization to analyse: add ?orgId=<orgId>', {
            fields: [{ field: 'querystring.orgId', message: 'is required with a platform key' }],
        });
    }
    // The org comes from the query, not the path, so the org scope's check is made here.
    return whenReady(ctx.caches.knownOrgs.require(orgId), () => orgId);
}
//# sourceMappingURL=cte-org.js.map