import { compliancePath, snapshotPath } from '../../../src/clients/api-client/paths.js';
import type { Snapshot, SnapshotList, SnapshotVerification } from '../api';
import { type Session, useLoad, useSession } from '../ui';

export const useSnapshots = (offset: number, limit: number) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<SnapshotList>(snapshotPath(orgId), { limit, offset }), [orgId, offset]);
};

export const createSnapshot = (session: Session, body: { label: string; notes?: string }) =>
  session.api.post(compliancePath(session.orgId, '/snapshot'), body);

/** The server's check of a snapshot's hash, and the snapshot itself to recompute the hash here. */
export const fetchSnapshotForCheck = (session: Session, snapshotId: string) =>
  Promise.all([
    session.api.get<SnapshotVerification>(snapshotPath(session.orgId, snapshotId, '/verify')),
    session.api.get<Snapshot>(snapshotPath(session.orgId, snapshotId)),
  ]);
