import { Box, Text } from 'ink';

export type Cell = string | number | boolean | null | undefined;

export interface TableData {
  columns: string[];
  rows: Cell[][];
}

export const cellText = (cell: Cell) => (cell === null || cell === undefined ? '-' : String(cell));

export function widths({ columns, rows }: TableData): number[] {
  return columns.map((column, index) =>
    Math.min(60, Math.max(column.length, ...rows.map((row) => cellText(row[index]).length))),
  );
}

const fitCell = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);

/** A terminal table: bold header, one line per row, long cells cut to fit. */
export function Table({ data }: { data: TableData }) {
  const sizes = widths(data);
  return (
    <Box flexDirection="column">
      <Text bold color="cyan">
        {data.columns.map((column, index) => fitCell(column, sizes[index])).join('  ')}
      </Text>
      {data.rows.map((row, rowIndex) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are static output, never reordered
        <Text key={rowIndex}>
          {row.map((cell, index) => fitCell(cellText(cell), sizes[index])).join('  ')}
        </Text>
      ))}
    </Box>
  );
}

/** The same table as plain text, for pipes and CI logs. */
export function plainTable(data: TableData): string {
  const sizes = widths(data);
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(sizes[index])))
      .join('  ')
      .trimEnd();
  return [line(data.columns), ...data.rows.map((row) => line(row.map(cellText)))].join('\n');
}
