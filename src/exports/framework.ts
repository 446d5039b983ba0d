import type { ExportControl } from './export.types.js';

/** The framework every export of an organization's controls describes. */
export const EXPORT_FRAMEWORK = {
  id: 'iso-42001',
  name: 'ISO/IEC 42001:2023',
  version: '2023',
  scope: 'Annex A',
} as const;

/** Numeric order of dotted ids, so that `A.10` sorts after `A.9` and `A.6.1.2` before `A.6.2.2`. */
export function compareControlIds(a: string, b: string): number {
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    if (left[i] === undefined) return -1;
    if (right[i] === undefined) return 1;
    const l = Number(left[i]);
    const r = Number(right[i]);
    const order = Number.isNaN(l) || Number.isNaN(r) ? left[i].localeCompare(right[i]) : l - r;
    if (order !== 0) return order;
  }
  return 0;
}

export function sortControls(controls: readonly ExportControl[]): ExportControl[] {
  return [...controls].sort((a, b) => compareControlIds(a.controlId, b.controlId));
}
