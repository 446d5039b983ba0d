/**
 * Gaps: every unmet requirement of a framework for one organization, ranked and with a specific
 * recommendation (which ISO/IEC 42001 control to implement or finish, and which evidence closes it).
 * A requirement with mapped ISO controls (the joint rule of `graph.ts`) names every one of them still to
 * implement or finish; one whose mapped controls are all excluded has the status `excluded` and asks the
 * organization to confirm that it does not apply or to reconsider the exclusions. Provisions that bind no
 * organization (penalties, entry into force, transitional dates: `bindsNoOne`) are never gaps.
 *
 * Priority is a points score, each part defensible on its own:
 * - obligation: 3 for a legally binding requirement; 2 for a voluntary one that a legal requirement of
 *   another framework is mapped to (it is the route to meeting that obligation); 1 for other voluntary
 *   requirements and for provisions that only set penalties or dates (context, not duties);
 * - risk: the highest risk level among the organization's AI systems that the requirement concerns
 *   (`concernedRiskLevels`: a high-risk duty only high-risk systems, a transparency duty of Art. 50
 *   limited- and high-risk ones, a prohibition unacceptable ones; standards every system), minimal 0,
 *   limited 1, high 2, unacceptable 3 (none: 0). General-purpose-AI model duties and context provisions
 *   take none: they do not depend on any system's level;
 * - dependence (edge fan-out): 2 when crosswalk edges join it to 2+ other frameworks or 5+ requirements,
 *   1 when joined to any, else 0;
 * - status: 1 when nothing is done (uncovered / not started), 0 when work exists (partial / in progress).
 * critical at 7 points or more, important at 4–6, minor below 4. So an uncovered legal obligation that
 * others map to is critical for an organization running a high-risk AI system and important otherwise.
 */

import type { AssessmentSource, GapPriority, RiskLevel } from '../../shared/vocabulary.js';
import type { Requirement, RequirementRef } from './framework.types.js';
import {
  baseFamily,
  type ControlStatus,
  type CoverageResult,
  crosswalkGraph,
  describeHop,
  type JointCoverage,
  type ReachingControl,
  type RequirementCoverage,
  reachingControls,
  uncoveredByExclusion,
} from './graph.js';
import { type FrameworkLibrary, shortFrameworkName, UnknownFrameworkError } from './library.js';
import { describeDuty } from './parameters.js';

export type { GapPriority, RiskLevel };
export type GapStatus = 'uncovered' | 'partial' | 'excluded' | ControlStatus;

export interface GapContext {
  aiSystemRiskLevels?: readonly RiskLevel[];
  /** The organization, named in the commands that recommendations suggest. */
  orgId?: string;
  /** Add `assessment` to each gap; without it a gap has exactly the spec's four members. */
  includeAssessment?: boolean;
}

export interface Gap {
  controlId: string;
  priority: GapPriority;
  /** Where the requirement's status comes from; only when asked for (`includeAssessment`). */
  assessment?: AssessmentSource;
  status: GapStatus;
  recommendation: string;
}

export interface GapReport {
  frameworkId: string;
  gaps: Gap[];
  summary: Record<GapPriority, number>;
}

export interface GapFactors {
  obligation: Obligation;
  riskLevel: RiskLevel | null;
  riskPoints: number;
  /** Other frameworks and requirements joined to it by crosswalk edges (fan-out). */
  linkedFrameworks: number;
  linkedRequirements: number;
  score: number;
}

export interface GapDetail extends Gap {
  assessment: AssessmentSource;
  factors: GapFactors;
}

const RISK_POINTS: Record<RiskLevel, number> = { minimal: 0, limited: 1, high: 2, unacceptable: 3 };
const PRIORITY_ORDER: Record<GapPriority, number> = { critical: 0, important: 1, minor: 2 };

export function highestRiskLevel(levels: readonly RiskLevel[] = []): RiskLevel | null {
  let highest: RiskLevel | null = null;
  for (const level of levels)
    if (highest === null || RISK_POINTS[level] > RISK_POINTS[highest]) highest = level;
  return highest;
}

export function priorityFor(score: number): GapPriority {
  if (score >= 7) return 'critical';
  return score >= 4 ? 'important' : 'minor';
}

export type Obligation = 'legal' | 'supports-legal' | 'voluntary' | 'context';
const OBLIGATION_POINTS: Record<Obligation, number> = {
  legal: 3,
  'supports-legal': 2,
  voluntary: 1,
  context: 1,
};

