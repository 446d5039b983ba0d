import { ISO_42001, REQUIREMENT_STATUSES, type RequirementStatus } from '../../shared/vocabulary.js';
import { type ApiClient, ApiError } from '../api-client/client.js';
import {
  aiSystemPath,
  attestationPath,
  compliancePath,
  controlPath,
  ctePath,
  epochPath,
  frameworkPath,
  impactAssessmentPath,
  requirementPath,
  riskPath,
  snapshotPath,
} from '../api-client/paths.js';
import { levelAbove, ratedText } from '../api-client/risk-text.js';
import type {
  AiSystemList,
  AttestationList,
  Compliance,
  Epoch,
  GapReport,
  ImpactAssessment,
  ImpactAssessmentPage,
  OrgControlList,
  OrgFrameworkList,
  RequirementList,
  Risk,
  RiskList,
  Snapshot,
  SnapshotList,
  SnapshotVerification,
} from '../api-client/types.js';
import type { Policy } from './policy.schema.js';

/**
 * The gate's rules, evaluated over the daemon's HTTP API with the caller's key (read scope is enough).
 * Each rule yields one result; a rule that names something the daemon does not know (a framework, a
 * snapshot) is a mistake in the policy, reported as a usage error rather than a failed rule.
 */

export const RULE_IDS = [
  'min-score',
  'min-direct-score',
  'max-critical-gaps',
  'max-important-gaps',
  'no-expired-evidence',
  'no-regression',
  'ai-systems-attested',
  'signed-epoch',
  'max-unaccepted-residual',
  'no-lapsed-acceptances',
  'no-overdue-treatments',
  'no-due-impact-assessments',
] as const;
export type RuleId = (typeof RULE_IDS)[number];

export const RULE_DESCRIPTIONS: Record<RuleId, string> = {
  'min-score': 'A framework’s score is at least the minimum',
  'min-direct-score': 'A framework’s score counting direct records only is at least the minimum',
  'max-critical-gaps': 'A framework has at most this many critical gaps',
  'max-important-gaps': 'A framework has at most this many important gaps',
  'no-expired-evidence': 'No implemented requirement whose evidence has all expired',
  'no-regression': 'No requirement went backwards and the score did not drop since a snapshot',
  'ai-systems-attested': 'Every AI system of the given risk levels has a recent attestation',
  'signed-epoch': 'An attestation epoch is wholly signed (L2) and has the expected Merkle root',
  'max-unaccepted-residual': 'Every AI risk whose residual level is above the maximum has a valid acceptance',
  'no-lapsed-acceptances': 'No AI risk acceptance is stale (the risk changed since) or expired',
  'no-overdue-treatments': 'No AI risk treatment is past its due date unfinished',
  'no-due-impact-assessments': 'No approved AI system impact assessment is due for re-assessment',
};

export interface RuleResult {
  rule: RuleId;
  /** One line: what is checked, e.g. "iso-42001 score ≥ 80". */
  name: string;
  passed: boolean;
  expected: string;
  actual: string;
  /** What failed, one item a line (requirements that regressed, systems without attestations, …). */
  failures: string[];
  /** Where the rule sits in the policy (keys from the root), for reports that point into the file. */
  path: string[];
}

export class PolicyReferenceError extends Error {}

const rank = (status: RequirementStatus | null) =>
  status === null ? -1 : REQUIREMENT_STATUSES.indexOf(status);
const pct = (score: number | null) => (score === null ? 'n/a' : `${score}`);

/** Framework ids the policy names that the daemon does not know. */
function unknownFrameworks(policy: Policy, known: Set<string>): string[] {
  const named = [...Object.keys(policy.frameworks ?? {}), ...(policy.noExpiredEvidence?.frameworks ?? [])];
  return [...new Set(named.filter((id) => !known.has(id)))];
}

