import type { ControlStatus } from '../controls/org-control.entity.js';
import type { Em } from '../db.js';
import { type ControlState, countStates, type ScoreCounts } from './score.js';

/**
 * Past states are rebuilt exactly by walking the change log backwards from the current state: each
 * change carries the value it replaced. The walk only reads changes after the earliest instant asked for.
 */

export interface LoggedChange {
  controlId: string;
  field: 'status' | 'applicable';
  fromValue: string | null;
  changedAt: number;
}

export async function readCurrentStates(tx: Em, orgId: string): Promise<Map<string, ControlState>> {
  const rows = await tx.execute<({ controlId: string } & ControlState)[]>(
    'select control_id as "controlId", status, applicable from org_controls where org_id = ?',
    [orgId],
  );
  return new Map(rows.map((row) => [row.controlId, { status: row.status, applicable: row.applicable }]));
}

/** Changes at or after `since`, newest first (id breaks ties, so same-millisecond changes unwind in order). */
export async function readChangesSince(tx: Em, orgId: string, since: Date): Promise<LoggedChange[]> {
  const rows = await tx.execute<(Omit<LoggedChange, 'changedAt'> & { changedAt: Date | string })[]>(
    `select control_id as "controlId", field, from_value as "fromValue", changed_at as "changedAt"
     from control_changes where org_id = ? and changed_at >= ?::timestamptz order by changed_at desc, id desc`,
    [orgId, since],
  );
  return rows.map((row) => ({ ...row, changedAt: new Date(row.changedAt).getTime() }));
}

function revert(states: Map<string, ControlState>, change: LoggedChange): void {
  const state = states.get(change.controlId);
  if (!state || change.fromValue === null) return;
  if (change.field === 'status') state.status = change.fromValue as ControlStatus;
  else state.applicable = change.fromValue === 'true';
}

/**
 * Counts as of each bound, where the state at a bound includes exactly the changes made before it
 * (`changedAt < bound`); `Infinity` means now. `changes` must hold every change at or after the smallest
 * finite bound, newest first.
 */
export function countsAtBounds(
  current: Map<string, ControlState>,
  changes: LoggedChange[],
  bounds: number[],
): Map<number, ScoreCounts> {
  const states = new Map([...current].map(([id, state]) => [id, { ...state }]));
  const result = new Map<number, ScoreCounts>();
  let next = 0;
  for (const bound of [...new Set(bounds)].sort((a, b) => b - a)) {
    while (next < changes.length && changes[next].changedAt >= bound) {
      revert(states, changes[next]);
      next += 1;
    }
    result.set(bound, countStates(states.values()));
  }
  return result;
}
