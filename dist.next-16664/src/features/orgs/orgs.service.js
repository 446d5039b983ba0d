import { conflict, resourceNotFound } from '../../platform/errors.js';
import { insertOrg, orgExists, selectOrg, selectOrgs } from '../../records/orgs.store.js';
import { readRecordStates, seedIsoRecords } from '../../records/records.store.js';
import { countStates, scoreOf } from '../../records/score.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
/** Done when the org exists, else a 404 (the org scope remembers the orgs found: see `KnownOrgs`). */
export async function lookUpOrg(em, orgId) {
    if (!(await orgExists(em, orgId)))
        throw resourceNotFound('Organization', { orgId });
}
/** Creates the org and gives it every library control: not started, applicable. */
export async function createOrg(em, input) {
    await em.transactional(async (tx) => {
        if (!(await insertOrg(tx, input, new Date())))
            throw conflict('Organization already exists', { orgId: input.orgId });
        await seedIsoRecords(tx, input.orgId);
    });
    return getOrg(em, input.orgId);
}
async function summarize(em, orgId) {
    const states = await readRecordStates(em, orgId, { frameworkId: ISO_42001 });
    const counts = countStates(states);
    return { score: scoreOf(counts), counts, controlCount: states.length };
}
export async function getOrg(em, orgId) {
    const org = await selectOrg(em, orgId);
    if (!org)
        throw resourceNotFound('Organization', { orgId });
    return { ...org, compliance: await summarize(em, orgId) };
}
export async function listOrgs(em) {
    return selectOrgs(em);
}
//# sourceMappingURL=orgs.service.js.map