/**
 * What the assessment commands share: the org's framework routes and how one requirement entry reads.
 * Requirement ids keep their official notation (`Art. 26(6)`, `GOVERN 1.1`); each path segment is
 * percent-encoded here, once, so callers pass ids exactly as a person types them.
 */
import type { Static } from 'typebox';
import type { RequirementItemSchema } from '../../../features/requirements/requirements.schemas.js';
import { describe, print } from '../output.js';

export type RequirementItem = Static<typeof RequirementItemSchema>;

/** `/orgs/{orgId}/frameworks/{frameworkId}`, then a fixed suffix such as `/compliance`. */
export const frameworkPath = (org: string, frameworkId: string, suffix = '') =>
  `/orgs/${encodeURIComponent(org)}/frameworks/${encodeURIComponent(frameworkId)}${suffix}`;

/** `/orgs/{orgId}/frameworks/{frameworkId}/requirements/{requirementId}`, then a fixed suffix. */
export const requirementPath = (org: string, frameworkId: string, requirementId: string, suffix = '') =>
  `${frameworkPath(org, frameworkId)}/requirements/${encodeURIComponent(requirementId)}${suffix}`;

/** The inferred status, and whether a direct record overrides it with another one. */
function inferredText(entry: RequirementItem): string {
  const { status, coverage } = entry.inferred;
  const differs = entry.assessment === 'direct' && status !== entry.status;
  return `${status} (${coverage})${differs ? ', differs from the direct record' : ''}`;
}

/** One requirement: the org's record, then the crosswalk reasoning and the latest evidence. */
export function showRequirement(json: boolean, entry: RequirementItem): Promise<void> {
  const reasons = (entry.inferred.justifications ?? []).map(
    (why) =>
      `  ${why.frameworkId} ${why.controlId} (${why.controlStatus}, ${why.credit}): ${why.path
        .map((hop) => hop.text)
        .join(' → ')}`,
  );
  const evidence = entry.evidence.map(
    (item) =>
      `  ${item.createdAt.slice(0, 10)}  ${item.type}  ${item.title}${item.expired ? ' (expired)' : ''}`,
  );
  return print(
    { json },
    {
      data: entry,
      text: [
        describe({
          requirement: `${entry.frameworkId} ${entry.requirementId}  ${entry.title}`,
          domain: entry.domain,
          status: entry.status,
          assessment: entry.assessment,
          inferred: inferredText(entry),
          applicable: entry.applicable,
          justification: entry.justification,
          reviewer: entry.reviewer,
          owner: entry.owner,
          note: entry.note,
          updated: entry.updatedAt,
          evidence: `${entry.evidenceCount}${entry.evidenceExpired ? ' (all expired)' : ''}`,
        }),
        `inferred from:${reasons.length ? `\n${reasons.join('\n')}` : ' nothing (no direct record reaches it)'}`,
        ...(evidence.length ? [`latest evidence:\n${evidence.join('\n')}`] : []),
      ].join('\n'),
    },
  );
}
