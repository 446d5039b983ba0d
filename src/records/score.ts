import type { RequirementStatus } from '../shared/vocabulary.js';

/** A requirement's status and applicability; null (not judged) counts as not started and applicable. */
export interface ControlState {
  status: RequirementStatus | null;
  applicable: boolean | null;
}

export interface ScoreCounts {
  implemented: number;
  inProgress: number;
  notStarted: number;
  notApplicable: number;
}

/** 100 × (implemented + 0.5 × in_progress) / applicable, one decimal; null when nothing applies. */
export function scoreOf(counts: ScoreCounts): number | null {
  const applicable = counts.implemented + counts.inProgress + counts.notStarted;
  if (applicable === 0) return null;
  return Math.round((1000 * (counts.implemented + 0.5 * counts.inProgress)) / applicable) / 10;
}

export function countStates(states: Iterable<ControlState>): ScoreCounts {
  const counts: ScoreCounts = { implemented: 0, inProgress: 0, notStarted: 0, notApplicable: 0 };
  for (const state of states) {
    if (state.applicable === false) counts.notApplicable += 1;
    else if (state.status === 'implemented') counts.implemented += 1;
    else if (state.status === 'in_progress') counts.inProgress += 1;
    else counts.notStarted += 1;
  }
  return counts;
}
