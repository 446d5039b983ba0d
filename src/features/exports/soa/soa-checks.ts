/**
 * The checks of the Statement of Applicability: what in the org's risk treatment, its acceptances and its
 * impact assessments an auditor would ask about. Plain functions of the data, one rule per kind; the route
 * (`GET /orgs/{orgId}/soa/checks`) and the SoA exports show the same list.
 *
 * Severities:
 * - `excluded_control_treats_risk` high: an ISO/IEC 42001 control marked not applicable that a risk's
 *   treatment lists — the SoA contradicts the treatment plan (6.1.3).
 * - `risk_without_treatment` medium: a risk with no treatment (state `open`).
 * - `needs_acceptance` high: a risk whose residual level is above the acceptable level (or whose option is
 *   `accept`) that has never been accepted, or whose acceptance was withdrawn.
 * - `stale_acceptance` / `expired_acceptance`: an acceptance the risk's assessed fields changed since, or past
 *   its date — high while the risk needs acceptance, low once it no longer does.
 * - `treatment_overdue` medium: past the treatment's due date with its requirements not all implemented.
 * - `system_without_impact_assessment` high: an AI system of risk level `high`, not retired, without an
 *   approved impact assessment.
 * - `assessment_due` medium: an approved impact assessment due for reassessment (its system changed, or its
 *   review date passed).
 */
import {
  ISO_42001,
  SOA_CHECK_KINDS,
  SOA_CHECK_SEVERITIES,
  type SoaCheckKind,
  type SoaCheckSeverity,
} from '../../../shared/vocabulary.js';
import type {
  ExportAiSystem,
  ExportCheck,
  ExportControl,
  ExportImpactAssessment,
  ExportRisk,
} from '../export.types.js';

export { SOA_CHECK_KINDS, SOA_CHECK_SEVERITIES, type SoaCheckKind, type SoaCheckSeverity };

/** The severities as the OpenAPI description states them. */
export const SOA_CHECK_SEVERITY_TEXT =
  '`excluded_control_treats_risk` high (an ISO/IEC 42001 control marked not applicable that a risk’s ' +
  'treatment lists); `risk_without_treatment` medium (a risk with no treatment); `needs_acceptance` high ' +
  '(residual risk above the acceptable level, or option accept, never accepted); `stale_acceptance` and ' +
  '`expired_acceptance` high while the risk needs acceptance, low once it no longer does; ' +
  '`treatment_overdue` medium (past its due date, requirements not all implemented); ' +
  '`system_without_impact_assessment` high (an AI system of risk level high, not retired, without an ' +
  'approved impact assessment); `assessment_due` medium (an approved impact assessment due for ' +
  'reassessment).';

/** What the risk-treatment checks read: the org's ISO/IEC 42001 controls, its risks. */
export interface RiskCheckInput {
  controls: Pick<ExportControl, 'controlId' | 'applicable'>[];
  risks: ExportRisk[];
}

const riskName = (risk: Pick<ExportRisk, 'riskId' | 'title'>) => `"${risk.title}" (${risk.riskId})`;

/** The ISO/IEC 42001 controls a risk's treatment lists, in its order, each once. */
export function isoControlsOf(risk: Pick<ExportRisk, 'treatment'>): string[] {
  const ids = (risk.treatment?.requirements ?? [])
    .filter((requirement) => requirement.frameworkId === ISO_42001)
    .map((requirement) => requirement.requirementId);
  return [...new Set(ids)];
}

function acceptanceCheck(risk: ExportRisk): ExportCheck | null {
  const { acceptance } = risk;
  const needed = risk.state === 'needs_acceptance';
  if (acceptance === null || acceptance.state === 'valid') {
    return needed
      ? {
          kind: 'needs_acceptance',
          severity: 'high',
          message:
            risk.treatment?.option === 'accept'
              ? `Risk ${riskName(risk)} is to be accepted, and no one has accepted it`
              : `The residual risk of ${riskName(risk)} is ${risk.residual.level}, above the acceptable level, and no one has accepted it`,
          riskId: risk.riskId,
        }
      : null;
  }
  const severity = needed ? 'high' : 'low';
  const consequence = needed ? 'the risk needs accepting again' : 'the risk no longer needs it';
  return acceptance.state === 'stale'
    ? {
        kind: 'stale_acceptance',
        severity,
        message: `The acceptance of ${riskName(risk)} by ${acceptance.acceptedBy} predates a change to its ratings, treatment or systems; ${consequence}`,
        riskId: risk.riskId,
      }
    : {
        kind: 'expired_acceptance',
        severity,
        message: `The acceptance of ${riskName(risk)} by ${acceptance.acceptedBy} expired on ${acceptance.expiresAt.slice(0, 10)}; ${consequence}`,
        riskId: risk.riskId,
      };
}

