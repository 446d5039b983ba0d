import { COMPLY_PROP_NS, OSCAL_FILES } from '../../../platform/oscal/constants.js';
import type {
  AssessmentSource,
  ExportControl,
  ExportEvidence,
  ExportFramework,
  ExportRisk,
} from '../export.types.js';
import type {
  OscalAssessmentResultsDocument,
  OscalFinding,
  OscalObservation,
  OscalOrigin,
  OscalProperty,
  OscalResult,
  OscalRisk,
} from './oscal.types.js';
import {
  compProp,
  documentMetadata,
  type EvidenceRef,
  type OscalContext,
  stateProps,
} from './oscal-context.js';
import { findingStatus, implementationState, RISK_STATUSES } from './oscal-status.js';
import { markupLine, markupMultiline, oscalDateTime, oscalString } from './oscal-text.js';

const EVIDENCE_KINDS: Record<ExportEvidence['type'], string> = {
  attestation: 'Attestation',
  document: 'Document',
  link: 'Link',
};

/**
 * An evidence item as an observation, which `expires` when the evidence does. Its resource lives in the SSP's back-matter, linked as
 * `ssp.json#uuid` rather than copied, which would double the size of a large export.
 */
export function evidenceObservation(
  control: ExportControl,
  { evidence, resourceUuid, observationUuid, title }: EvidenceRef,
  noun: ExportFramework['noun'] = 'control',
): OscalObservation {
  const observation: OscalObservation = {
    uuid: observationUuid,
    title,
    description: `${EVIDENCE_KINDS[evidence.type]} recorded for ${noun} ${markupLine(control.controlId, 'unknown')}.`,
    methods: ['EXAMINE'],
    'relevant-evidence': [{ href: `${OSCAL_FILES.ssp}#${resourceUuid}`, description: title }],
    collected: oscalDateTime(evidence.createdAt),
  };
  if (evidence.expiresAt) observation.expires = oscalDateTime(evidence.expiresAt);
  return observation;
}

const STATUS_SOURCES: Record<AssessmentSource, string> = {
  direct: 'as recorded',
  inferred: 'as inferred through the crosswalk',
  none: 'not assessed',
};

function finding(ctx: OscalContext, control: ExportControl, riskUuids: string[] = []): OscalFinding {
  const { noun } = ctx.framework;
  const source = STATUS_SOURCES[control.assessment ?? 'direct'];
  const result: OscalFinding = {
    uuid: ctx.ids.finding(control.controlId),
    title: markupLine(`${control.controlId} ${control.title}`, control.controlId),
    description: `Status of ${noun} ${markupLine(control.controlId, noun)} ${source}, with ${control.evidenceCount} evidence item(s).`,
    props: [compProp('status', control.status)],
    origins: [{ actors: [{ type: 'tool', 'actor-uuid': ctx.ids.tool }] }],
    target: {
      type: 'statement-id',
      'target-id': ctx.tokens.statement(control.controlId),
      status: findingStatus(control),
      'implementation-status': { state: implementationState(control) },
    },
    'implementation-statement-uuid': ctx.ids.implementedRequirement(control.controlId),
  };
  const evidence = ctx.evidence.get(control) ?? [];
  if (evidence.length > 0) {
    result['related-observations'] = evidence.map((ref) => ({ 'observation-uuid': ref.observationUuid }));
  }
  if (riskUuids.length > 0) result['related-risks'] = riskUuids.map((uuid) => ({ 'risk-uuid': uuid }));
  return result;
}

const toolOrigin = (ctx: OscalContext): OscalOrigin => ({
  actors: [{ type: 'tool', 'actor-uuid': ctx.ids.tool }],
});

