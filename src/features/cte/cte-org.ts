/** Which organization a CTE request analyses: a tenant key's own, or the `orgId` a platform key names. */
import type { FastifyRequest } from 'fastify';
import type { Em } from '../../platform/db/database.js';
import { badRequest, forbidden } from '../../platform/errors.js';
import { type Ready, whenReady } from '../../platform/ready.js';
import { principalOf } from '../auth/auth.plugin.js';
import { isPlatform } from '../auth/scopes.js';
import { requireOrg } from '../orgs/orgs.service.js';

export function analysedOrg(em: Em, request: FastifyRequest, orgId: string | undefined): Ready<string> {
  const principal = principalOf(request);
  if (!isPlatform(principal)) {
    if (orgId !== undefined && orgId !== principal.orgId) {
      throw forbidden('This API key belongs to another organization', { orgId });
    }
    return principal.orgId as string;
  }
  if (orgId === undefined) {
    throw badRequest('A platform key must name the organization to analyse: add ?orgId=<orgId>', {
      fields: [{ field: 'querystring.orgId', message: 'is required with a platform key' }],
    });
  }
  return whenReady(requireOrg(em, orgId), () => orgId);
}
