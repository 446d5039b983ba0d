/**
 * The ISO/IEC 42001 score of `GET /orgs/{orgId}/compliance` and of snapshots: the one score rule
 * (records/score.ts) over the org's Annex A records, in library order. Every ISO 42001 control keeps a
 * record, so this is the same score as the framework view's for `iso-42001`, read without the crosswalk.
 */
import type { Static } from 'typebox';
import type { Em } from '../../platform/db/database.js';
import { readRecordStates } from '../../records/records.store.js';
import { type ControlState, countStates, scoreByDomain, scoreOf } from '../../records/score.js';
import { ISO_42001 } from '../../shared/vocabulary.js';
import { controlLibrary, withLibraryControls } from '../controls/library.seed.js';
import type { ComplianceSchema } from './compliance.schemas.js';

export type ComplianceView = Static<typeof ComplianceSchema>;

/** ISO/IEC 42001 control states with their Annex A domains, in library order. */
export function isoDomainStates(
  states: readonly ({ requirementId: string } & ControlState)[],
): (ControlState & { domain: string })[] {
  return withLibraryControls(states).map(({ domain, record }) => ({
    domain,
    status: record.status,
    applicable: record.applicable,
  }));
}

/** Overall and per-domain scores of ISO/IEC 42001 control states. */
export function isoScores(states: readonly ({ requirementId: string } & ControlState)[]) {
  const rows = isoDomainStates(states);
  const counts = countStates(rows);
  return { score: scoreOf(counts), counts, byDomain: scoreByDomain(controlLibrary().domains, rows) };
}

/** The current score of an org: overall and per Annex A domain. */
export async function currentCompliance(em: Em, orgId: string, now = new Date()): Promise<ComplianceView> {
  return {
    orgId,
    ...isoScores(await readRecordStates(em, orgId, { frameworkId: ISO_42001 })),
    computedAt: now.toISOString(),
  };
}