/** Provisions that set penalties, dates or scope rather than a duty to meet. */
function isContext(requirement: Requirement): boolean {
  const topics = requirement.topics ?? [];
  if (topics.includes('penalties')) return true;
  const onlyScope =
    topics.length > 0 && topics.every((topic) => topic === 'legal-compliance' || topic === 'life-cycle');
  return onlyScope && !(requirement.parameters ?? []).some((parameter) => describeDuty(parameter));
}

/**
 * The AI-system risk levels a provision concerns, from its scope in the regulation: high-risk duties concern
 * high-risk systems, the transparency duties of Art. 50 limited- and high-risk ones, the prohibitions
 * unacceptable ones, general-purpose-model duties no system; a requirement without a scope (standards,
 * guidance, provisions for every AI system) concerns every system.
 */
export function concernedRiskLevels(requirement: Requirement): readonly RiskLevel[] | undefined {
  const scope = requirement.scope ?? '';
  if (scope.startsWith('high-risk')) return ['high'];
  if (scope.startsWith('prohibited-practices')) return ['unacceptable'];
  if (scope.startsWith('certain-ai-systems')) return ['limited', 'high'];
  if (scope.startsWith('gpai')) return [];
  return undefined;
}

/** The highest risk level among the org's systems that a requirement concerns. */
export function concernedRiskLevel(
  requirement: Requirement,
  levels: readonly RiskLevel[] = [],
): RiskLevel | null {
  const concerned = concernedRiskLevels(requirement);
  return highestRiskLevel(concerned ? levels.filter((level) => concerned.includes(level)) : levels);
}

/** Risk points a requirement takes from the highest risk level of the org's systems it concerns. */
export function riskPoints(requirement: Requirement, level: RiskLevel | null): number {
  if (!level) return 0;
  const topics = requirement.topics ?? [];
  if (topics.includes('prohibited-practices')) return level === 'unacceptable' ? 3 : 0;
  if (topics[0] === 'general-purpose-ai' || isContext(requirement)) return 0;
  return RISK_POINTS[level];
}

/** Points for obligation, risk, dependence and status, as documented above. */
export function gapScore(input: {
  obligation: Obligation;
  risk: number;
  linkedFrameworks: number;
  linkedRequirements: number;
  nothingDone: boolean;
}): number {
  const dependence =
    input.linkedFrameworks >= 2 || input.linkedRequirements >= 5 ? 2 : input.linkedRequirements > 0 ? 1 : 0;
  return OBLIGATION_POINTS[input.obligation] + input.risk + dependence + (input.nothingDone ? 1 : 0);
}

/** Which evidence typically proves a requirement with these topics. */
const EVIDENCE_BY_TOPIC: [string, string][] = [
  [
    'logging',
    'the logging configuration with its retention setting, or a sidecar attestation that event logging is on',
  ],
  ['record-keeping', 'the records register with its retention schedule'],
  ['incident-management', 'the incident-response procedure and the record of a notification drill'],
  ['human-oversight', 'the human-oversight procedure and an attestation that reviews take place'],
  ['bias', 'bias and fairness test results for each AI system'],
  ['impact-assessment', 'the completed impact assessment, signed off'],
  ['risk-management', 'the AI risk register and its treatment plan'],
  ['data-quality', 'dataset datasheets with quality checks'],
  ['data-governance', 'the data-governance procedure and dataset datasheets'],
  ['transparency', 'the published notice or the instructions for use'],
  ['documentation', 'the technical documentation set, versioned'],
  ['testing', 'test and validation reports'],
  ['robustness', 'robustness and accuracy test reports'],
  ['monitoring', 'monitoring reports or periodic sidecar attestations'],
  ['conformity-assessment', 'the conformity assessment record and declaration'],
  ['registration', 'the registration confirmation'],
  ['data-subject-rights', 'the data-subject request procedure and its request log'],
  ['privacy', 'the record of processing activities and the privacy notice'],
  ['lawful-basis', 'the documented lawful basis for each processing purpose'],
  ['security', 'the security procedure and its latest review'],
  ['access-control', 'the access-control policy and an access review record'],
  ['supplier', 'supplier agreements and supplier assessments'],
  ['competence', 'training and competence records'],
  ['stakeholder-engagement', 'records of stakeholder consultation'],
  ['governance', 'the approved policy and the assignment of roles'],
  ['accountability', 'the approved policy and the assignment of roles'],
];

const EVIDENCE = new Map(EVIDENCE_BY_TOPIC);

/** Evidence for the requirement's first topic that has a known kind of evidence (topics come main first). */
function evidenceFor(requirement: Requirement | undefined): string {
  const topic = (requirement?.topics ?? []).find((candidate) => EVIDENCE.has(candidate));
  return topic ? EVIDENCE.get(topic)! : 'a document showing how it is done';
}

