import { documentPath, documentVersionPath } from '../../../src/clients/api-client/paths.js';
import type {
  ControlledDocument,
  ControlledDocumentPage,
  DocumentVersion,
  DocumentVersionDiff,
  DocumentVersionList,
} from '../api';
import { filled } from '../api';
import { type Session, useLoad, useSession } from '../ui';
import type { RequirementRef } from './frameworks';

/** Controlled documents (policies, procedures, plans, records) with versions, and the writes on them. */

export const useDocuments = (filters: { kind: string }, offset: number, limit: number) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<ControlledDocumentPage>(documentPath(orgId), filled({ kind: filters.kind, limit, offset })),
    [orgId, filters.kind, offset],
  );
};

export const useDocument = (documentId: string) => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<ControlledDocument>(documentPath(orgId, documentId)), [orgId, documentId]);
};

export const useVersions = (documentId: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () => api.get<DocumentVersionList>(documentVersionPath(orgId, documentId)),
    [orgId, documentId],
  );
};

/** One version with its content (a superseded one stays readable); none asked for, nothing loaded. */
export const useVersion = (documentId: string, versionId: string | undefined) => {
  const { api, orgId } = useSession();
  return useLoad(
    () =>
      versionId === undefined
        ? Promise.resolve(null)
        : api.get<DocumentVersion>(documentVersionPath(orgId, documentId, versionId)),
    [orgId, documentId, versionId],
  );
};

/** What changed from `against` to `versionId`, as unified diff hunks. */
export const useVersionDiff = (documentId: string, against: string, versionId: string) => {
  const { api, orgId } = useSession();
  return useLoad(
    () =>
      api.get<DocumentVersionDiff>(documentVersionPath(orgId, documentId, versionId, '/diff'), { against }),
    [orgId, documentId, against, versionId],
  );
};

export interface NewDocument {
  title: string;
  kind: ControlledDocument['kind'];
  owner?: string;
  requirements: RequirementRef[];
  reviewEvery?: string;
}

export const createDocument = (session: Session, body: NewDocument) =>
  session.api.post<ControlledDocument>(documentPath(session.orgId), body);

/** Starts the next version as a draft: Markdown content or a file URL, with a changelog. */
export const startDraft = (
  session: Session,
  documentId: string,
  body: { content?: string; fileUrl?: string; changelog: string },
) => session.api.post<DocumentVersion>(documentVersionPath(session.orgId, documentId), body);

export const editDraft = (
  session: Session,
  documentId: string,
  versionId: string,
  body: { content?: string; fileUrl?: string; changelog?: string },
) => session.api.put<DocumentVersion>(documentVersionPath(session.orgId, documentId, versionId), body);

/** Approves a draft (a signed-in approver or owner who did not write it): it is published. */
export const approveVersion = (session: Session, documentId: string, versionId: string) =>
  session.api.post<DocumentVersion>(
    documentVersionPath(session.orgId, documentId, versionId, '/approve'),
    {},
  );