/** The checks of the risk register against the SoA: every kind but the impact-assessment ones. */
export function riskTreatmentChecks({ controls, risks }: RiskCheckInput): ExportCheck[] {
  const excluded = new Set(controls.filter((control) => !control.applicable).map((c) => c.controlId));
  const checks: ExportCheck[] = [];
  for (const risk of risks) {
    for (const controlId of isoControlsOf(risk)) {
      if (!excluded.has(controlId)) continue;
      checks.push({
        kind: 'excluded_control_treats_risk',
        severity: 'high',
        message: `Control ${controlId} is marked not applicable, yet the treatment of risk ${riskName(risk)} relies on it`,
        riskId: risk.riskId,
        controlId,
      });
    }
    if (risk.treatment === null) {
      checks.push({
        kind: 'risk_without_treatment',
        severity: 'medium',
        message: `Risk ${riskName(risk)} (residual ${risk.residual.level}) has no treatment`,
        riskId: risk.riskId,
      });
    }
    const acceptance = acceptanceCheck(risk);
    if (acceptance) checks.push(acceptance);
    if (risk.treatmentOverdue) {
      const { implemented, total } = risk.treatmentProgress;
      checks.push({
        kind: 'treatment_overdue',
        severity: 'medium',
        message: `The treatment of risk ${riskName(risk)} was due on ${risk.treatment?.dueDate?.slice(0, 10)}; ${implemented} of ${total} requirements are implemented`,
        riskId: risk.riskId,
      });
    }
  }
  return checks;
}

/** A high-risk AI system in use or on its way there: the ones an impact assessment must cover. */
export const needsImpactAssessment = (system: Pick<ExportAiSystem, 'riskLevel' | 'lifecycleStage'>) =>
  system.riskLevel === 'high' && system.lifecycleStage !== 'retired';

/**
 * The checks of the AI systems' impact assessments: `system_without_impact_assessment` for each high-risk
 * system (not retired) without an approved assessment, `assessment_due` for each approved assessment due for
 * reassessment. Takes the org's assessments as they are (every state); the caller reads them.
 */
export function impactAssessmentChecks(
  systems: Pick<ExportAiSystem, 'systemId' | 'name' | 'riskLevel' | 'lifecycleStage'>[],
  assessments: ExportImpactAssessment[],
): ExportCheck[] {
  const approved = new Set(assessments.filter((a) => a.state === 'approved').map((a) => a.systemId));
  const names = new Map(systems.map((system) => [system.systemId, system.name]));
  const checks: ExportCheck[] = [];
  for (const system of systems) {
    if (!needsImpactAssessment(system) || approved.has(system.systemId)) continue;
    checks.push({
      kind: 'system_without_impact_assessment',
      severity: 'high',
      message: `High-risk AI system "${system.name}" (${system.systemId}) has no approved impact assessment`,
      systemId: system.systemId,
    });
  }
  for (const assessment of assessments) {
    if (assessment.state !== 'approved' || !assessment.reassessment?.due) continue;
    const name = names.get(assessment.systemId);
    const system = name ? `"${name}" (${assessment.systemId})` : assessment.systemId;
    const reasons = assessment.reassessment.reasons.join('; ');
    checks.push({
      kind: 'assessment_due',
      severity: 'medium',
      message: `The impact assessment ${assessment.assessmentId} of AI system ${system} is due for reassessment${reasons ? `: ${reasons}` : ''}`,
      systemId: assessment.systemId,
      assessmentId: assessment.assessmentId,
    });
  }
  return checks;
}

const SEVERITY_ORDER: Record<SoaCheckSeverity, number> = { high: 0, medium: 1, low: 2 };
const KIND_ORDER = new Map<SoaCheckKind, number>(SOA_CHECK_KINDS.map((kind, index) => [kind, index]));

/** Most severe first, then by kind in the order above, then as given (the register's order, oldest first). */
export function sortChecks(checks: ExportCheck[]): ExportCheck[] {
  return [...checks].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      (KIND_ORDER.get(a.kind) ?? 99) - (KIND_ORDER.get(b.kind) ?? 99),
  );
}

/**
 * Every check of the SoA, sorted. `assessments` undefined: the impact-assessment checks are left out (no
 * assessments were read); an empty list runs them (no system has one).
 */
export function soaChecks(
  input: RiskCheckInput & {
    aiSystems: Pick<ExportAiSystem, 'systemId' | 'name' | 'riskLevel' | 'lifecycleStage'>[];
    assessments?: ExportImpactAssessment[];
  },
): ExportCheck[] {
  return sortChecks([
    ...riskTreatmentChecks(input),
    ...(input.assessments ? impactAssessmentChecks(input.aiSystems, input.assessments) : []),
  ]);
}
