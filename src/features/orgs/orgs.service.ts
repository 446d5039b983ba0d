import type { Em } from '../../platform/db/database.js';
import { conflict, resourceNotFound } from '../../platform/errors.js';
import { insertOrg, orgExists, selectOrg, selectOrgs } from '../../records/orgs.store.js';
import { readRecordStates, seedIsoRecords } from '../../records/records.store.js';
import { countStates, type ScoreCounts, scoreOf } from '../../records/score.js';
import { ISO_42001 } from '../../shared/vocabulary.js';

export interface OrgView {
  orgId: string;
  name: string;
  createdAt: string;
  compliance: { score: number | null; counts: ScoreCounts; controlCount: number };
}

/** Done when the org exists, else a 404 (the org scope remembers the orgs found: see `KnownOrgs`). */
export async function lookUpOrg(em: Em, orgId: string): Promise<void> {
  if (!(await orgExists(em, orgId))) throw resourceNotFound('Organization', { orgId });
}

/** Creates the org and gives it every library control: not started, applicable. */
export async function createOrg(em: Em, input: { orgId: string; name: string }): Promise<OrgView> {
  await em.transactional(async (tx) => {
    if (!(await insertOrg(tx, input, new Date())))
      throw conflict('Organization already exists', { orgId: input.orgId });
    await seedIsoRecords(tx, input.orgId);
  });
  return getOrg(em, input.orgId);
}

async function summarize(em: Em, orgId: string): Promise<OrgView['compliance']> {
  const states = await readRecordStates(em, orgId, { frameworkId: ISO_42001 });
  const counts = countStates(states);
  return { score: scoreOf(counts), counts, controlCount: states.length };
}

export async function getOrg(em: Em, orgId: string): Promise<OrgView> {
  const org = await selectOrg(em, orgId);
  if (!org) throw resourceNotFound('Organization', { orgId });
  return { ...org, compliance: await summarize(em, orgId) };
}

export async function listOrgs(em: Em): Promise<{ orgId: string; name: string; createdAt: string }[]> {
  return selectOrgs(em);
}
