import { ctePath, memberPath } from '../../../src/clients/api-client/paths.js';
import type { MemberRole } from '../../../src/shared/vocabulary.js';
import type { CreatedMember, FrameworkList, Member, MemberList } from '../api';
import { type Session, useLoad, useSession } from '../ui';

/** An org's members (owners and platform administrators), and the writes on them. */

export const useMembers = () => {
  const { api, orgId } = useSession();
  return useLoad(() => api.get<MemberList>(memberPath(orgId)), [orgId]);
};

/** Every framework of the library: what an auditor's access can be limited to. */
export const useFrameworkLibrary = () => {
  const { api } = useSession();
  return useLoad(() => api.get<FrameworkList>(ctePath('frameworks')), []);
};

export interface Invitation {
  email: string;
  name: string;
  role: MemberRole;
  expiresAt?: string;
  frameworkIds?: string[];
}

/** Invites a person: the answer carries the one-time invitation link, shown only then. */
export const inviteMember = (session: Session, body: Invitation) =>
  session.api.post<CreatedMember>(memberPath(session.orgId), body);

export interface MemberChange {
  role?: MemberRole;
  expiresAt?: string | null;
  frameworkIds?: string[] | null;
  status?: 'active' | 'disabled';
}

/** Changes a member's role, access or status; disabling ends their sessions at once. */
export const updateMember = (session: Session, userId: string, body: MemberChange) =>
  session.api.put<Member>(memberPath(session.orgId, userId), body);

export const removeMember = (session: Session, userId: string) =>
  session.api.delete(memberPath(session.orgId, userId));
