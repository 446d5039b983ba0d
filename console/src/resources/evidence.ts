import { evidencePath } from '../../../src/clients/api-client/paths.js';
import type { ExpiringEvidenceList } from '../api';
import { useLoad, useSession } from '../ui';

const DAY_MS = 86_400_000;

/** Evidence that expired in the last `days` days or expires in the next `days`, soonest first, a page at a time. */
export const useExpiringEvidence = (offset: number, limit: number, days = 30) => {
  const { api, orgId } = useSession();
  return useLoad(() => {
    const now = Date.now();
    return api.get<ExpiringEvidenceList>(evidencePath(orgId, '/expiring'), {
      from: new Date(now - days * DAY_MS).toISOString(),
      to: new Date(now + days * DAY_MS).toISOString(),
      limit,
      offset,
    });
  }, [orgId, offset]);
};
