import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { conflict, resourceNotFound } from '../../platform/errors.js';
import { deleteAiSystemRow, insertAiSystem, selectActiveRiskLevels, selectAiSystem, selectAiSystems, updateAiSystemRow, } from './ai-systems.store.js';
const nameTaken = (name) => conflict('An AI system with this name already exists', { name });
/** The name is claimed by a unique index (case-insensitive), so concurrent creates cannot both win. */
export async function createAiSystem(em, orgId, input) {
    const created = await insertAiSystem(em, orgId, input);
    if (!created)
        throw nameTaken(input.name);
    return created;
}
export async function listAiSystems(em, orgId, filter) {
    return selectAiSystems(em, orgId, filter);
}
export async function getAiSystem(em, orgId, systemId) {
    const system = await selectAiSystem(em, orgId, systemId);
    if (!system)
        throw resourceNotFound('AI system', { systemId });
    return system;
}
/** Replaces the given fields and leaves the others as they are. */
export async function updateAiSystem(em, orgId, systemId, changes) {
    let system;
    try {
        system = await updateAiSystemRow(em, orgId, systemId, changes);
    }
    catch (error) {
        if (error instanceof UniqueConstraintViolationException)
            throw nameTaken(changes.name ?? '');
        throw error;
    }
    if (!system)
        throw resourceNotFound('AI system', { systemId });
    return system;
}
export async function deleteAiSystem(em, orgId, systemId) {
    if (!(await deleteAiSystemRow(em, orgId, systemId)))
        throw resourceNotFound('AI system', { systemId });
}
/** The distinct risk levels of the org's AI systems that are not retired, in no particular order. */
export async function activeRiskLevels(em, orgId) {
    return selectActiveRiskLevels(em, orgId);
}
//# sourceMappingURL=ai-systems.service.js.map