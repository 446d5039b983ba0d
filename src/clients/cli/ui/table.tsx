import { Box, Text } from 'ink';
import { cellText, fitCell, type TableData, widths } from './plain-table.js';

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
