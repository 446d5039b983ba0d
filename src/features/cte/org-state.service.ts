/**
 * What the CTE needs to know about an organization: its direct requirement records of every framework
 * (each with whether its evidence has all expired, from the requirements module) and the risk levels of its
 * AI systems (retired ones no longer count). Its rows also make the fingerprint that keys cached analyses.
 */

import type { Em } from '../../platform/db/database.js';
import { readCaps, readRecordStates } from '../../records/records.store.js';
import type { RiskLevel } from '../../shared/vocabulary.js';
import { activeRiskLevels } from '../ai-systems/ai-systems.service.js';
import type { DirectRecords, OrgControlState } from './graph.js';

export interface OrgState {
  /** framework id → requirement id → the org's direct record. */
  records: DirectRecords;
  aiSystemRiskLevels: readonly RiskLevel[];
  /** Requirements an open major nonconformity caps (`framework id\u001frequirement id`). */
  caps: ReadonlySet<string>;
  /** Equal fingerprints mean equal inputs to coverage and gaps. */
  fingerprint: string;
  /** Epoch ms until which the state stays as read without a write: the next evidence expiry that counts. */
  validUntil: number;
}

export async function loadOrgState(em: Em, orgId: string, now = new Date()): Promise<OrgState> {
  const states = await readRecordStates(em, orgId, { now });
  const risks = await activeRiskLevels(em, orgId);
  const caps = await readCaps(em, orgId);
  states.sort((a, b) =>
    a.frameworkId === b.frameworkId
      ? a.requirementId.localeCompare(b.requirementId)
      : a.frameworkId.localeCompare(b.frameworkId),
  );
  const records = new Map<string, Map<string, OrgControlState>>();
  const parts: string[] = [];
  let validUntil = Number.POSITIVE_INFINITY;
  for (const state of states) {
    if (state.expiresAt !== null) validUntil = Math.min(validUntil, new Date(state.expiresAt).getTime());
    // A record counts once it holds a status or an exclusion; an applicability-only exclusion leaves the
    // status to the crosswalk (`statusRecorded: false`).
    if (state.status === null && state.applicable !== false) continue;
    let framework = records.get(state.frameworkId);
    if (!framework) {
      framework = new Map();
      records.set(state.frameworkId, framework);
    }
    framework.set(state.requirementId, {
      status: state.status ?? 'not_started',
      applicable: state.applicable ?? true,
      ...(state.status === null ? { statusRecorded: false } : {}),
      ...(state.evidenceExpired ? { evidenceExpired: true } : {}),
    });
    parts.push(
      `${state.frameworkId}/${state.requirementId}:${state.status}:${state.applicable}:${state.evidenceExpired ? 1 : 0}`,
    );
  }
  parts.push(...risks.map((risk) => `risk:${risk}`));
  parts.push(...caps.map((cap) => `cap:${cap.frameworkId}/${cap.requirementId}`));
  return {
    records,
    aiSystemRiskLevels: risks,
    caps: new Set(caps.map((cap) => `${cap.frameworkId}\u001f${cap.requirementId}`)),
    fingerprint: parts.join(','),
    validUntil,
  };
}
