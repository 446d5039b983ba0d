import type { Em } from '../../platform/db/database.js';
import { conflict, resourceNotFound } from '../../platform/errors.js';
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
  const [row] = await em.execute<{ found: number }[]>('select 1 as found from orgs where org_id = ?', [
    orgId,
  ]);
  if (!row) throw resourceNotFound('Organization', { orgId });
}

/** Creates the org and gives it every library control: not started, applicable. */
export async function createOrg(em: Em, input: { orgId: string; name: string }): Promise<OrgView> {
  await em.transactional(async (tx) => {
    const inserted = await tx.execute<{ org_id: string }[]>(
      'insert into orgs (org_id, name, created_at) values (?, ?, ?) on conflict (org_id) do nothing returning org_id',
      [input.orgId, input.name, new Date()],
    );
    if (inserted.length === 0) throw conflict('Organization already exists', { orgId: input.orgId });
    await seedIsoRecords(tx, input.orgId);
  });
  return getOrg(em, input.orgId);
}

async function summarize(em: Em, orgId: string): Promise<OrgView['compliance']> {
  const states = await readRecordStates(em, orgId, { frameworkId: ISO_42001 });
  const counts = countStates(states);
  return { score: scoreOf(counts), counts, controlCount: states.length };
}

interface OrgRow {
  orgId: string;
  name: string;
  createdAt: Date | string;
}
const ORG_SELECT = 'select org_id as "orgId", name, created_at as "createdAt" from orgs';
const orgView = (org: OrgRow) => ({
  orgId: org.orgId,
  name: org.name,
  createdAt: new Date(org.createdAt).toISOString(),
});

export async function getOrg(em: Em, orgId: string): Promise<OrgView> {
  const [org] = await em.execute<OrgRow[]>(`${ORG_SELECT} where org_id = ?`, [orgId]);
  if (!org) throw resourceNotFound('Organization', { orgId });
  return { ...orgView(org), compliance: await summarize(em, orgId) };
}

export async function listOrgs(em: Em): Promise<{ orgId: string; name: string; createdAt: string }[]> {
  const orgs = await em.execute<OrgRow[]>(`${ORG_SELECT} order by org_id`);
  return orgs.map(orgView);
}
