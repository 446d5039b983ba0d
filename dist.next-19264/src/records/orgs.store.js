import { toIso } from '../platform/db/instant.js';
const ORG_SELECT = 'select org_id as "orgId", name, created_at as "createdAt" from orgs';
const toOrg = (row) => ({
    orgId: row.orgId,
    name: row.name,
    createdAt: toIso(row.createdAt),
});
export async function orgExists(em, orgId) {
    const [row] = await em.execute('select 1 as found from orgs where org_id = ?', [
        orgId,
    ]);
    return row !== undefined;
}
/** Whether the org was new: an id taken already inserts nothing. Call it inside the caller's transaction. */
export async function insertOrg(tx, input, now) {
    const inserted = await tx.execute('insert into orgs (org_id, name, created_at) values (?, ?, ?) on conflict (org_id) do nothing returning org_id', [input.orgId, input.name, now]);
    return inserted.length > 0;
}
export async function selectOrg(em, orgId) {
    const [row] = await em.execute(`${ORG_SELECT} where org_id = ?`, [orgId]);
    return row ? toOrg(row) : null;
}
/** Every org, by id. */
export async function selectOrgs(em) {
    const rows = await em.execute(`${ORG_SELECT} order by org_id`);
    return rows.map(toOrg);
}
/** Every org's id, in order. */
export async function selectOrgIds(em) {
    const rows = await em.execute('select org_id as "orgId" from orgs order by org_id');
    return rows.map((row) => row.orgId);
}
//# sourceMappingURL=orgs.store.js.map