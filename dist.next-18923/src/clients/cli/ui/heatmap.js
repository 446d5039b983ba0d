import { jsx as _jsx, jsxs as _jsxs } from "react/jsx-runtime";
import { Box, Text } from 'ink';
import { percent } from '../../api-client/format.js';
function cellColor(value) {
    if (value >= 0.5)
        return 'green';
    if (value >= 0.25)
        return 'greenBright';
    if (value >= 0.1)
        return 'yellow';
    return value > 0 ? 'red' : 'gray';
}
/** The coloured pairwise coverage grid. */
export function Heatmap({ corner, ids, rows, width, }) {
    const label = Math.max(corner.length, ...ids.map((id) => id.length));
    return (_jsxs(Box, { flexDirection: "column", children: [_jsx(Text, { bold: true, color: "cyan", children: [corner.padEnd(label), ...ids.map((id) => id.slice(0, width).padStart(width))].join(' ') }), rows.map((row, index) => (_jsxs(Text, { children: [_jsx(Text, { bold: true, children: ids[index].padEnd(label) }), row.map((value, column) => (_jsxs(Text, { children: [' ', value === undefined ? (_jsx(Text, { dimColor: true, children: '—'.padStart(width) })) : (_jsx(Text, { color: "black", backgroundColor: cellColor(value), children: percent(value).padStart(width) }))] }, ids[column])))] }, ids[index])))] }));
}
//# sourceMappingURL=heatmap.js.map