function quoted(library: FrameworkLibrary, frameworkId: string, requirementId: string): string {
  const title = library.requirement(frameworkId, requirementId)?.title;
  return title ? `${requirementId} "${title}"` : requirementId;
}

function dutiesOf(requirement: Requirement | undefined): string {
  const duties = (requirement?.parameters ?? []).map(describeDuty).filter((duty): duty is string => !!duty);
  return duties.length > 0 ? ` Obligations to meet: ${[...new Set(duties)].slice(0, 3).join('; ')}.` : '';
}

interface RecommendationInput {
  library: FrameworkLibrary;
  coverage: CoverageResult;
  ref: RequirementRef;
  requirement: Requirement | undefined;
  orgId?: string;
}

/** A shell word, quoted when it needs to be. */
const shellWord = (word: string) =>
  /^[A-Za-z0-9._:/-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;

/** How to record the org's own judgement on a requirement: the CLI command and the route. */
export function howToRecord(input: { ref: RequirementRef; orgId?: string }): string {
  const { frameworkId, requirementId } = input.ref;
  const org = input.orgId ?? '<orgId>';
  const command = `comply --org ${shellWord(org)} assess ${shellWord(frameworkId)} ${shellWord(requirementId)} --status implemented --reviewer <you>`;
  const orgPath = input.orgId ? encodeURIComponent(input.orgId) : '{orgId}';
  const route = `PUT /api/v1/orgs/${orgPath}/frameworks/${encodeURIComponent(frameworkId)}/requirements/${encodeURIComponent(requirementId)}/status`;
  return `Once it is met, record it: \`${command}\` (${route}); if it does not apply, record why with \`--not-applicable --justification … --reviewer <you>\`.`;
}

/** Says where a direct record and the crosswalk's inference disagree, so that a reviewer looks again. */
function disagreement(input: RecommendationInput, own: RequirementCoverage): string {
  if (own.inferredStatus === 'uncovered' || own.inferredStrength <= own.strength) return '';
  const from = own.justifications[0];
  const source = from ? ` from ${from.frameworkId} ${from.controlId}` : '';
  return ` The crosswalk infers ${own.inferredStatus}${source}, more than the ${own.orgStatus?.replace('_', ' ')} recorded: review the record of ${input.ref.requirementId}.`;
}

/** An implemented control that still leaves a gap maps only in part (extend it) or has no current evidence. */
function controlVerb(state: RequirementCoverage | undefined): string {
  if (!state?.applicable) return 'Reconsider the exclusion of, and implement,';
  if (state.orgStatus === 'in_progress') return 'Finish implementing';
  if (state.orgStatus === 'implemented')
    return state.evidenceExpired ? 'Renew the expired evidence of' : 'Extend the implementation of';
  return 'Implement';
}

/** A reminder for a control not implemented yet whose evidence has all expired (the verb says it otherwise). */
function renewNote(state: RequirementCoverage | undefined): string {
  return state?.evidenceExpired && state.orgStatus !== 'implemented' ? ' (renew its expired evidence)' : '';
}

function baseRecommendation(input: RecommendationInput, own: RequirementCoverage, leverage: string): string {
  const { library, ref, requirement } = input;
  const name = quoted(library, ref.frameworkId, ref.requirementId);
  const evidence = `attach evidence to ${ref.requirementId}: ${evidenceFor(requirement)}, or an attestation from the AI system's sidecar`;
  if (own.orgStatus === 'implemented') {
    return `Renew the expired evidence on ${name}: ${evidenceFor(requirement)}.${leverage}`;
  }
  const renew = own.evidenceExpired ? ' and renew its expired evidence' : '';
  const verb = own.orgStatus === 'in_progress' ? 'Finish implementing' : 'Implement';
  return `${verb} ${name}${renew}, then ${evidence}.${leverage}${dutiesOf(requirement)}`;
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '');
}

/** The framework of the base family (its controls, then its clauses) that holds a mapped set's member. */
function memberFramework(input: RecommendationInput, id: string): string {
  const family = baseFamily(input.library, input.coverage.baseFrameworkId);
  return family.find((frameworkId) => input.library.requirement(frameworkId, id)) ?? family[0];
}

/** `A.1 "Title", A.2 "Title" and A.3 "Title"`, flagging controls whose evidence has expired. */
function controlList(input: RecommendationInput, controlIds: readonly string[]): string {
  return listed(
    controlIds.map((id) => {
      const frameworkId = memberFramework(input, id);
      const clause = frameworkId === input.coverage.baseFrameworkId ? '' : 'clause ';
      return `${clause}${quoted(input.library, frameworkId, id)}${renewNote(input.coverage.get(frameworkId, id))}`;
    }),
  );
}

