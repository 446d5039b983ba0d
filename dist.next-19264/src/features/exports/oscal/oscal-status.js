const IMPLEMENTATION_STATES = {
    implemented: 'implemented',
    in_progress: 'partial',
    not_started: 'planned',
};
/** Our status in OSCAL's implementation-state tokens; exclusions are `not-applicable` whatever the status. */
export function implementationState(control) {
    return control.applicable ? IMPLEMENTATION_STATES[control.status] : 'not-applicable';
}
/** A control is satisfied only when it is implemented and backed by at least one evidence item. */
export function findingStatus(control) {
    return control.status === 'implemented' && control.evidenceCount > 0
        ? { state: 'satisfied', reason: 'pass' }
        : { state: 'not-satisfied', reason: 'other' };
}
export const IMPLEMENTATION_SUMMARIES = {
    implemented: 'Implemented.',
    partial: 'Partially implemented: implementation is in progress.',
    planned: 'Planned: implementation has not started.',
    alternative: 'Implemented through an alternative control.',
    'not-applicable': 'Not applicable: excluded from the scope of the AI management system.',
};
//# sourceMappingURL=oscal-status.js.map