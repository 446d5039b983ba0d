const BARS = '▁▂▃▄▅▆▇█';
/**
 * A one-line chart of scores on a fixed 0–100 scale (so two charts compare at a glance); a gap where a
 * period has no score.
 */
export function sparkline(values, max = 100) {
    return values
        .map((value) => {
        if (value === null)
            return ' ';
        const level = Math.round((Math.min(Math.max(value, 0), max) / max) * (BARS.length - 1));
        return BARS[level];
    })
        .join('');
}
//# sourceMappingURL=sparkline.js.map