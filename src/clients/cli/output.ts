import type { Instance } from 'ink';
import type { FunctionComponent } from 'react';
import { plainTable, type TableData } from './ui/plain-table.js';

export interface OutputOptions {
  json?: boolean;
}

/** Colour, tables and spinners only for a person at a terminal; pipes and CI get plain, stable text. */
export const interactive = (stream: NodeJS.WriteStream) => Boolean(stream.isTTY) && !process.env.CI;

export interface Printable {
  /** What `--json` prints: the API's own response, unchanged. */
  data: unknown;
  table?: TableData;
  text?: string;
}

export async function print(options: OutputOptions, result: Printable): Promise<void> {
  if (options.json) {
    process.stdout.write(`${JSON.stringify(result.data, null, 2)}\n`);
    return;
  }
  if (result.text !== undefined) process.stdout.write(`${result.text}\n`);
  if (!result.table) return;
  if (interactive(process.stdout)) {
    const { Table } = await import('./ui/table.js');
    await renderOnce(Table, { data: result.table });
  } else {
    process.stdout.write(`${plainTable(result.table)}\n`);
  }
}

/**
 * Renders a static component once with ink. Ink and React (with the components built on them) are loaded
 * on first use, so plain output, pipes and the daemon behind `comply serve` never pay for loading them.
 */
export async function renderOnce<P extends object>(component: FunctionComponent<P>, props: P): Promise<void> {
  const [{ render }, { createElement }] = await Promise.all([import('ink'), import('react')]);
  render(createElement(component, props), { patchConsole: false }).unmount();
}

/** A spinner appears only for work slower than this, so quick commands do not flicker. */
const SPINNER_DELAY_MS = 150;
let spinning = false;

/**
 * Shows a spinner on a terminal while `work` runs; silent in pipes and with --json. Nested calls (a
 * command's own progress around the API client's) show the outer label only.
 */
export async function withProgress<T>(
  options: OutputOptions,
  label: string,
  work: () => Promise<T>,
): Promise<T> {
  if (spinning || options.json || !interactive(process.stderr)) return work();
  spinning = true;
  let instance: Instance | undefined;
  let finished = false;
  const show = async () => {
    const [{ render }, { createElement }, { Progress }] = await Promise.all([
      import('ink'),
      import('react'),
      import('./ui/spinner.js'),
    ]);
    if (!finished) {
      instance = render(createElement(Progress, { label }), { stdout: process.stderr, patchConsole: false });
    }
  };
  const timer = setTimeout(() => void show(), SPINNER_DELAY_MS);
  try {
    return await work();
  } finally {
    finished = true;
    clearTimeout(timer);
    instance?.clear();
    instance?.unmount();
    spinning = false;
  }
}

/** Key–value lines for one resource. */
export function describe(entries: Record<string, unknown>): string {
  const width = Math.max(...Object.keys(entries).map((key) => key.length));
  return Object.entries(entries)
    .map(
      ([key, value]) =>
        `${key.padEnd(width)}  ${value === null || value === undefined ? '-' : String(value)}`,
    )
    .join('\n');
}
