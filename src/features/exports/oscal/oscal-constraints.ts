import type { OscalAssessmentResultsDocument, OscalPackage, OscalSspDocument } from './oscal.types.js';

export interface OscalConstraintProblem {
  document: string;
  path: string;
  message: string;
}

// OSCAL allows other values here, so the schema passes anything; we promise to use only the defined ones.
const IMPLEMENTATION_STATES = new Set(['implemented', 'partial', 'planned', 'alternative', 'not-applicable']);
const FINDING_STATES = new Set(['satisfied', 'not-satisfied']);
const FINDING_REASONS = new Set(['pass', 'fail', 'other']);
const RISK_STATUSES = new Set([
  'open',
  'investigating',
  'remediating',
  'deviation-requested',
  'deviation-approved',
  'closed',
]);

/** At least one by-component per implemented requirement, one requirement per control, defined states. */
export function checkSspConstraints(ssp: OscalSspDocument): OscalConstraintProblem[] {
  const problems: OscalConstraintProblem[] = [];
  const requirements = ssp['system-security-plan']['control-implementation']['implemented-requirements'];
  const seenControls = new Set<string>();
  requirements.forEach((requirement, i) => {
    const path = `/system-security-plan/control-implementation/implemented-requirements/${i}`;
    const report = (message: string) => problems.push({ document: 'ssp.json', path, message });
    if (seenControls.has(requirement['control-id']))
      report(`control ${requirement['control-id']} implemented twice`);
    seenControls.add(requirement['control-id']);
    if (!requirement['by-components']?.length) report('no by-component');
    for (const byComponent of requirement['by-components'] ?? []) {
      const state = byComponent['implementation-status']?.state;
      if (!IMPLEMENTATION_STATES.has(state)) report(`undefined implementation state ${state}`);
    }
  });
  return problems;
}

/** Finding and risk statuses use the defined tokens only. */
export function checkAssessmentResultsConstraints(
  ar: OscalAssessmentResultsDocument,
): OscalConstraintProblem[] {
  const problems: OscalConstraintProblem[] = [];
  ar['assessment-results'].results.forEach((result, r) => {
    (result.findings ?? []).forEach((finding, f) => {
      const path = `/assessment-results/results/${r}/findings/${f}/target`;
      const { status } = finding.target;
      if (!FINDING_STATES.has(status.state) || !FINDING_REASONS.has(status.reason)) {
        problems.push({
          document: 'assessment-results.json',
          path,
          message: `undefined finding status ${status.state}/${status.reason}`,
        });
      }
    });
    (result.risks ?? []).forEach((risk, k) => {
      if (!RISK_STATUSES.has(risk.status)) {
        problems.push({
          document: 'assessment-results.json',
          path: `/assessment-results/results/${r}/risks/${k}/status`,
          message: `undefined risk status ${risk.status}`,
        });
      }
    });
  });
  return problems;
}

/**
 * Rules of the OSCAL metaschema that its JSON schema does not express, for the parts we produce: at
 * least one by-component per implemented requirement, one requirement per control, defined tokens only.
 */
export function checkOscalConstraints(pkg: OscalPackage): OscalConstraintProblem[] {
  const { documents } = pkg['oscal-package'];
  return [
    ...checkSspConstraints(documents['ssp.json']),
    ...checkAssessmentResultsConstraints(documents['assessment-results.json']),
  ];
}