export async function evaluatePolicy(
  client: ApiClient,
  orgId: string,
  policy: Policy,
): Promise<RuleResult[]> {
  const frameworks = await client.get<OrgFrameworkList>(frameworkPath(orgId));
  const byId = new Map(frameworks.frameworks.map((f) => [f.frameworkId, f]));
  const unknown = unknownFrameworks(policy, new Set(byId.keys()));
  if (unknown.length) {
    throw new PolicyReferenceError(
      `the policy names unknown framework${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (known: ${[...byId.keys()].join(', ')})`,
    );
  }
  const results: RuleResult[] = [];
  for (const [frameworkId, rules] of Object.entries(policy.frameworks ?? {})) {
    const scores = byId.get(frameworkId);
    if (!scores) continue;
    const path = ['frameworks', frameworkId];
    if (rules.minScore !== undefined) {
      results.push({
        rule: 'min-score',
        name: `${frameworkId} score ≥ ${rules.minScore}`,
        passed: scores.score !== null && scores.score >= rules.minScore,
        expected: `≥ ${rules.minScore}`,
        actual: pct(scores.score),
        failures: [],
        path: [...path, 'minScore'],
      });
    }
    if (rules.minDirectScore !== undefined) {
      results.push({
        rule: 'min-direct-score',
        name: `${frameworkId} direct score ≥ ${rules.minDirectScore}`,
        passed: scores.directScore !== null && scores.directScore >= rules.minDirectScore,
        expected: `≥ ${rules.minDirectScore}`,
        actual: pct(scores.directScore),
        failures: [],
        path: [...path, 'minDirectScore'],
      });
    }
    if (rules.maxCriticalGaps === undefined && rules.maxImportantGaps === undefined) continue;
    const report = await client.get<GapReport>(ctePath('gaps', frameworkId), {
      orgId,
    });
    for (const [priority, max, key] of [
      ['critical', rules.maxCriticalGaps, 'maxCriticalGaps'],
      ['important', rules.maxImportantGaps, 'maxImportantGaps'],
    ] as const) {
      if (max === undefined) continue;
      const gaps = report.gaps.filter((gap) => gap.priority === priority);
      results.push({
        rule: priority === 'critical' ? 'max-critical-gaps' : 'max-important-gaps',
        name: `${frameworkId} ${priority} gaps ≤ ${max}`,
        passed: gaps.length <= max,
        expected: `≤ ${max}`,
        actual: String(gaps.length),
        failures:
          gaps.length > max
            ? gaps.map((gap) => `${gap.controlId} (${gap.status}): ${gap.recommendation}`)
            : [],
        path: [...path, key],
      });
    }
  }
  if (policy.noExpiredEvidence) {
    const ids = policy.noExpiredEvidence.frameworks ?? [...byId.keys()];
    const expired: string[] = [];
    for (const frameworkId of ids) {
      const list = await client.get<RequirementList>(requirementPath(orgId, frameworkId));
      for (const r of list.requirements) {
        if (r.status === 'implemented' && r.applicable && r.evidenceExpired) {
          expired.push(
            `${frameworkId} ${r.requirementId}: implemented, all ${r.evidenceCount} evidence item(s) expired`,
          );
        }
      }
    }
    results.push({
      rule: 'no-expired-evidence',
      name: `no implemented requirement with only expired evidence (${policy.noExpiredEvidence.frameworks ? ids.join(', ') : 'every framework'})`,
      passed: expired.length === 0,
      expected: '0',
      actual: String(expired.length),
      failures: expired,
      path: ['noExpiredEvidence'],
    });
  }
  if (policy.regression) results.push(...(await regression(client, orgId, policy.regression)));
  if (policy.aiSystems) results.push(await aiSystemsAttested(client, orgId, policy.aiSystems));
  for (const epoch of policy.epochs ?? []) results.push(await signedEpoch(client, orgId, epoch));
  if (policy.risks) results.push(...(await riskRules(client, orgId, policy.risks)));
  if (policy.impactAssessments?.noneDue) results.push(await noDueAssessments(client, orgId));
  return results;
}

