/**
 * The scheduled scan of what is due: for each org it reads the agenda (computed from the records) and the risk
 * register, and emits, once per item and occasion, `item.due_soon` (due within 7 days), `item.overdue` (past its
 * date) and `risk.needs_acceptance` (once per risk and assessed state: a changed assessment needs a new
 * acceptance). An emission is claimed in `notification_emissions` and appended to the org's audit trail in the
 * same transaction, from where webhooks receive it like any other event: two daemons scanning at once, or a
 * restart, never emit twice.
 */
import { appendEvent } from '../../platform/audit/audit.store.js';
import type { Em } from '../../platform/db/database.js';
import { selectOrgIds } from '../../records/orgs.store.js';
import { agendaOf, type DueItem } from '../agenda/agenda.service.js';
import { analysisOf } from '../cte/analysis.service.js';
import { assessedStateHash, type RiskView, registerOf } from '../risks/risks.service.js';
import type { RiskValues } from '../risks/risks.store.js';
import { claimEmission, type EmissionKey, emissionKey, selectEmitted } from './reminders.store.js';

/** An item is due soon this long before its date. */
export const DUE_SOON_MS = 7 * 24 * 3600_000;
/** Emissions claimed per transaction (the first scan of a large org has many). */
const CHUNK = 200;

const SYSTEM = { type: 'system' as const, id: 'system', name: 'comply' };

interface Emission extends EmissionKey {
  action: 'item.due_soon' | 'item.overdue' | 'risk.needs_acceptance';
  resource: { type: string; id: string };
  /** What the event tells, as the fields of a record just made (`from` null). */
  fields: Record<string, unknown>;
}

const created = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, { from: null, to: value }]));

/** The threshold an item has crossed at `now`, if any. */
export function thresholdOf(item: Pick<DueItem, 'dueAt'>, now: number): 'due_soon' | 'overdue' | null {
  const due = Date.parse(item.dueAt);
  if (due <= now) return 'overdue';
  return due - now <= DUE_SOON_MS ? 'due_soon' : null;
}

function itemEmissions(items: DueItem[], now: number): Emission[] {
  return items.flatMap((item) => {
    const threshold = thresholdOf(item, now);
    if (!threshold) return [];
    return [
      {
        kind: item.kind,
        resourceId: item.resource.id,
        occasion: item.dueAt,
        threshold,
        action: threshold === 'overdue' ? ('item.overdue' as const) : ('item.due_soon' as const),
        resource: item.resource,
        fields: { kind: item.kind, dueAt: item.dueAt, title: item.title, owner: item.owner ?? null },
      },
    ];
  });
}

function riskEmissions(risks: RiskView[]): Emission[] {
  return risks
    .filter((risk) => risk.state === 'needs_acceptance')
    .map((risk) => ({
      kind: 'risk.needs_acceptance',
      resourceId: risk.riskId,
      occasion: assessedStateHash(risk as unknown as RiskValues),
      threshold: 'needs_acceptance',
      action: 'risk.needs_acceptance' as const,
      resource: { type: 'risk', id: risk.riskId },
      fields: {
        state: risk.state,
        title: risk.title,
        owner: risk.owner,
        residualLevel: risk.residual.level,
        treatmentOption: risk.treatment?.option ?? null,
      },
    }));
}

/** Emits what the org has newly crossed; returns how many events it appended. */
export async function scanOrg(em: Em, orgId: string, now = Date.now()): Promise<number> {
  const analysis = await analysisOf(em, orgId);
  const [{ items }, { risks }] = await Promise.all([
    agendaOf(em, orgId, analysis, now),
    registerOf(em, orgId, analysis),
  ]);
  const candidates = [...itemEmissions(items, now), ...riskEmissions(risks)];
  if (candidates.length === 0) return 0;
  const emitted = await selectEmitted(em, orgId, candidates);
  const fresh = candidates.filter((candidate) => !emitted.has(emissionKey(candidate)));
  let appended = 0;
  for (let start = 0; start < fresh.length; start += CHUNK) {
    appended += await em.transactional(async (tx) => {
      let count = 0;
      const at = new Date(now);
      for (const emission of fresh.slice(start, start + CHUNK)) {
        if (!(await claimEmission(tx, orgId, emission, at))) continue;
        await appendEvent(tx, orgId, {
          actor: SYSTEM,
          action: emission.action,
          resource: emission.resource,
          changes: created(emission.fields),
          requestId: null,
        });
        count += 1;
      }
      return count;
    });
  }
  return appended;
}

/** Scans every org (or one); returns the orgs that got new events. */
export async function scanOrgs(em: Em, orgId?: string, now = Date.now()): Promise<string[]> {
  const orgIds = orgId ? [orgId] : await selectOrgIds(em);
  const touched: string[] = [];
  for (const id of orgIds) if ((await scanOrg(em, id, now)) > 0) touched.push(id);
  return touched;
}
