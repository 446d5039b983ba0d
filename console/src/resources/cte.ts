import { ctePath } from '../../../src/clients/api-client/paths.js';
import type {
  AssessedGapReport,
  ConflictList,
  Coverage,
  FrameworkCoverage,
  FrameworkDetail,
  SearchResult,
} from '../api';
import { filled } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** The crosswalk engine's analyses of the org: gaps, coverage, conflicts and search. */

export const useGaps = (frameworkId: string) => {
  const { api, orgId } = useSession();
  // The console shows where each gap's status comes from, so it asks for the `assessment` member too.
  return useLoad(
    () => api.get<AssessedGapReport>(ctePath('gaps', frameworkId), { orgId, include: 'assessment' }),
    [orgId, frameworkId],
  );
};

/** Every framework's coverage and the pairwise heatmap. */
export const useCoverage = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<Coverage>(ctePath('coverage'), { orgId }), [orgId]);
};

/** Each requirement of one framework, with what covers it. */
export const useFrameworkCoverage = (frameworkId: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<FrameworkCoverage>(ctePath('coverage', frameworkId), { orgId }),
    [orgId, frameworkId],
  );
};

export type ConflictFilters = { frameworkId: string; kind: string; severity: string };

export const useConflicts = (filters: ConflictFilters) => {
  const { api } = useSession();
  return useLoad(() => api.get<ConflictList>(ctePath('conflicts'), filled(filters)), [filters]);
};

/**
 * The library's definition of each framework named (its requirements with their parameters), by id; the
 * frameworks are loaded once per set of ids.
 */
export const useFrameworkDetails = (frameworkIds: readonly string[]) => {
  const { api } = useSession();
  const ids = [...new Set(frameworkIds)].sort();
  return useLoad(
    async () =>
      new Map(
        await Promise.all(
          ids.map(async (id) => [id, await api.get<FrameworkDetail>(ctePath('frameworks', id))] as const),
        ),
      ),
    [ids.join('\u001f')],
  );
};

/**
 * The requirements closest in meaning to a text, of one framework when one is named, each with the org's
 * status of it (its record's, else what the crosswalk infers) as the API gives it.
 */
export const searchRequirements = (
  { api, orgId }: Pick<Session, 'api' | 'orgId'>,
  query: string,
  { frameworkId, limit }: { frameworkId?: string; limit: number },
) =>
  api.request<SearchResult>('POST', ctePath('embeddings', 'distance'), {
    query: { orgId },
    body: { query, limit, ...(frameworkId ? { frameworkId } : {}) },
  });
