/**
 * Timestamps as rows carry them. The driver hands a `timestamptz` back as PostgreSQL's text
 * (`2026-11-22 10:00:00.123456+00`, fraction and minutes optional), and `json_agg` writes it as
 * `2026-11-22T10:00:00.123456+00:00`; every store turns such a value into ISO 8601 UTC with milliseconds,
 * as `Date#toISOString` writes it, once, where it reads the row.
 */
// PostgreSQL's ISO output of a timestamptz, or its JSON form (`T` between date and time, `+00:00`).
const PG_INSTANT = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)(?:\.(\d+))?([+-]\d\d)(?::?(\d\d))?$/;
/**
 * A timestamptz read from the database as `Date#toISOString` writes it. Parsing it into a Date and back
 * costs more than the rest of a row; an offset other than UTC takes the slow way.
 */
export function toIso(value) {
    if (value instanceof Date)
        return value.toISOString();
    const match = PG_INSTANT.exec(value);
    if (!match)
        return new Date(value).toISOString();
    const [, date, time, fraction = '', hours, minutes = '00'] = match;
    const millis = fraction.padEnd(3, '0').slice(0, 3);
    if (hours === '+00' && minutes === '00')
        return `${date}T${time}.${millis}Z`;
    return new Date(`${date}T${time}.${millis}${hours}:${minutes}`).toISOString();
}
/** `toIso` of a nullable column. */
export const toIsoOrNull = (value) => (value === null ? null : toIso(value));
//# sourceMappingURL=instant.js.map