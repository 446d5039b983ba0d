/**
 * A PostgreSQL `text[]` literal of the values, to bind as one parameter and cast with `?::text[]`: bound arrays
 * would be spread into a list of parameters. Quotes and backslashes are escaped; null stays null.
 */
export function textArray(values: readonly string[]): string;
export function textArray(values: readonly string[] | null): string | null;
export function textArray(values: readonly string[] | null): string | null {
  return values === null
    ? null
    : `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
