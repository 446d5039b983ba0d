import { Box, Text } from 'ink';
import type { RiskScoreLevel } from '../../../shared/vocabulary.js';

const LEVEL_COLOR: Record<RiskScoreLevel, string> = {
  low: 'green',
  medium: 'yellow',
  high: 'redBright',
  critical: 'red',
};

export interface RiskMatrixProps {
  title: string;
  /** Risks per cell: rows likelihood 1–5, columns impact 1–5 (as the API gives them). */
  matrix: number[][];
  /** The level of the score likelihood × impact, from the org's criteria. */
  levelOf: (score: number) => RiskScoreLevel;
  levels: readonly RiskScoreLevel[];
}

const CELL = 4;

/**
 * The 5 × 5 risk matrix as a compact heat map: likelihood 5 at the top, impact 1–5 left to right, each cell
 * coloured by the level its score has and showing how many risks sit there.
 */
export function RiskMatrix({ title, matrix, levelOf, levels }: RiskMatrixProps) {
  const impacts = matrix[0]?.map((_, index) => index + 1) ?? [];
  const rows = matrix.map((row, index) => ({ likelihood: index + 1, row })).reverse();
  return (
    <Box flexDirection="column">
      <Text bold>{title}</Text>
      {rows.map(({ likelihood, row }) => (
        <Text key={likelihood}>
          <Text dimColor>{`${likelihood === rows[0].likelihood ? 'L' : ' '} ${likelihood} `}</Text>
          {row.map((count, column) => (
            <Text
              key={impacts[column]}
              color="black"
              backgroundColor={LEVEL_COLOR[levelOf(likelihood * impacts[column])]}
              bold={count > 0}
            >
              {(count > 0 ? String(count) : '·').padStart(CELL - 1).padEnd(CELL)}
            </Text>
          ))}
        </Text>
      ))}
      <Text dimColor>{`    ${impacts
        .map((impact) =>
          String(impact)
            .padStart(CELL - 1)
            .padEnd(CELL),
        )
        .join('')} impact`}</Text>
      <Text>
        {levels.map((level) => (
          <Text key={level}>
            {' '}
            <Text color={LEVEL_COLOR[level]}>■</Text> {level}
          </Text>
        ))}
      </Text>
    </Box>
  );
}
