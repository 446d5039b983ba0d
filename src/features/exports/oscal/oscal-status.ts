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

/** Why an implemented control whose evidence has all expired is not satisfied. */
export const EXPIRED_EVIDENCE_REMARK =
  'Recorded as implemented, but all of its evidence has expired: the CI gate fails it and coverage counts it in progress until the evidence is renewed.';

/**
 * A control is satisfied only when it is implemented and backed by at least one evidence item that has not
 * expired (the records store's rule, which the CI gate and coverage read): one whose evidence has all expired
 * is not satisfied, like any other control not yet met, and a remark says why.
 */
export function findingStatus(control: ExportControl): OscalFinding['target']['status'] {
  if (control.status !== 'implemented' || control.evidenceCount === 0) {
    return { state: 'not-satisfied', reason: 'other' };
  }
  if (control.evidenceExpired) {
    return { state: 'not-satisfied', reason: 'other', remarks: EXPIRED_EVIDENCE_REMARK };
  }
  return { state: 'satisfied', reason: 'pass' };
}

/** What each status says of a requirement, as the predicate of "the organization records this control as …". */
export const STATUS_STATEMENTS: Record<ControlStatus, string> = {
  implemented: 'implemented',
  in_progress: 'in progress: its implementation has started and is not complete',
  not_started: 'not started: its implementation is planned',
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
