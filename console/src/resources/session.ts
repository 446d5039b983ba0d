import { authPath, orgPath } from '../../../src/clients/api-client/paths.js';
import type { MemberRole } from '../../../src/shared/vocabulary.js';
import {
  type ApiClient,
  ApiError,
  consoleClient,
  type Me,
  type Org,
  type OrgList,
  type SignedIn,
  type SsoConfig,
  sessionClient,
} from '../api';

/**
 * What the console keeps in the browser: the key in this tab's session storage only (never in a URL, a cookie
 * or local storage); for a person only a hint that a session cookie may exist (the cookie itself is HttpOnly),
 * so that a page without one does not ask the API and count as a refused authentication.
 */
export const STORED = { key: 'comply.key', org: 'comply.org', person: 'comply.person' } as const;

/** What the signed-in key or person may do in one organization; the console shows only what it may. */
export interface Can {
  read: boolean;
  write: boolean;
  export: boolean;
  /** Approvals (people only: approver and owner). */
  approve: boolean;
  /** The org's members (owners, platform administrators and platform keys). */
  manage: boolean;
  /** The org's audit trail (owners, auditors, platform administrators and platform keys). */
  audit: boolean;
}

export interface SignedOrg {
  orgId: string;
  name: string;
  /** The person's role in the org; null for a key, and for a platform administrator who is not a member. */
  role: MemberRole | null;
  can: Can;
}

/** Who is signed in, a key or a person, and the organizations they can act on. */
export interface Signed {
  api: ApiClient;
  me: Me;
  kind: 'key' | 'user';
  /** A platform key, or a platform administrator: every organization. */
  platform: boolean;
  /** The signed-in person; null for a key. */
  person: { userId: string; name: string; email: string } | null;
  orgs: SignedOrg[];
}

const EVERYTHING: Can = { read: true, write: true, export: true, approve: true, manage: true, audit: true };

/** Checks a key against the API: a platform key sees every org, an org key its own. */
export async function signIn(key: string): Promise<Signed> {
  const api = consoleClient(key);
  const me = await api.get<Me>('/me');
  if (me.type === 'user') throw new Error('This is not an API key.');
  const can: Can = {
    read: me.can.read,
    write: me.can.write,
    export: me.can.export,
    approve: false,
    manage: me.can.admin,
    audit: me.can.admin,
  };
  const orgs = me.platform
    ? (await api.get<OrgList>(orgPath())).orgs
    : [await api.get<Org>(orgPath(me.orgId ?? ''))];
  return {
    api,
    me,
    kind: 'key',
    platform: me.platform,
    person: null,
    orgs: orgs.map((org) => ({ orgId: org.orgId, name: org.name, role: null, can })),
  };
}

/** What a role allows, as `GET /me` lists it (`read`, `write`, `approve`, `export`, `manage`, `audit`). */
const canOf = (scopes: string[]): Can => ({
  read: scopes.includes('read'),
  write: scopes.includes('write'),
  export: scopes.includes('export'),
  approve: scopes.includes('approve'),
  manage: scopes.includes('manage'),
  audit: scopes.includes('audit'),
});

/** The person the session cookie belongs to, with their organizations (every org for a platform administrator). */
async function signedPerson(known?: Me): Promise<Signed> {
  const api = sessionClient();
  const me = known ?? (await api.get<Me>('/me'));
  if (me.type !== 'user') throw new Error('The session is not a person’s.');
  const memberships = new Map(me.orgs.map((org) => [org.orgId, org]));
  let orgs: SignedOrg[];
  if (me.platformAdmin) {
    orgs = (await api.get<OrgList>(orgPath())).orgs.map((org) => ({
      orgId: org.orgId,
      name: org.name,
      role: memberships.get(org.orgId)?.role ?? null,
      can: EVERYTHING,
    }));
  } else {
    // An org the person may no longer read (an auditor past expiry, say) keeps its id as its name.
    const names = await Promise.all(
      me.orgs.map((org) =>
        api.get<Org>(orgPath(org.orgId)).then(
          (o) => o.name,
          () => org.orgId,
        ),
      ),
    );
    orgs = me.orgs.map((org, i) => ({
      orgId: org.orgId,
      name: names[i],
      role: org.role,
      can: canOf(org.scopes),
    }));
  }
  return {
    api,
    me,
    kind: 'user',
    platform: me.platformAdmin,
    person: { userId: me.userId, name: me.name, email: me.email },
    orgs,
  };
}

/** The person whose session cookie the browser holds, or null when there is none (or it has ended). */
export async function resumeSession(): Promise<Signed | null> {
  let me: Me;
  try {
    me = await sessionClient(true).get<Me>('/me');
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
  return signedPerson(me);
}

/** Signs in with email and password: the API sets the HttpOnly session cookie. */
export async function logIn(email: string, password: string): Promise<Signed> {
  await sessionClient(true).post<SignedIn>(authPath('/login'), { email, password });
  return signedPerson();
}

/** Accepts an invitation (or the first-start set-up link, with a name and an email): the person is signed in. */
export async function acceptInvitation(body: {
  token: string;
  password: string;
  name?: string;
  email?: string;
}): Promise<Signed> {
  await sessionClient(true).post<SignedIn>(authPath('/invitations/accept'), body);
  return signedPerson();
}

/** Ends the person's session on the server (the cookie goes with it); a key has nothing to end. */
export async function signOut(signed: Signed): Promise<void> {
  if (signed.kind === 'user') await sessionClient(true).post(authPath('/logout'), {});
}

/** Whether single sign-on is configured and whether the first person is still to be created. */
export const authConfig = () => sessionClient(true).get<SsoConfig>(authPath('/config'));

/** Where "Sign in with SSO" goes: the API redirects to the OpenID provider and back to the console. */
export const ssoStartUrl = () =>
  new URL(`/api/v1${authPath('/oidc/start')}`, window.location.origin).toString();
