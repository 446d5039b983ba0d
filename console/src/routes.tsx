import type { ReactNode } from 'react';
import { AttestationsView } from './views/attestations';
import { ConflictsView, CoverageView, SearchView } from './views/cte';
import { FrameworkView } from './views/framework';
import { Overview } from './views/overview';
import { ExportsView, SnapshotsView, SystemsView } from './views/records';

/**
 * The console's pages, in the order the navigation lists them: `#/<id>/<params…>` renders `page(params)`.
 * An unknown address shows the first page.
 */
export interface Route {
  id: string;
  name: string;
  page(params: string[]): ReactNode;
}

export const ROUTES: readonly Route[] = [
  { id: 'overview', name: 'Overview', page: () => <Overview /> },
  {
    id: 'frameworks',
    name: 'Frameworks',
    page: ([frameworkId, requirementId]) => (
      <FrameworkView frameworkId={frameworkId ?? 'iso-42001'} requirementId={requirementId} />
    ),
  },
  { id: 'coverage', name: 'Coverage', page: () => <CoverageView /> },
  { id: 'conflicts', name: 'Conflicts', page: () => <ConflictsView /> },
  { id: 'search', name: 'Search', page: () => <SearchView /> },
  { id: 'attestations', name: 'Attestations', page: ([epochId]) => <AttestationsView epochId={epochId} /> },
  { id: 'systems', name: 'AI systems', page: () => <SystemsView /> },
  { id: 'snapshots', name: 'Snapshots', page: () => <SnapshotsView /> },
  { id: 'exports', name: 'Exports', page: () => <ExportsView /> },
];

export const routeOf = (id: string | undefined): Route =>
  ROUTES.find((route) => route.id === id) ?? ROUTES[0];
