import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { Em } from '../../platform/db/database.js';
import { conflict, resourceNotFound } from '../../platform/errors.js';
import type { RiskLevel } from '../../shared/vocabulary.js';
import {
  type AiSystemChanges,
  type AiSystemView,
  deleteAiSystemRow,
  insertAiSystem,
  type NewAiSystem,
  selectActiveRiskLevels,
  selectAiSystem,
  selectAiSystems,
  updateAiSystemRow,
} from './ai-systems.store.js';

export type { AiSystemChanges, AiSystemView, NewAiSystem };

const nameTaken = (name: string) => conflict('An AI system with this name already exists', { name });

/** The name is claimed by a unique index (case-insensitive), so concurrent creates cannot both win. */
export async function createAiSystem(em: Em, orgId: string, input: NewAiSystem): Promise<AiSystemView> {
  const created = await insertAiSystem(em, orgId, input);
  if (!created) throw nameTaken(input.name);
  return created;
}

export async function listAiSystems(
  em: Em,
  orgId: string,
  filter: { riskLevel?: string; lifecycleStage?: string },
): Promise<AiSystemView[]> {
  return selectAiSystems(em, orgId, filter);
}

export async function getAiSystem(em: Em, orgId: string, systemId: string): Promise<AiSystemView> {
  const system = await selectAiSystem(em, orgId, systemId);
  if (!system) throw resourceNotFound('AI system', { systemId });
  return system;
}

/** Replaces the given fields and leaves the others as they are. */
export async function updateAiSystem(
  em: Em,
  orgId: string,
  systemId: string,
  changes: AiSystemChanges,
): Promise<AiSystemView> {
  let system: AiSystemView | null;
  try {
    system = await updateAiSystemRow(em, orgId, systemId, changes);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) throw nameTaken(changes.name ?? '');
    throw error;
  }
  if (!system) throw resourceNotFound('AI system', { systemId });
  return system;
}

export async function deleteAiSystem(em: Em, orgId: string, systemId: string): Promise<void> {
  if (!(await deleteAiSystemRow(em, orgId, systemId))) throw resourceNotFound('AI system', { systemId });
}

/** The distinct risk levels of the org's AI systems that are not retired, in no particular order. */
export async function activeRiskLevels(em: Em, orgId: string): Promise<RiskLevel[]> {
  return selectActiveRiskLevels(em, orgId);
}
