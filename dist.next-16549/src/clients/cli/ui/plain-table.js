export const cellText = (cell) => (cell === null || cell === undefined ? '-' : String(cell));
export function widths({ columns, rows }) {
    return columns.map((column, index) => Math.min(60, Math.max(column.length, ...rows.map((row) => cellText(row[index]).length))));
}
export const fitCell = (text, width) => text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
/** The same table as plain text, for pipes and CI logs. */
export function plainTable(data) {
    const sizes = widths(data);
    const line = (cells) => cells
        .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(sizes[index])))
        .join('  ')
        .trimEnd();
    return [line(data.columns), ...data.rows.map((row) => line(row.map(cellText)))].join('\n');
}
//# sourceMappingURL=plain-table.js.map