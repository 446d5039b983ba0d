import { countStates, scoreOf } from '../compliance/score.js';
import { conflict, resourceNotFound } from '../errors.js';
import { readRecordStates, seedIsoRecords } from '../requirements/requirements.store.js';
import { ISO_42001 } from '../vocabulary.js';
// Orgs are never deleted, so an id once seen stays valid: this spares a query on every org-scoped request.
const knownOrgs = new Set();
export async function requireOrg(em, orgId) {
    if (knownOrgs.has(orgId))
        return;
    const [row] = await em.execute('select 1 as found from orgs where org_id = ?', [
        orgId,
    ]);
    if (!row)
        throw resourceNotFound('Organization', { orgId });
    knownOrgs.add(orgId);
}
/** Creates the org and gives it every library control: not started, applicable. */
export async function createOrg(em, input) {
    await em.transactional(async (tx) => {
        const inserted = await tx.execute('insert into orgs (org_id, name, created_at) values (?, ?, ?) on conflict (org_id) do nothing returning org_id', [input.orgId, input.name, new Date()]);
        if (inserted.length === 0)
            throw conflict('Organization already exists', { orgId: input.orgId });
        await seedIsoRecords(tx, input.orgId);
    });
    knownOrgs.add(input.orgId);
    return getOrg(em, input.orgId);
}
async function summarize(em, orgId) {
    const states = await readRecordStates(em, orgId, { frameworkId: ISO_42001 });
    const counts = countStates(states);
    return { score: scoreOf(counts), counts, controlCount: states.length };
}
const ORG_SELECT = 'select org_id as "orgId", name, created_at as "createdAt" from orgs';
const orgView = (org) => ({
    orgId: org.orgId,
    name: org.name,
    createdAt: new Date(org.createdAt).toISOString(),
});
export async function getOrg(em, orgId) {
    const [org] = await em.execute(`${ORG_SELECT} where org_id = ?`, [orgId]);
    if (!org)
        throw resourceNotFound('Organization', { orgId });
    knownOrgs.add(orgId);
    return { ...orgView(org), compliance: await summarize(em, orgId) };
}
export async function listOrgs(em) {
    const orgs = await em.execute(`${ORG_SELECT} order by org_id`);
    return orgs.map(orgView);
}
//# sourceMappingURL=orgs.service.js.map