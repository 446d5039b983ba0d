import { attestationPath, epochPath } from '../../../src/clients/api-client/paths.js';
import type { Attestation, AttestationList, Epoch } from '../api';
import { filled } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** The list's filters as the form holds them: `from` and `to` are local date-times, an empty string means any. */
export type AttestationFilters = { level: string; epochId: string; from: string; to: string };

export const useAttestations = (filters: AttestationFilters, limit: number, cursor?: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () =>
      api.get<AttestationList>(
        attestationPath(orgId),
        filled({
          level: filters.level,
          epochId: filters.epochId,
          from: filters.from ? new Date(filters.from).toISOString() : undefined,
          to: filters.to ? new Date(filters.to).toISOString() : undefined,
          limit,
          cursor,
        }),
      ),
    [orgId, filters, cursor],
  );
};

/** The newest attestations, for the overview. */
export const useLatestAttestations = (limit: number) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<AttestationList>(attestationPath(orgId), { limit }), [orgId]);
};

/** One AI system's attestations, newest first, a page at a time (`cursor`: the previous page's `nextCursor`). */
export const useSystemAttestations = (systemId: string, limit: number, cursor?: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<AttestationList>(attestationPath(orgId), { systemId, limit, cursor }),
    [orgId, systemId, cursor],
  );
};

export const useEpoch = (epochId: string) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<Epoch>(epochPath(orgId, epochId)), [orgId, epochId]);
};

/** Every record of the epoch, page by page (1000 at a time, cursor paging). */
export async function epochRecords(session: Session, epochId: string): Promise<Attestation[]> {
  const records: Attestation[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.api.get<AttestationList>(attestationPath(session.orgId), {
      epochId,
      limit: 1000,
      cursor,
    });
    records.push(...page.attestations);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return records;
}