function excludedRecommendation(input: RecommendationInput, joint: JointCoverage): string {
  const { library, coverage, ref, requirement } = input;
  const name = quoted(library, ref.frameworkId, ref.requirementId);
  const count = joint.excluded.length;
  return `Every ${coverage.baseFrameworkId} control mapped to ${name} is marked not applicable (${controlList(input, joint.excluded)}): record why ${ref.requirementId} does not apply to you either, or reconsider ${count > 1 ? 'those exclusions' : 'that exclusion'} and implement ${count > 1 ? 'them' : 'it'}; otherwise meet it with a dedicated procedure and record ${evidenceFor(requirement)} as evidence.${dutiesOf(requirement)}`;
}

/**
 * Names every mapped control still to implement or finish: together with the rest they cover it, or, when the
 * set can give partial at most (graph.ts), they are what overlaps it and the rest needs a procedure of its own.
 */
function jointRecommendation(input: RecommendationInput, joint: JointCoverage): string {
  const { library, coverage, ref, requirement } = input;
  const base = coverage.baseFrameworkId;
  const byVerb = new Map<string, string[]>();
  for (const controlId of joint.remaining) {
    const verb = controlVerb(coverage.get(memberFramework(input, controlId), controlId));
    byVerb.set(verb, [...(byVerb.get(verb) ?? []), controlId]);
  }
  const actions = [...byVerb].map(
    ([verb, ids], index) => `${index === 0 ? verb : verb.toLowerCase()} ${base} ${controlList(input, ids)}`,
  );
  const done = joint.controls.filter((id) => !joint.remaining.includes(id));
  const name = quoted(library, ref.frameworkId, ref.requirementId);
  const together = joint.canCover
    ? 'which cover it together once all are implemented'
    : 'each of which overlaps it only in part, so also document how the rest of it is met';
  const set =
    joint.controls.length === 1
      ? `it is the ${base} control the crosswalk maps to ${name}, which it covers once implemented`
      : `${done.length > 0 ? `with ${listed(done)} (implemented) ` : ''}they are the ${joint.controls.length} ${base} controls the crosswalk maps to ${name}, ${together}`;
  const notes = [
    joint.excluded.length > 0
      ? ` ${listed(joint.excluded)} ${joint.excluded.length > 1 ? 'are' : 'is'} also mapped but excluded as not applicable.`
      : '',
    joint.inferred
      ? ' The mapping is an analyst’s inference, not a source’s: check it against the text.'
      : '',
  ].join('');
  return `${actions.join(' and ')}: ${set}.${notes} Evidence that closes it: ${evidenceFor(requirement)}, or an attestation, on ${listed(joint.remaining)}.${dutiesOf(requirement)}`;
}

function otherRecommendation(
  input: RecommendationInput,
  candidates: ReachingControl[],
  joint: JointCoverage | undefined,
): string {
  const { library, coverage, ref, requirement } = input;
  const base = coverage.baseFrameworkId;
  const duties = dutiesOf(requirement);
  const full = candidates.filter((candidate) => candidate.credit === 'full');
  // A set of several controls names them all; one control that overlaps only in part reads as its path.
  if (
    full.length === 0 &&
    joint &&
    joint.remaining.length > 0 &&
    (joint.canCover || joint.controls.length > 1)
  ) {
    return jointRecommendation(input, joint);
  }
  if (candidates.length === 0) {
    return `No ${base} control maps to ${quoted(library, ref.frameworkId, ref.requirementId)}; assign an owner, meet it with a dedicated procedure and record ${evidenceFor(requirement)} as evidence.${duties} ${howToRecord(input)}`;
  }
  const chosen = (full.length > 0 ? full : candidates).slice(0, 2);
  const actions = chosen.map((candidate, index) => {
    const state = coverage.get(base, candidate.controlId);
    const verb = controlVerb(state);
    return `${index === 0 ? verb : verb.toLowerCase()} ${base} ${quoted(library, base, candidate.controlId)}${renewNote(state)}`;
  });
  const via = chosen[0].path.map(describeHop);
  const scope =
    full.length > 0
      ? `it maps fully to this requirement (${via.join(', ')})`
      : `the crosswalk links it only in part (${via.join(', ')}), so also document how the rest is met`;
  const evidenceControls = chosen.map((candidate) => candidate.controlId).join(' and ');
  return `${actions.join(' and ')}: ${scope}. Evidence that closes it: ${evidenceFor(requirement)}, or an attestation, on ${evidenceControls}.${duties}`;
}

