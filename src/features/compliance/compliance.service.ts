import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { readRecordStates } from '../../records/records.store.js';
import { countStates, scoreOf } from '../../records/score.js';
import { ISO_42001, type RequirementStatus } from '../../shared/vocabulary.js';
import { withLibraryControls } from '../controls/library.seed.js';
import type { ComplianceSchema, DomainScoreSchema } from './compliance.schemas.js';

export type ComplianceView = Static<typeof ComplianceSchema>;
export type DomainScore = Static<typeof DomainScoreSchema>;

export interface DomainControlState {
  domain: string;
  domainTitle: string;
  status: RequirementStatus | null;
  applicable: boolean | null;
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

/** ISO/IEC 42001 control states with their Annex A domains, in library order. */
export function isoDomainStates(
  states: readonly { requirementId: string; status: RequirementStatus | null; applicable: boolean | null }[],
): DomainControlState[] {
  return withLibraryControls(states).map(({ domain, domainTitle, record }) => ({
    domain,
    domainTitle,
    status: record.status,
    applicable: record.applicable,
  }));
}

/** The current score of an org: overall and per Annex A domain. */
export async function currentCompliance(em: Em, orgId: string, now = new Date()): Promise<ComplianceView> {
  const rows = isoDomainStates(await readRecordStates(em, orgId, { frameworkId: ISO_42001 }));
  const counts = countStates(rows);
  return {
    orgId,
    score: scoreOf(counts),
    counts,
    byDomain: scoreByDomain(rows),
    computedAt: now.toISOString(),
  };
}
