/**
 * What the CTE needs to know about an organization: its ISO/IEC 42001 control states (each with whether
 * its evidence has all expired) and the risk levels of its AI systems (retired ones no longer count). One
 * query; its rows also make the fingerprint that keys the cached analyses.
 */
import type { Em } from '../db.js';
import type { RiskLevel } from './gaps.js';
import type { ControlStatus, OrgControlState } from './graph.js';

export interface OrgState {
  statuses: ReadonlyMap<string, OrgControlState>;
  aiSystemRiskLevels: readonly RiskLevel[];
  /** Equal fingerprints mean equal inputs to coverage and gaps. */
  fingerprint: string;
}

interface Row {
  kind: 'control' | 'risk';
  id: string;
  status: ControlStatus | null;
  applicable: boolean | null;
  expired: boolean | null;
}

export async function loadOrgState(em: Em, orgId: string, now = new Date()): Promise<OrgState> {
  const rows = await em.execute<Row[]>(
    `select 'control' as kind, control_id as id, status, applicable,
       coalesce(evidence_count > 0 and not evidence_never_expires
         and evidence_expires_max <= ?::timestamptz, false) as expired
     from org_controls where org_id = ?
     union all
     select distinct 'risk', risk_level, null::text, null::boolean, null::boolean
     from ai_systems where org_id = ? and lifecycle_stage <> 'retired'
     order by 1, 2`,
    [now, orgId, orgId],
  );
  const statuses = new Map<string, OrgControlState>();
  const risks: RiskLevel[] = [];
  const parts: string[] = [];
  for (const row of rows) {
    if (row.kind === 'risk') {
      risks.push(row.id as RiskLevel);
      parts.push(`risk:${row.id}`);
      continue;
    }
    const status = row.status ?? 'not_started';
    const applicable = row.applicable ?? true;
    statuses.set(row.id, { status, applicable, ...(row.expired ? { evidenceExpired: true } : {}) });
    parts.push(`${row.id}:${status}:${applicable ? 1 : 0}:${row.expired ? 1 : 0}`);
  }
  return {
    statuses,
    aiSystemRiskLevels: risks,
    fingerprint: parts.join(','),
  };
}
