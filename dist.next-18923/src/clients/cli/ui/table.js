import { jsx as _jsx, jsxs as _jsxs } from "react/jsx-runtime";
import { Box, Text } from 'ink';
import { cellText, fitCell, widths } from './plain-table.js';
/** A terminal table: bold header, one line per row, long cells cut to fit. */
export function Table({ data }) {
    const sizes = widths(data);
    return (_jsxs(Box, { flexDirection: "column", children: [_jsx(Text, { bold: true, color: "cyan", children: data.columns.map((column, index) => fitCell(column, sizes[index])).join('  ') }), data.rows.map((row, rowIndex) => (_jsx(Text, { children: row.map((cell, index) => fitCell(cellText(cell), sizes[index])).join('  ') }, rowIndex)))] }));
}
//# sourceMappingURL=table.js.map