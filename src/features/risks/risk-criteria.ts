import { badRequest } from '../../platform/errors.js';
import { RISK_SCORE_LEVELS, type RiskScoreLevel } from '../../shared/vocabulary.js';

/** A band of scores (likelihood × impact, 1–25) that makes a level. */
export interface LevelBand {
  level: RiskScoreLevel;
  min: number;
  max: number;
}

/** How an org rates its AI risks: likelihood 1–5 × impact 1–5, levels by score, and what it accepts without sign-off. */
export interface RiskCriteria {
  levels: LevelBand[];
  /** Residual risk above this level needs an acceptance signed by an approver or owner. */
  acceptableLevel: RiskScoreLevel;
}

export const SCALE = { min: 1, max: 5 } as const;

export const DEFAULT_CRITERIA: RiskCriteria = {
  levels: [
    { level: 'low', min: 1, max: 4 },
    { level: 'medium', min: 5, max: 9 },
    { level: 'high', min: 10, max: 16 },
    { level: 'critical', min: 20, max: 25 },
  ],
  acceptableLevel: 'medium',
};

/** Every score a likelihood and an impact of 1–5 can make (17–19, 21–24 and others cannot). */
const REACHABLE = [
  ...new Set([1, 2, 3, 4, 5].flatMap((likelihood) => [1, 2, 3, 4, 5].map((impact) => likelihood * impact))),
];

/** The bands run low → critical, each once, ascending without overlap, and every reachable score has a level. */
export function checkLevels(levels: LevelBand[]): void {
  const problem = (message: string) =>
    badRequest(`Risk levels: ${message}`, { fields: [{ field: 'body.levels', message }] });
  if (levels.map((band) => band.level).join() !== RISK_SCORE_LEVELS.join()) {
    throw problem(`give each of ${RISK_SCORE_LEVELS.join(', ')} once, in that order`);
  }
  let previousMax = 0;
  for (const band of levels) {
    if (band.min <= previousMax || band.max < band.min) {
      throw problem(`${band.level} must start after ${previousMax} and end at or after its start`);
    }
    previousMax = band.max;
  }
  const unrated = REACHABLE.filter((score) => !levels.some((band) => score >= band.min && score <= band.max));
  if (unrated.length) throw problem(`scores ${unrated.join(', ')} have no level`);
}

export const scoreOf = (likelihood: number, impact: number) => likelihood * impact;

export function levelOf(criteria: RiskCriteria, score: number): RiskScoreLevel {
  return (criteria.levels.find((band) => score >= band.min && score <= band.max) ?? criteria.levels[3]).level;
}

/** Whether a level is above what the org accepts without a signed acceptance. */
export const aboveAcceptable = (criteria: RiskCriteria, level: RiskScoreLevel) =>
  RISK_SCORE_LEVELS.indexOf(level) > RISK_SCORE_LEVELS.indexOf(criteria.acceptableLevel);
