import { RISK_SCORE_LEVELS, type RiskScoreLevel } from '../../shared/vocabulary.js';
import type { Risk } from './types.js';

/** How the clients word a risk of the register, so the CLI, the MCP server and the gate say the same. */

/** `high (12)`: a level with the score it comes from. */
export const ratedText = (rated: Risk['residual']) => `${rated.level} (${rated.score})`;

/** Whether a level is above another (`high` above `medium`). */
export const levelAbove = (level: RiskScoreLevel, than: RiskScoreLevel) =>
  RISK_SCORE_LEVELS.indexOf(level) > RISK_SCORE_LEVELS.indexOf(than);

/** `valid until 2027-01-31 (Ada Approver)`, `stale since the risk changed`, `expired 2026-01-31`, or `-`. */
export function acceptanceText(acceptance: Risk['acceptance']): string {
  if (!acceptance) return '-';
  const until = acceptance.expiresAt.slice(0, 10);
  if (acceptance.state === 'valid') return `valid until ${until} (${acceptance.acceptedBy.name})`;
  if (acceptance.state === 'expired') return `expired ${until} (${acceptance.acceptedBy.name})`;
  return `stale: the risk changed since ${acceptance.acceptedBy.name} accepted it`;
}

/** `mitigate 1/3`, with `, overdue` once its due date has passed unfinished; `-` without a treatment. */
export function treatmentText(risk: Risk): string {
  if (!risk.treatment) return '-';
  const { implemented, total } = risk.treatmentProgress;
  return `${risk.treatment.option}${total ? ` ${implemented}/${total}` : ''}${risk.treatmentOverdue ? ', overdue' : ''}`;
}

/**
 * What keeps a risk from being `treated`, one sentence each (none when it is): a treatment to choose, the
 * listed requirements not yet implemented, a residual level above what the org accepts, an `accept` option
 * (which only an acceptance settles). A valid acceptance settles the risk as `accepted` without treating it.
 */
export function missingForTreated(risk: Risk, acceptableLevel: RiskScoreLevel): string[] {
  const treatment = risk.treatment;
  if (!treatment) {
    return [
      'No treatment: choose an option (mitigate, avoid, transfer) and list the requirements whose implementation treats the risk.',
    ];
  }
  if (treatment.option === 'accept') {
    return [
      'The treatment option is accept: the risk is retained as it is, so an approver or owner must accept it; it is never treated.',
    ];
  }
  const missing = risk.treatmentProgress.requirements
    .filter((requirement) => requirement.status !== 'implemented')
    .map(
      (requirement) =>
        `${requirement.frameworkId} ${requirement.requirementId} is ${requirement.status}: implement it (its record, or a record the crosswalk carries over).`,
    );
  if (risk.treatmentOverdue && treatment.dueDate) {
    missing.push(`The treatment was due ${treatment.dueDate.slice(0, 10)} and is overdue.`);
  }
  if (levelAbove(risk.residual.level, acceptableLevel)) {
    missing.push(
      `The residual level ${ratedText(risk.residual)} is above the acceptable level (${acceptableLevel}): lower the residual rating once the treatment takes effect, or have an approver accept the risk.`,
    );
  }
  return missing;
}