/** Gaps with the factors behind each priority (the route returns `computeGaps`). */
export function computeGapDetails(
  library: FrameworkLibrary,
  coverage: CoverageResult,
  frameworkId: string,
  context: GapContext = {},
): GapDetail[] {
  const framework = library.framework(frameworkId);
  if (!framework) throw new UnknownFrameworkError(frameworkId);
  const graph = crosswalkGraph(library, coverage.options);
  const details: (GapDetail & { order: number })[] = [];
  framework.requirements.forEach((requirement, order) => {
    const state = coverage.get(frameworkId, requirement.id);
    // An implemented control whose evidence has all expired is partial (graph.ts), so it is a gap too.
    if (!state?.applicable || state.status === 'covered') return;
    // Penalties, entry into force and transitional dates are no duty to meet.
    if (requirement.bindsNoOne) return;
    const riskLevel = concernedRiskLevel(requirement, context.aiSystemRiskLevels);
    const node = graph.nodeOf(state)!;
    const linked = [...new Set(graph.neighbours(node).map((neighbour) => neighbour.node))].map(
      (n) => graph.refs[n],
    );
    const obligation: Obligation = isContext(requirement)
      ? 'context'
      : requirement.legal
        ? 'legal'
        : linked.some((ref) => library.requirement(ref.frameworkId, ref.requirementId)?.legal)
          ? 'supports-legal'
          : 'voluntary';
    const factors = {
      obligation,
      riskLevel,
      riskPoints: riskPoints(requirement, riskLevel),
      linkedFrameworks: new Set(linked.map((ref) => ref.frameworkId)).size,
      linkedRequirements: linked.length,
    };
    const direct = state.assessment === 'direct';
    const nothingDone = direct ? state.orgStatus === 'not_started' : state.status === 'uncovered';
    const score = gapScore({ ...factors, risk: factors.riskPoints, nothingDone });
    const input = { library, coverage, ref: state, requirement, orgId: context.orgId };
    let recommendation: string;
    if (direct) {
      const reached = graph.reachFrom(node);
      const names = [
        ...new Set(
          reached.map((reach) =>
            shortFrameworkName(library.framework(graph.refs[reach.node].frameworkId)?.name ?? ''),
          ),
        ),
      ];
      const examples = reached.slice(0, 3).map((reach) => graph.refs[reach.node].requirementId);
      const leverage =
        reached.length > 0
          ? ` It also counts toward ${reached.length} requirement(s) of ${names.join(', ')} (e.g. ${examples.join(', ')}).`
          : '';
      recommendation = `${baseRecommendation(input, state, leverage)}${disagreement(input, state)}`;
    } else if (uncoveredByExclusion(state)) {
      recommendation = excludedRecommendation(input, state.joint!);
    } else {
      recommendation = otherRecommendation(
        input,
        reachingControls(library, state, { ...coverage.options, baseFrameworkId: coverage.baseFrameworkId }),
        state.joint,
      );
    }
    const otherStatus = uncoveredByExclusion(state) ? 'excluded' : (state.status as 'uncovered' | 'partial');
    details.push({
      controlId: requirement.id,
      priority: priorityFor(score),
      assessment: state.assessment,
      status: direct ? state.orgStatus! : otherStatus,
      recommendation,
      factors: { ...factors, score },
      order,
    });
  });
  details.sort(
    (a, b) =>
      PRIORITY_ORDER[a.priority] - PRIORITY_ORDER[b.priority] ||
      b.factors.score - a.factors.score ||
      a.order - b.order,
  );
  return details.map(({ order: _order, ...detail }) => detail);
}

/**
 * `{frameworkId, gaps, summary}` exactly as the API returns it; summary counts equal the list. A gap has
 * the spec's four members, then `assessment` only with `includeAssessment`.
 */
export function computeGaps(
  library: FrameworkLibrary,
  coverage: CoverageResult,
  frameworkId: string,
  context: GapContext = {},
): GapReport {
  const details = computeGapDetails(library, coverage, frameworkId, context);
  const summary: Record<GapPriority, number> = { critical: 0, important: 0, minor: 0 };
  const gaps = details.map(({ controlId, priority, assessment, status, recommendation }) => {
    summary[priority] += 1;
    return context.includeAssessment
      ? { controlId, priority, status, recommendation, assessment }
      : { controlId, priority, status, recommendation };
  });
  return { frameworkId, gaps, summary };
}
