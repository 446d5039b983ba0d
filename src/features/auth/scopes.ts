import type { MemberRole, Permission } from '../../shared/vocabulary.js';

/** Who acts: a person signed in, or an API key. Records name them by `id` and show `name`. */
export interface Actor {
  type: 'user' | 'key';
  id: string;
  name: string;
}

/** A person's standing in one org: what the contract's member carries. */
export interface Membership {
  orgId: string;
  role: MemberRole;
  status: 'invited' | 'active' | 'disabled';
  expiresAt: string | null;
  frameworkIds: string[] | null;
}

/** A signed-in person as every request sees them: who they are and their standing in each org. */
export interface SessionUser {
  tokenHash: string;
  userId: string;
  email: string;
  name: string;
  platformAdmin: boolean;
  memberships: Membership[];
}

/**
 * Who made a request, and what it may do in the org it acts in: a tenant key (one org), a platform key or
 * platform administrator (`platform`, every org), or a person with the permissions of their role in the org the
 * request names.
 */
export interface Principal {
  actor: Actor;
  /** The org the principal acts in; null for a platform principal not naming one. */
  orgId: string | null;
  platform: boolean;
  permissions: readonly Permission[];
  /** A person's membership of `orgId` (auditors are bounded by its expiry and frameworks). */
  membership?: Membership;
  /** The person's session, when authenticated by its cookie (changes must then come from the daemon's origin). */
  session?: SessionUser;
}

export const isPlatform = (principal: Principal) => principal.platform;

/** Platform principals hold `admin`, which includes every other permission. */
export const hasPermission = (principal: Principal, permission: Permission) =>
  principal.permissions.includes(permission) || principal.permissions.includes('admin');
