/** ISO 8601 durations (`P6M`, `PT72H`, `P1Y2M10DT2H30M`, `P8W`) parsed for comparison and wording. */
const PATTERN = /^P(?!$)(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?=\d)(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;
export function parseDuration(text) {
    const match = PATTERN.exec(text.trim().toUpperCase());
    if (!match)
        return undefined;
    const [years, months, weeks, days, hours, minutes, seconds] = match
        .slice(1)
        .map((part) => Number(part ?? 0));
    return { years, months, weeks, days, hours, minutes, seconds };
}
export function isDuration(value) {
    return typeof value === 'string' && parseDuration(value) !== undefined;
}
/**
 * Length in hours for ordering. Calendar units use mean lengths (a year is 365.25 days, a month 1/12 of
 * that), which orders `P1M` against `P30D` or `P4W` sensibly though not to the day.
 */
export function durationHours(text) {
    const d = parseDuration(text);
    if (!d)
        return undefined;
    const day = 24;
    return (d.years * 365.25 * day +
        d.months * (365.25 / 12) * day +
        d.weeks * 7 * day +
        d.days * day +
        d.hours +
        d.minutes / 60 +
        d.seconds / 3600);
}
/** Negative when `a` is shorter than `b`; undefined when either is not a duration. */
export function compareDurations(a, b) {
    const left = durationHours(a);
    const right = durationHours(b);
    if (left === undefined || right === undefined)
        return undefined;
    return left - right;
}
const UNITS = [
    ['years', 'year'],
    ['months', 'month'],
    ['weeks', 'week'],
    ['days', 'day'],
    ['hours', 'hour'],
    ['minutes', 'minute'],
    ['seconds', 'second'],
];
/** `PT72H` → "72 hours", `P1Y6M` → "1 year 6 months"; unparseable text is returned as is. */
export function humanDuration(text) {
    const d = parseDuration(text);
    if (!d)
        return text;
    const parts = UNITS.filter(([unit]) => d[unit] > 0).map(([unit, word]) => `${d[unit]} ${word}${d[unit] === 1 ? '' : 's'}`);
    return parts.length > 0 ? parts.join(' ') : '0 days';
}
//# sourceMappingURL=durations.js.map