/** The requirements of the exported framework a risk's treatment lists, that the package holds, each once. */
function treatedControls(
  ctx: OscalContext,
  risk: ExportRisk,
  held: Map<string, ExportControl>,
): ExportControl[] {
  const controls = new Set<ExportControl>();
  for (const { frameworkId, requirementId } of risk.treatment?.requirements ?? []) {
    const control = frameworkId === ctx.framework.id ? held.get(requirementId) : undefined;
    if (control) controls.add(control);
  }
  return [...controls];
}

/** The risk's two ratings as facets of one characterization (our naming system, the org's 1–5 scales). */
function characterization(ctx: OscalContext, risk: ExportRisk): OscalRisk['characterizations'][number] {
  const facet = (name: string, value: string | number) => ({
    name,
    system: COMPLY_PROP_NS,
    value: String(value),
  });
  return {
    origin: toolOrigin(ctx),
    facets: [
      facet('inherent-likelihood', risk.likelihood),
      facet('inherent-impact', risk.impact),
      facet('inherent-score', risk.inherent.score),
      facet('inherent-level', risk.inherent.level),
      facet('residual-likelihood', risk.residualLikelihood),
      facet('residual-impact', risk.residualImpact),
      facet('residual-score', risk.residual.score),
      facet('residual-level', risk.residual.level),
    ],
  };
}

/**
 * A risk of the register as an OSCAL risk: its state as the status (see `RISK_STATUSES`), both ratings as a
 * characterization, the treatment as a remediation, each listed requirement of the exported framework as a
 * mitigating factor linked to its implementation statement in the SSP, the treatment's due date as the
 * deadline.
 */
export function riskOf(
  ctx: OscalContext,
  risk: ExportRisk,
  held: Map<string, ExportControl>,
  systemNames: Map<string, string>,
): OscalRisk {
  const systems = risk.systemIds.map((id) => markupLine(systemNames.get(id) ?? id, id));
  const rating = (label: string, l: number, i: number, r: { score: number; level: string }) =>
    `${label} risk ${r.level}: likelihood ${l} × impact ${i} = ${r.score}.`;
  const statement = [
    rating('Inherent', risk.likelihood, risk.impact, risk.inherent),
    rating('Residual', risk.residualLikelihood, risk.residualImpact, risk.residual),
    systems.length > 0 ? `AI systems: ${systems.join(', ')}.` : 'No AI system named.',
  ].join(' ');
  const props: OscalProperty[] = [
    compProp('risk-id', oscalString(risk.riskId, 'unknown')),
    compProp('risk-state', risk.state),
  ];
  if (risk.category) props.push(compProp('category', oscalString(risk.category, 'none')));
  if (risk.owner) props.push(compProp('owner', oscalString(risk.owner, 'none')));
  if (risk.acceptance) {
    props.push(
      compProp('acceptance-state', risk.acceptance.state),
      compProp('accepted-by', oscalString(risk.acceptance.acceptedBy, 'unknown')),
      compProp('acceptance-expires', oscalDateTime(risk.acceptance.expiresAt)),
    );
  }
  const result: OscalRisk = {
    uuid: ctx.ids.risk(risk.riskId),
    title: markupLine(risk.title, risk.riskId),
    description: markupMultiline(risk.description, markupLine(risk.title, risk.riskId)),
    statement,
    props,
    status: RISK_STATUSES[risk.state],
    origins: [toolOrigin(ctx)],
    characterizations: [characterization(ctx, risk)],
  };
  const { treatment } = risk;
  if (!treatment) return result;
  const mitigating = treatedControls(ctx, risk, held).map((control) => ({
    uuid: ctx.ids.riskMitigation(risk.riskId, control.controlId),
    'implementation-uuid': ctx.ids.implementedRequirement(control.controlId),
    description: `${ctx.framework.noun === 'control' ? 'Control' : 'Requirement'} ${markupLine(control.controlId, 'unknown')}, ${implementationState(control)}.`,
  }));
  if (mitigating.length > 0) result['mitigating-factors'] = mitigating;
  if (treatment.dueDate) result.deadline = oscalDateTime(treatment.dueDate);
  const listed = treatment.requirements.map(({ frameworkId, requirementId }) =>
    markupLine(`${frameworkId} ${requirementId}`, requirementId),
  );
  const { implemented, total } = risk.treatmentProgress;
  const plan = treatment.plan ? markupMultiline(treatment.plan, '') : '';
  result.remediations = [
    {
      uuid: ctx.ids.riskRemediation(risk.riskId),
      lifecycle: total > 0 && implemented === total ? 'completed' : 'planned',
      title: `Treatment: ${treatment.option}`,
      description: [
        total > 0
          ? `Implement ${listed.join(', ')} (${implemented} of ${total} implemented).`
          : `No requirement listed (option ${treatment.option}).`,
        plan,
      ]
        .filter(Boolean)
        .join('\n\n'),
      props: [compProp('treatment-option', treatment.option)],
    },
  ];
  return result;
}

