import type { ReactNode } from 'react';
import type { Session } from './ui';
import { AssessmentsView, AssessmentView } from './views/assessments';
import { AttestationsView } from './views/attestations';
import { AuditTrailView } from './views/audit';
import { AuditsView, AuditView, FindingsView, FindingView } from './views/audits';
import { ConflictsView } from './views/conflicts';
import { CoverageView } from './views/coverage';
import { DocumentsView, DocumentView } from './views/documents';
import { DueView } from './views/due';
import { ExportsView } from './views/exports';
import { FrameworkView } from './views/framework';
import { FrameworksView } from './views/frameworks';
import { GapsView } from './views/gaps';
import { ReviewsView, ReviewView } from './views/management-reviews';
import { MembersView } from './views/members';
import { Overview } from './views/overview';
import { RisksView, RiskView } from './views/risks';
import { ScopeView } from './views/scope';
import { SearchView } from './views/search';
import { SnapshotsView } from './views/snapshots';
import { SystemView } from './views/system';
import { SystemsView } from './views/systems';
import { WebhooksView } from './views/webhooks';

/**
 * The console's pages, in the order the navigation lists them: `#/<id>/<params…>` renders `page(params)`.
 * An unknown address shows the first page.
 */
export interface Route {
  id: string;
  name: string;
  page(params: string[]): ReactNode;
  /** Whether the signed-in key or person may use the page; absent: everyone. */
  visible?(session: Session): boolean;
  /** A page reached from another one, not listed in the navigation: the id of the entry it belongs to. */
  within?: string;
}

export const ROUTES: readonly Route[] = [
  { id: 'overview', name: 'Overview', page: () => <Overview /> },
  { id: 'due', name: 'Due', page: () => <DueView /> },
  { id: 'scope', name: 'Scope', page: () => <ScopeView /> },
  {
    id: 'frameworks',
    name: 'Frameworks',
    page: ([frameworkId, requirementId]) =>
      frameworkId ? (
        <FrameworkView key={frameworkId} frameworkId={frameworkId} requirementId={requirementId} />
      ) : (
        <FrameworksView />
      ),
  },
  {
    id: 'gaps',
    name: 'Gaps',
    within: 'frameworks',
    page: ([frameworkId]) => <GapsView key={frameworkId} frameworkId={frameworkId ?? 'iso-42001'} />,
  },
  { id: 'coverage', name: 'Coverage', page: () => <CoverageView /> },
  { id: 'conflicts', name: 'Conflicts', page: () => <ConflictsView /> },
  { id: 'search', name: 'Search', page: () => <SearchView /> },
  { id: 'attestations', name: 'Attestations', page: ([epochId]) => <AttestationsView epochId={epochId} /> },
  {
    id: 'systems',
    name: 'AI systems',
    page: ([systemId]) => (systemId ? <SystemView key={systemId} systemId={systemId} /> : <SystemsView />),
  },
  {
    id: 'risks',
    name: 'AI risks',
    page: ([riskId]) => (riskId ? <RiskView key={riskId} riskId={riskId} /> : <RisksView />),
  },
  {
    id: 'assessments',
    name: 'Impact assessments',
    page: ([assessmentId]) =>
      assessmentId ? <AssessmentView key={assessmentId} assessmentId={assessmentId} /> : <AssessmentsView />,
  },
  { id: 'snapshots', name: 'Snapshots', page: () => <SnapshotsView /> },
  { id: 'exports', name: 'Exports', page: () => <ExportsView /> },
  {
    id: 'audits',
    name: 'Internal audits',
    page: ([auditId]) => (auditId ? <AuditView key={auditId} auditId={auditId} /> : <AuditsView />),
  },
  {
    id: 'findings',
    name: 'Findings',
    page: ([findingId]) =>
      findingId ? <FindingView key={findingId} findingId={findingId} /> : <FindingsView />,
  },
  {
    id: 'reviews',
    name: 'Management reviews',
    page: ([reviewId]) => (reviewId ? <ReviewView key={reviewId} reviewId={reviewId} /> : <ReviewsView />),
  },
  {
    id: 'documents',
    name: 'Documents',
    page: ([documentId]) =>
      documentId ? <DocumentView key={documentId} documentId={documentId} /> : <DocumentsView />,
  },
  { id: 'members', name: 'Members', page: () => <MembersView />, visible: (session) => session.can.manage },
  {
    id: 'audit',
    name: 'Audit trail',
    page: () => <AuditTrailView />,
    visible: (session) => session.can.audit,
  },
  {
    id: 'webhooks',
    name: 'Webhooks',
    page: () => <WebhooksView />,
    visible: (session) => session.can.manage,
  },
];

export const routeOf = (id: string | undefined): Route =>
  ROUTES.find((route) => route.id === id) ?? ROUTES[0];