async function findSnapshot(client: ApiClient, orgId: string, name: string): Promise<string> {
  for (let offset = 0; ; offset += 200) {
    const page = await client.get<SnapshotList>(snapshotPath(orgId), { limit: 200, offset });
    const found = page.snapshots.find((s) => s.label === name);
    if (found) return found.snapshotId;
    if (offset + page.snapshots.length >= page.total || page.snapshots.length === 0) break;
  }
  try {
    await client.get(snapshotPath(orgId, name));
    return name;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      throw new PolicyReferenceError(`no snapshot labelled "${name}" (nor with that id) in ${orgId}`);
    }
    throw error;
  }
}

async function regression(
  client: ApiClient,
  orgId: string,
  rule: NonNullable<Policy['regression']>,
): Promise<RuleResult[]> {
  const snapshotId = await findSnapshot(client, orgId, rule.snapshot);
  const [snapshot, verification, current] = await Promise.all([
    client.get<Snapshot>(snapshotPath(orgId, snapshotId)),
    client.get<SnapshotVerification>(snapshotPath(orgId, snapshotId, '/verify')),
    client.get<Compliance>(compliancePath(orgId)),
  ]);
  const label = `"${snapshot.label}"`;
  const results: RuleResult[] = [];
  const maxDrop = rule.maxScoreDrop ?? 0;
  const drop =
    snapshot.score !== null && current.score !== null
      ? Math.round((snapshot.score - current.score) * 10) / 10
      : null;
  const integrity = verification.valid
    ? []
    : [`snapshot ${label} no longer matches its content hash: it cannot serve as a baseline`];
  results.push({
    rule: 'no-regression',
    name: `${ISO_42001} score dropped at most ${maxDrop} points since snapshot ${label}`,
    passed: verification.valid && (drop === null || drop <= maxDrop),
    expected: `≥ ${snapshot.score === null ? 'n/a' : Math.round((snapshot.score - maxDrop) * 10) / 10} (snapshot: ${pct(snapshot.score)})`,
    actual: pct(current.score),
    failures: integrity,
    path: ['regression', 'maxScoreDrop'],
  });
  if (rule.controls === false) return results;
  const backwards: string[] = [...integrity];
  const controls = await client.get<OrgControlList>(controlPath(orgId));
  const now = new Map(controls.controls.map((c) => [c.controlId, c]));
  for (const before of snapshot.controls) {
    const after = now.get(before.controlId);
    if (before.applicable && after?.applicable && rank(after.status) < rank(before.status)) {
      backwards.push(`${ISO_42001} ${before.controlId}: ${before.status} → ${after.status}`);
    }
  }
  for (const framework of snapshot.frameworks ?? []) {
    const recorded = framework.records.filter((r) => r.status !== null && r.applicable !== false);
    if (!recorded.length) continue;
    let list: RequirementList;
    try {
      list = await client.get(requirementPath(orgId, framework.frameworkId));
    } catch (error) {
      // A framework imported then removed since the snapshot: each of its records went away.
      if (error instanceof ApiError && error.status === 404) {
        backwards.push(`${framework.frameworkId}: the framework no longer exists`);
        continue;
      }
      throw error;
    }
    const reqs = new Map(list.requirements.map((r) => [r.requirementId, r]));
    for (const before of recorded) {
      const after = reqs.get(before.requirementId);
      if (after?.applicable && rank(after.status) < rank(before.status)) {
        backwards.push(
          `${framework.frameworkId} ${before.requirementId}: ${before.status} → ${after.status} (${after.assessment})`,
        );
      }
    }
  }
  results.push({
    rule: 'no-regression',
    name: `no requirement went backwards since snapshot ${label}`,
    passed: backwards.length === 0,
    expected: '0',
    actual: String(backwards.length - integrity.length),
    failures: backwards,
    path: ['regression', 'snapshot'],
  });
  return results;
}

