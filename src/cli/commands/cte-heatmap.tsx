/** The pairwise coverage matrix: coloured cells on a terminal, an aligned plain-text grid in pipes. */
import { Box, render, Text } from 'ink';
import { interactive } from '../output.js';

export interface PairwiseCell {
  from: string;
  to: string;
  coverage: number;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function cellColor(value: number): string {
  if (value >= 0.5) return 'green';
  if (value >= 0.25) return 'greenBright';
  if (value >= 0.1) return 'yellow';
  return value > 0 ? 'red' : 'gray';
}

function matrix(frameworkIds: readonly string[], cells: readonly PairwiseCell[]) {
  const value = new Map(cells.map((cell) => [`${cell.from}\u001f${cell.to}`, cell.coverage]));
  return frameworkIds.map((from) =>
    frameworkIds.map((to) => (from === to ? undefined : (value.get(`${from}\u001f${to}`) ?? 0))),
  );
}

const CORNER = 'from \\ to';

function Heatmap({
  ids,
  rows,
  width,
}: {
  ids: readonly string[];
  rows: (number | undefined)[][];
  width: number;
}) {
  const label = Math.max(CORNER.length, ...ids.map((id) => id.length));
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {[CORNER.padEnd(label), ...ids.map((id) => id.slice(0, width).padStart(width))].join(' ')}
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

/** Rows: the framework implemented in full; columns: the framework it covers through the crosswalk. */
export function printHeatmap(frameworkIds: readonly string[], cells: readonly PairwiseCell[]): void {
  const rows = matrix(frameworkIds, cells);
  const width = Math.max(7, ...frameworkIds.map((id) => Math.min(id.length, 14)));
  if (interactive(process.stdout)) {
    const instance = render(<Heatmap ids={frameworkIds} rows={rows} width={width} />, {
      patchConsole: false,
    });
    instance.unmount();
    return;
  }
  const label = Math.max(CORNER.length, ...frameworkIds.map((id) => id.length));
  const lines = [
    [CORNER.padEnd(label), ...frameworkIds.map((id) => id.slice(0, width).padStart(width))].join(' '),
    ...rows.map((row, index) =>
      [
        frameworkIds[index].padEnd(label),
        ...row.map((value) => (value === undefined ? '-' : percent(value)).padStart(width)),
      ].join(' '),
    ),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
