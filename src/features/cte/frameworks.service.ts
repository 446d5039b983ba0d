/** Framework listings, details and OSCAL catalog import. */
import type { Em } from '../../platform/db/database.js';
import { badRequest, conflict } from '../../platform/errors.js';
import { libraryConflicts } from './conflicts.js';
import type { Framework, RequirementRef } from './framework.types.js';
import { type SaveOutcome, saveStoredFramework } from './frameworks.store.js';
import {
  BUILTIN_FRAMEWORK_IDS,
  extendLibrary,
  type FrameworkLibrary,
  loadBuiltinLibrary,
} from './library.js';
import { type CurrentLibrary, requireFramework } from './library.service.js';
import { exportMappingCollection } from './mapping-export.js';
import { importOscalCatalog, OscalImportError } from './oscal-import.js';

export interface FrameworkSummary {
  id: string;
  name: string;
  controlCount: number;
  domains?: number;
}

export function summarize(framework: Framework): FrameworkSummary {
  return {
    id: framework.id,
    name: framework.name,
    controlCount: framework.requirements.length,
    ...(framework.domains ? { domains: framework.domains.length } : {}),
  };
}

export function listFrameworks(library: FrameworkLibrary): { frameworks: FrameworkSummary[] } {
  return { frameworks: library.frameworks.map(summarize) };
}

export function frameworkDetail(current: CurrentLibrary, frameworkId: string) {
  const framework = requireFramework(current.library, frameworkId);
  const perDomain = new Map<string, number>();
  for (const requirement of framework.requirements) {
    if (requirement.domain) perDomain.set(requirement.domain, (perDomain.get(requirement.domain) ?? 0) + 1);
  }
  const domainsOf = (functionId: string) =>
    (framework.domains ?? []).filter((domain) => domain.function === functionId);
  return {
    ...summarize(framework),
    version: framework.version,
    publisher: framework.publisher,
    kind: framework.kind,
    imported: current.importedIds.has(framework.id),
    ...(framework.functions
      ? {
          functions: framework.functions.map((fn) => ({
            id: fn.id,
            title: fn.title,
            domainCount: domainsOf(fn.id).length,
            controlCount: domainsOf(fn.id).reduce((sum, domain) => sum + (perDomain.get(domain.id) ?? 0), 0),
          })),
        }
      : {}),
    ...(framework.domains
      ? {
          domainList: framework.domains.map((domain) => ({
            id: domain.id,
            title: domain.title,
            ...(domain.function ? { function: domain.function } : {}),
            controlCount: perDomain.get(domain.id) ?? 0,
          })),
        }
      : {}),
    controls: framework.requirements.map(({ id, ...requirement }) => ({ controlId: id, ...requirement })),
  };
}

export interface ImportResult extends FrameworkSummary {
  version: string;
  skippedWithdrawn: number;
  outcome: SaveOutcome;
}

/**
 * Converts an OSCAL catalog and stores it; the same catalog again replaces it (or changes nothing).
 * The framework must fit into the library before it is stored, so a bad import cannot break the library.
 */
export async function importCatalog(
  em: Em,
  document: unknown,
  options: { frameworkId?: string } = {},
): Promise<ImportResult> {
  let converted: ReturnType<typeof importOscalCatalog>;
  try {
    converted = importOscalCatalog(document, { frameworkId: options.frameworkId });
  } catch (error) {
    if (error instanceof OscalImportError) {
      throw badRequest(error.message, { reason: 'invalid-catalog', problems: error.problems.slice(0, 20) });
    }
    throw error;
  }
  const { framework, skippedWithdrawn } = converted;
  if ((BUILTIN_FRAMEWORK_IDS as readonly string[]).includes(framework.id)) {
    throw conflict('A built-in framework has this id; import the catalog under another frameworkId', {
      frameworkId: framework.id,
    });
  }
  if (framework.requirements.length === 0) {
    throw badRequest('The catalog has no control to import (all withdrawn, or none at all)', {
      reason: 'empty-catalog',
    });
  }
  try {
    extendLibrary(loadBuiltinLibrary(), { frameworks: [framework] });
  } catch (error) {
    throw badRequest(`The catalog cannot join the library: ${(error as Error).message}`, {
      reason: 'invalid-catalog',
    });
  }
  const sourceUuid = (document as { catalog: { uuid?: unknown } }).catalog.uuid;
  const outcome = await saveStoredFramework(em, {
    framework,
    sourceUuid: typeof sourceUuid === 'string' ? sourceUuid : undefined,
    skippedWithdrawn,
  });
  return { ...summarize(framework), version: framework.version, skippedWithdrawn, outcome };
}

export interface ConflictFilter {
  frameworkId?: string;
  kind?: string;
  severity?: string;
}

/**
 * Curated and computed conflicts of the library, optionally only those touching one framework, and only
 * those whose every requirement `applies` (an org's exclusions leave the conflicts they touch out).
 */
export function listConflicts(
  library: FrameworkLibrary,
  filter: ConflictFilter,
  applies: (ref: RequirementRef) => boolean = () => true,
) {
  if (filter.frameworkId) requireFramework(library, filter.frameworkId);
  const conflicts = libraryConflicts(library).filter(
    (conflict) =>
      (!filter.kind || conflict.kind === filter.kind) &&
      (!filter.severity || conflict.severity === filter.severity) &&
      (!filter.frameworkId ||
        conflict.requirements.some((requirement) => requirement.frameworkId === filter.frameworkId)) &&
      conflict.requirements.every(applies),
  );
  return { conflicts };
}

const mappingExports = new WeakMap<FrameworkLibrary, ReturnType<typeof exportMappingCollection>>();

/** The crosswalk as an OSCAL mapping-collection, built once per library. */
export function mappingCollection(library: FrameworkLibrary) {
  let document = mappingExports.get(library);
  if (!document) {
    document = exportMappingCollection(library);
    mappingExports.set(library, document);
  }
  return document;
}