/** Attestations newest first since `from`, page by page, until every wanted system has been seen. */
async function attestedSystems(
  client: ApiClient,
  orgId: string,
  from: string,
  level: string | undefined,
  wanted: Set<string>,
): Promise<Set<string>> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await client.get<AttestationList>(attestationPath(orgId), {
      from,
      level,
      limit: 1000,
      cursor,
    });
    for (const a of page.attestations) if (a.systemId && wanted.has(a.systemId)) seen.add(a.systemId);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && seen.size < wanted.size);
  return seen;
}

async function aiSystemsAttested(
  client: ApiClient,
  orgId: string,
  rule: NonNullable<Policy['aiSystems']>,
): Promise<RuleResult> {
  const levels = rule.riskLevels ?? ['high'];
  const lists = await Promise.all(
    levels.map((riskLevel) => client.get<AiSystemList>(aiSystemPath(orgId), { riskLevel })),
  );
  const systems = lists.flatMap((l) => l.systems).filter((s) => s.lifecycleStage !== 'retired');
  const from = new Date(Date.now() - rule.attestedWithinDays * 86_400_000).toISOString();
  const seen = systems.length
    ? await attestedSystems(client, orgId, from, rule.level, new Set(systems.map((s) => s.systemId)))
    : new Set<string>();
  const missing = systems.filter((s) => !seen.has(s.systemId));
  return {
    rule: 'ai-systems-attested',
    name: `every ${levels.join('/')}-risk AI system attested${rule.level ? ` at ${rule.level}` : ''} in the last ${rule.attestedWithinDays} days`,
    passed: missing.length === 0,
    expected: `${systems.length} of ${systems.length}`,
    actual: `${systems.length - missing.length} of ${systems.length}`,
    failures: missing.map((s) => `${s.name} (${s.systemId}, ${s.riskLevel}): no attestation since ${from}`),
    path: ['aiSystems'],
  };
}

async function signedEpoch(
  client: ApiClient,
  orgId: string,
  rule: NonNullable<Policy['epochs']>[number],
): Promise<RuleResult> {
  const expected = rule.merkleRoot.toLowerCase();
  const base = {
    rule: 'signed-epoch' as const,
    name: `epoch ${rule.epochId} signed (L2) with Merkle root ${expected.slice(0, 12)}…`,
    expected,
    path: ['epochs', rule.epochId],
  };
  let epoch: Epoch;
  try {
    epoch = await client.get(epochPath(orgId, rule.epochId));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return {
        ...base,
        passed: false,
        actual: 'no attestations',
        failures: [`epoch ${rule.epochId} has no attestations`],
      };
    }
    throw error;
  }
  const failures: string[] = [];
  if (epoch.levels.L0 > 0)
    failures.push(`${epoch.levels.L0} of ${epoch.count} attestations are unsigned (L0)`);
  if (epoch.merkleRoot !== expected)
    failures.push(`Merkle root is ${epoch.merkleRoot}, expected ${expected}`);
  return {
    ...base,
    passed: failures.length === 0,
    actual: `${epoch.merkleRoot} (${epoch.levels.L2} L2, ${epoch.levels.L0} L0)`,
    failures,
  };
}

/** The whole risk register, page by page. */
async function allRisks(client: ApiClient, orgId: string): Promise<Risk[]> {
  const risks: Risk[] = [];
  for (;;) {
    const page = await client.get<RiskList>(riskPath(orgId), { limit: 1000, offset: risks.length });
    risks.push(...page.risks);
    if (page.risks.length === 0 || risks.length >= page.total) return risks;
  }
}

const riskLabel = (risk: Risk) => `${risk.riskId} "${risk.title}"`;
const day = (timestamp: string) => timestamp.slice(0, 10);

