import { isPlatform } from '../auth/scopes.js';
import { badRequest, forbidden } from '../errors.js';
import { requireOrg } from '../orgs/orgs.service.js';
import { principalOf } from '../plugins/auth.js';
export async function analysedOrg(em, request, orgId) {
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
    await requireOrg(em, orgId);
    return orgId;
}
//# sourceMappingURL=cte-org.js.map