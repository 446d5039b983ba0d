import { Box, Text } from 'ink';
import { percent } from '../../api-client/format.js';

function cellColor(value: number): string {
  if (value >= 0.5) return 'green';
  if (value >= 0.25) return 'greenBright';
  if (value >= 0.1) return 'yellow';
  return value > 0 ? 'red' : 'gray';
}

/** The coloured pairwise coverage grid. */
export function Heatmap({
  corner,
  ids,
  rows,
  width,
}: {
  /** The label of the top-left cell. */
  corner: string;
  ids: readonly string[];
  rows: (number | undefined)[][];
  width: number;
}) {
  const label = Math.max(corner.length, ...ids.map((id) => id.length));
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {[corner.padEnd(label), ...ids.map((id) => id.slice(0, width).padStart(width))].join(' ')}
      </Text>
      {rows.map((row, index) => (
        <Text key={ids[index]}>
          <Text bold>{ids[index].padEnd(label)}</Text>
          {row.map((value, column) => (
            <Text key={ids[column]}>
              {' '}
              {value === undefined ? (
                <Text dimColor>{'—'.padStart(width)}</Text>
              ) : (
                <Text color="black" backgroundColor={cellColor(value)}>
                  {percent(value).padStart(width)}
                </Text>
              )}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}