async function riskRules(
  client: ApiClient,
  orgId: string,
  rule: NonNullable<Policy['risks']>,
): Promise<RuleResult[]> {
  if (!rule.maxUnacceptedResidual && !rule.noLapsedAcceptances && !rule.noOverdueTreatments) return [];
  const risks = await allRisks(client, orgId);
  const results: RuleResult[] = [];
  const max = rule.maxUnacceptedResidual;
  if (max) {
    const unaccepted = risks.filter(
      (risk) => levelAbove(risk.residual.level, max) && risk.acceptance?.state !== 'valid',
    );
    results.push({
      rule: 'max-unaccepted-residual',
      name: `every AI risk with a residual level above ${max} accepted`,
      passed: unaccepted.length === 0,
      expected: '0',
      actual: String(unaccepted.length),
      failures: unaccepted.map(
        (risk) =>
          `${riskLabel(risk)}: residual ${ratedText(risk.residual)}, ${risk.state}, ${risk.acceptance ? `its acceptance is ${risk.acceptance.state}` : 'never accepted'}`,
      ),
      path: ['risks', 'maxUnacceptedResidual'],
    });
  }
  if (rule.noLapsedAcceptances) {
    const lapsed = risks.filter((risk) => risk.acceptance && risk.acceptance.state !== 'valid');
    results.push({
      rule: 'no-lapsed-acceptances',
      name: 'no stale or expired AI risk acceptance',
      passed: lapsed.length === 0,
      expected: '0',
      actual: String(lapsed.length),
      failures: lapsed.map((risk) => {
        const acceptance = risk.acceptance as NonNullable<Risk['acceptance']>;
        const why =
          acceptance.state === 'expired'
            ? `expired ${day(acceptance.expiresAt)}`
            : `stale: the risk changed after ${day(acceptance.acceptedAt)}`;
        return `${riskLabel(risk)}: the acceptance by ${acceptance.acceptedBy.name} is ${why}; accept it again or withdraw it`;
      }),
      path: ['risks', 'noLapsedAcceptances'],
    });
  }
  if (rule.noOverdueTreatments) {
    const overdue = risks.filter((risk) => risk.treatmentOverdue);
    results.push({
      rule: 'no-overdue-treatments',
      name: 'no AI risk treatment overdue',
      passed: overdue.length === 0,
      expected: '0',
      actual: String(overdue.length),
      failures: overdue.map((risk) => {
        const { implemented, total, requirements } = risk.treatmentProgress;
        const open = requirements
          .filter((r) => r.status !== 'implemented')
          .map((r) => `${r.frameworkId} ${r.requirementId}`);
        return `${riskLabel(risk)}: due ${day(risk.treatment?.dueDate ?? '')}, ${implemented} of ${total} requirements implemented (open: ${open.join(', ')})`;
      }),
      path: ['risks', 'noOverdueTreatments'],
    });
  }
  return results;
}

async function noDueAssessments(client: ApiClient, orgId: string): Promise<RuleResult> {
  const due: ImpactAssessment[] = [];
  try {
    for (;;) {
      const page = await client.get<ImpactAssessmentPage>(impactAssessmentPath(orgId), {
        due: true,
        limit: 200,
        offset: due.length,
      });
      due.push(...page.assessments);
      if (page.assessments.length === 0 || due.length >= page.total) break;
    }
  } catch (error) {
    // An unknown route (not a missing resource): a daemon from before impact assessments.
    if (error instanceof ApiError && error.status === 404 && error.code === 'NOT_FOUND') {
      throw new PolicyReferenceError(
        `the daemon at ${client.baseUrl} keeps no impact assessments: leave impactAssessments out of the policy, or upgrade the daemon`,
      );
    }
    throw error;
  }
  const names = due.length
    ? new Map((await client.get<AiSystemList>(aiSystemPath(orgId))).systems.map((s) => [s.systemId, s.name]))
    : new Map<string, string>();
  return {
    rule: 'no-due-impact-assessments',
    name: 'no approved impact assessment due for re-assessment',
    passed: due.length === 0,
    expected: '0',
    actual: String(due.length),
    failures: due.map(
      (a) =>
        `${a.assessmentId} (${a.templateId} v${a.version}) of ${names.get(a.systemId) ?? 'AI system'} (${a.systemId}): ${a.reassessment.reasons.map((r) => r.message).join('; ') || 'due'}`,
    ),
    path: ['impactAssessments', 'noneDue'],
  };
}