/** The org's risks, and for each control the UUIDs of the risks whose treatment lists it. */
function risksOf(ctx: OscalContext): { risks: OscalRisk[]; byControl: Map<string, string[]> } {
  const held = new Map(ctx.controls.map((control) => [control.controlId, control]));
  const systemNames = new Map(ctx.data.aiSystems.map((system) => [system.systemId, system.name]));
  const byControl = new Map<string, string[]>();
  const risks = (ctx.data.risks ?? []).map((risk) => {
    const oscal = riskOf(ctx, risk, held, systemNames);
    for (const control of treatedControls(ctx, risk, held)) {
      byControl.set(control.controlId, [...(byControl.get(control.controlId) ?? []), oscal.uuid]);
    }
    return oscal;
  });
  return { risks, byControl };
}

export function evidenceObservations(ctx: OscalContext): OscalObservation[] {
  const observations: OscalObservation[] = [];
  for (const control of ctx.controls) {
    for (const ref of ctx.evidence.get(control) ?? []) {
      observations.push(evidenceObservation(control, ref, ctx.framework.noun));
    }
  }
  return observations;
}

/**
 * One result per export: an observation per evidence item, the org's risks (live exports; a snapshot has
 * none) and a finding per applicable control (requirement), whether its status is recorded, inferred or
 * neither, related to the risks whose treatment lists it.
 * `observations` defaults to all of them; a streaming writer passes only the first and adds the rest.
 */
export function buildAssessmentResults(
  ctx: OscalContext,
  observations: OscalObservation[] = evidenceObservations(ctx),
): OscalAssessmentResultsDocument {
  const { risks, byControl } = risksOf(ctx);
  const findings = ctx.controls
    .filter((control) => control.applicable)
    .map((control) => finding(ctx, control, byControl.get(control.controlId)));
  const riskText = risks.length > 0 ? `, and the ${risks.length} risk(s) of the org's AI risk register` : '';
  const result: OscalResult = {
    uuid: ctx.ids.result(ctx.generatedAt),
    title: `Evidence review of ${ctx.orgMarkup} at ${ctx.generatedAt}`,
    description: `Observations of the ${ctx.evidenceCount} evidence item(s) exported and a finding for each of the ${findings.length} applicable ${ctx.framework.noun}(s)${riskText}.`,
    start: ctx.generatedAt,
    end: ctx.generatedAt,
    'reviewed-controls': { 'control-selections': [{ 'include-all': {} }] },
  };
  if (observations.length > 0) result.observations = observations;
  if (risks.length > 0) result.risks = risks;
  if (findings.length > 0) result.findings = findings;
  return {
    'assessment-results': {
      uuid: ctx.ids.assessmentResults,
      metadata: documentMetadata(ctx, `${ctx.orgMarkup}: ${ctx.frameworkName} assessment results`, {
        props: stateProps(ctx),
      }),
      'import-ap': { href: OSCAL_FILES.assessmentPlan },
      results: [result],
    },
  };
}
