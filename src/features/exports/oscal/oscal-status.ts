import type { RiskState } from '../../../shared/vocabulary.js';
import type { ControlStatus, ExportControl } from '../export.types.js';
import type { OscalFinding, OscalImplementationStatus, OscalRiskStatus } from './oscal.types.js';

const IMPLEMENTATION_STATES: Record<ControlStatus, OscalImplementationStatus['state']> = {
  implemented: 'implemented',
  in_progress: 'partial',
  not_started: 'planned',
};

/** Our status in OSCAL's implementation-state tokens; exclusions are `not-applicable` whatever the status. */
export function implementationState(control: ExportControl): OscalImplementationStatus['state'] {
  return control.applicable ? IMPLEMENTATION_STATES[control.status] : 'not-applicable';
}

/** A control is satisfied only when it is implemented and backed by at least one evidence item. */
export function findingStatus(control: ExportControl): OscalFinding['target']['status'] {
  return control.status === 'implemented' && control.evidenceCount > 0
    ? { state: 'satisfied', reason: 'pass' }
    : { state: 'not-satisfied', reason: 'other' };
}

export const IMPLEMENTATION_SUMMARIES: Record<OscalImplementationStatus['state'], string> = {
  implemented: 'Implemented.',
  partial: 'Partially implemented: implementation is in progress.',
  planned: 'Planned: implementation has not started.',
  alternative: 'Implemented through an alternative control.',
  'not-applicable': 'Not applicable: excluded from the scope of the AI management system.',
};

/**
 * A risk's state as OSCAL's risk status: `open` (identified, no treatment) → open; `treating` (treatment
 * under way) → remediating; `treated` (every listed requirement implemented, residual acceptable) → closed;
 * `needs_acceptance` (residual above the acceptable level awaiting sign-off) → deviation-requested; `accepted`
 * (residual risk accepted by an approver) → deviation-approved. Our own state is the `risk-state` prop.
 */
export const RISK_STATUSES: Record<RiskState, OscalRiskStatus> = {
  open: 'open',
  treating: 'remediating',
  treated: 'closed',
  needs_acceptance: 'deviation-requested',
  accepted: 'deviation-approved',
};
