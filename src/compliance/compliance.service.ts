import type { Static } from 'typebox';
import type { ControlStatus } from '../controls/org-control.entity.js';
import type { Em } from '../db.js';
import type { ComplianceSchema, DomainScoreSchema } from './compliance.schemas.js';
import { countStates, scoreOf } from './score.js';

export type ComplianceView = Static<typeof ComplianceSchema>;
export type DomainScore = Static<typeof DomainScoreSchema>;

export interface DomainControlState {
  domain: string;
  domainTitle: string;
  status: ControlStatus;
  applicable: boolean;
}

/** Scores per domain, in library order (the rows must come in that order). */
export function scoreByDomain(rows: DomainControlState[]): DomainScore[] {
  const domains = new Map<string, { title: string; states: DomainControlState[] }>();
  for (const row of rows) {
    const entry = domains.get(row.domain) ?? { title: row.domainTitle, states: [] };
    entry.states.push(row);
    domains.set(row.domain, entry);
  }
  return [...domains].map(([domain, { title, states }]) => {
    const counts = countStates(states);
    return { domain, domainTitle: title, score: scoreOf(counts), controlCount: states.length, counts };
  });
}

/** The current score of an org: overall and per Annex A domain. */
export async function currentCompliance(em: Em, orgId: string, now = new Date()): Promise<ComplianceView> {
  const rows = await em.execute<DomainControlState[]>(
    `select c.domain, c.domain_title as "domainTitle", oc.status, oc.applicable
     from org_controls oc join controls c on c.control_id = oc.control_id
     where oc.org_id = ? order by c.sort_order`,
    [orgId],
  );
  const counts = countStates(rows);
  return {
    orgId,
    score: scoreOf(counts),
    counts,
    byDomain: scoreByDomain(rows),
    computedAt: now.toISOString(),
  };
}
