import { ISO_42001 } from '../../shared/vocabulary.js';
import type { Framework } from '../cte/framework.types.js';
import { loadBuiltinLibrary } from '../cte/library.js';
import type { ExportControl, ExportFramework } from './export.types.js';

/** The part exported of frameworks whose names do not say it: their Annex A controls. */
const SCOPES: Record<string, string> = { [ISO_42001]: 'Annex A', 'iso-27001': 'Annex A' };

/**
 * How an export names a framework of the library. Annex A frameworks and imported OSCAL catalogs have
 * controls; the other frameworks (regulations, guidance, management-system clauses) have requirements.
 */
export function exportFramework(framework: Framework, options: { imported?: boolean } = {}): ExportFramework {
  const imported = options.imported ?? false;
  const scope = SCOPES[framework.id] ?? null;
  return {
    id: framework.id,
    name: framework.name,
    version: framework.version,
    scope,
    noun: scope !== null || imported ? 'control' : 'requirement',
    imported,
  };
}

function builtinIso(): Framework {
  const framework = loadBuiltinLibrary().framework(ISO_42001);
  if (!framework) throw new Error(`The built-in library has no ${ISO_42001}`);
  return framework;
}

/**
 * ISO/IEC 42001 Annex A, as the library defines it: what the SoA always describes, and the OSCAL
 * package's framework unless another is asked for.
 */
export const EXPORT_FRAMEWORK = exportFramework(builtinIso()) as ExportFramework & { scope: string };

/** `ISO/IEC 42001:2023 Annex A`, `EU Artificial Intelligence Act (Regulation (EU) 2024/1689)`. */
export function frameworkLabel(framework: ExportFramework): string {
  return framework.scope ? `${framework.name} ${framework.scope}` : framework.name;
}

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
