import { ApiError, ConnectionError } from './errors.js';

/** How the clients show numbers and failures, so a score reads the same in the CLI, MCP and the console. */

interface NumberFormat {
  /** Decimals to show. */
  digits?: number;
  /** What a missing value reads as (`n/a` in text, `—` in the console). */
  missing?: string;
}

/** A fraction (coverage, 0–1) as a percentage: 0.875 → `87.5%`. */
export function percent(
  fraction: number | null | undefined,
  { digits = 1, missing = 'n/a' }: NumberFormat = {},
) {
  return fraction === null || fraction === undefined ? missing : `${(fraction * 100).toFixed(digits)}%`;
}

/** A score, which the API already gives in percent (0–100): as given, or fixed to `digits` decimals. */
export function score(value: number | null | undefined, { digits, missing = 'n/a' }: NumberFormat = {}) {
  if (value === null || value === undefined) return missing;
  return `${digits === undefined ? value : value.toFixed(digits)}%`;
}

/** One line for a failed call: the API's message, status and code, and its details when there are any. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const details = Object.keys(error.details).length ? ` ${JSON.stringify(error.details)}` : '';
    return `${error.message} (${error.status} ${error.code})${details}`;
  }
  if (error instanceof ConnectionError) return error.message;
  return `Unexpected error: ${(error as Error).message}`;
}
