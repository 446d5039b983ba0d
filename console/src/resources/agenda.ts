import { duePath } from '../../../src/clients/api-client/paths.js';
import type { Agenda } from '../api';
import { filled } from '../api';
import { useLoad, useSession } from '../ui';

const DAY_MS = 86_400_000;

/**
 * What is due: the org's agenda, soonest first (overdue items first by nature). `owner` narrows it to one
 * person's items (any case); `withinDays` to what falls due before then (overdue items included).
 */
export const useAgenda = (
  filters: { owner?: string; kind: string; withinDays: number | null },
  offset: number,
  limit: number,
) => {
  const { api, orgId } = useSession();
  return useLoad(
    () =>
      api.get<Agenda>(
        duePath(orgId),
        filled({
          owner: filters.owner ?? '',
          kind: filters.kind,
          to:
            filters.withinDays === null
              ? ''
              : new Date(Date.now() + filters.withinDays * DAY_MS).toISOString(),
          limit,
          offset,
        }),
      ),
    [orgId, filters.owner, filters.kind, filters.withinDays, offset],
  );
};
