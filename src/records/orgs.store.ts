/**
 * Organizations: the only module that reads or writes `orgs`. It sits with the requirement records because
 * every org-scoped feature looks orgs up and a new org gets its ISO/IEC 42001 records in the same
 * transaction. Rows come back with ISO timestamps.
 */
import type { Em } from '../platform/db/database.js';
import { toIso } from '../platform/db/instant.js';

export interface OrgRow {
  orgId: string;
  name: string;
  createdAt: string;
}

const ORG_SELECT = 'select org_id as "orgId", name, created_at as "createdAt" from orgs';

const toOrg = (row: OrgRow): OrgRow => ({
  orgId: row.orgId,
  name: row.name,
  createdAt: toIso(row.createdAt),
});

export async function orgExists(em: Em, orgId: string): Promise<boolean> {
  const [row] = await em.execute<{ found: number }[]>('select 1 as found from orgs where org_id = ?', [
    orgId,
  ]);
  return row !== undefined;
}

/** Whether the org was new: an id taken already inserts nothing. Call it inside the caller's transaction. */
export async function insertOrg(tx: Em, input: { orgId: string; name: string }, now: Date): Promise<boolean> {
  const inserted = await tx.execute<{ org_id: string }[]>(
    'insert into orgs (org_id, name, created_at) values (?, ?, ?) on conflict (org_id) do nothing returning org_id',
    [input.orgId, input.name, now],
  );
  return inserted.length > 0;
}

export async function selectOrg(em: Em, orgId: string): Promise<OrgRow | null> {
  const [row] = await em.execute<OrgRow[]>(`${ORG_SELECT} where org_id = ?`, [orgId]);
  return row ? toOrg(row) : null;
}

/** Every org, by id. */
export async function selectOrgs(em: Em): Promise<OrgRow[]> {
  const rows = await em.execute<OrgRow[]>(`${ORG_SELECT} order by org_id`);
  return rows.map(toOrg);
}

/** Every org's id, in order. */
export async function selectOrgIds(em: Em): Promise<string[]> {
  const rows = await em.execute<{ orgId: string }[]>('select org_id as "orgId" from orgs order by org_id');
  return rows.map((row) => row.orgId);
}
