import { TtlCache } from '../../platform/cache/ttl-cache.js';
import type { Em } from '../../platform/db/database.js';
import { reportCache } from '../../platform/metrics/events.js';
import { ISO_42001, type Permission, ROLE_PERMISSIONS } from '../../shared/vocabulary.js';
import { VOUCHED_TTL_MS } from './keys.service.js';
import {
  endSession,
  endSessionsOfUser,
  insertSession,
  selectMembershipsOfUser,
  selectUser,
  touchSession,
} from './people.store.js';
import type { Principal, SessionUser } from './scopes.js';
import { generateToken, tokenHash } from './secrets.js';

export const SESSION_COOKIE = 'comply_session';
export type { SessionUser };

export interface SessionLimits {
  idleMs: number;
  maxMs: number;
}

/** Opens a session for the user: the token goes into the cookie, only its hash into the database. */
export async function openSession(
  em: Em,
  userId: string,
  limits: SessionLimits,
  now = new Date(),
): Promise<string> {
  const token = generateToken();
  await insertSession(
    em,
    { tokenHash: tokenHash(token), userId, expiresAt: new Date(now.getTime() + limits.maxMs) },
    now,
  );
  return token;
}

/** Ends one session; the user it belonged to, or null when it had already ended. */
export const closeSession = (em: Em, token: string) => endSession(em, tokenHash(token), new Date());

/** Ends every session of the user (disabled, removed from every org). */
export const closeSessionsOf = (em: Em, userId: string) => endSessionsOfUser(em, userId, new Date());

const CACHE_TTL_MS = 10_000;
const CACHE_CAPACITY = 10_000;

/**
 * Resolves session cookies to people, as `KeyResolver` does keys: looked up by the token's hash, the answer
 * cached 10 s. Each lookup marks the session seen, so idleness is measured to within that. Sign-outs,
 * disabled members and role changes reach every instance's cache at once through the revocation bus.
 */
export class SessionResolver {
  private readonly sessions = new TtlCache<string, SessionUser | null>(CACHE_TTL_MS, CACHE_CAPACITY);
  /** Hashes of tokens that resolved lately, to their users: looked up even from a limited address (keys.service). */
  private readonly vouched = new TtlCache<string, string>(VOUCHED_TTL_MS, CACHE_CAPACITY);

  constructor(
    private readonly em: () => Em,
    private readonly limits: SessionLimits,
  ) {}

  known(token: string): SessionUser | null | undefined {
    const user = this.sessions.get(token);
    reportCache('sessions', user !== undefined);
    return user;
  }

  async lookUp(token: string): Promise<SessionUser | null> {
    const hash = tokenHash(token);
    const em = this.em();
    const userId = await touchSession(em, hash, this.limits.idleMs, new Date());
    const user = userId ? await selectUser(em, userId) : null;
    const resolved: SessionUser | null = user && {
      tokenHash: hash,
      userId: user.userId,
      email: user.email,
      name: user.name,
      platformAdmin: user.platformAdmin,
      memberships: (await selectMembershipsOfUser(em, user.userId)).map((member) => ({
        orgId: member.orgId,
        role: member.role,
        status: member.status,
        expiresAt: member.expiresAt,
        frameworkIds: member.frameworkIds,
      })),
    };
    this.sessions.set(token, resolved);
    if (resolved) this.vouched.set(hash, resolved.userId);
    else this.vouched.delete(hash);
    return resolved;
  }

  /** Whether the token resolved to a session lately: asked only of addresses past their limit. */
  vouchedFor(token: string): boolean {
    return this.vouched.get(tokenHash(token)) !== undefined;
  }

  evictUser(userId: string): void {
    this.sessions.deleteWhere((user) => user?.userId === userId);
    this.vouched.deleteWhere((vouchedId) => vouchedId === userId);
  }

  evictSession(hash: string): void {
    this.sessions.deleteWhere((user) => user?.tokenHash === hash);
    this.vouched.delete(hash);
  }

  clear(): void {
    this.sessions.clear();
  }
}

/** Why a person may not act in an org, as the `reason` of a 403. */
export type Refusal = { reason: 'not_a_member' | 'member_disabled' | 'access_expired'; message: string };

/**
 * The principal of a person acting in `orgId` (null: a route naming no org, acting in their first org), or
 * why they may not. Platform administrators act on every org, as platform keys do.
 */
export function personPrincipal(
  user: SessionUser,
  orgId: string | null,
  now = Date.now(),
): Principal | Refusal {
  const actor = { type: 'user' as const, id: user.userId, name: user.name };
  const active = user.memberships.filter((member) => member.status === 'active');
  const membership = orgId === null ? active[0] : user.memberships.find((member) => member.orgId === orgId);
  if (user.platformAdmin && (!membership || orgId === null)) {
    return { actor, orgId, platform: true, permissions: ['admin'], session: user };
  }
  if (!membership) {
    return {
      reason: 'not_a_member',
      message:
        orgId === null
          ? 'You are not a member of any organization'
          : 'You are not a member of this organization',
    };
  }
  if (membership.status !== 'active') {
    return {
      reason: 'member_disabled',
      message: `Your membership of ${membership.orgId} is ${membership.status}`,
    };
  }
  if (membership.expiresAt !== null && Date.parse(membership.expiresAt) <= now) {
    return {
      reason: 'access_expired',
      message: `Your access to ${membership.orgId} ended at ${membership.expiresAt}`,
    };
  }
  const permissions: Permission[] = user.platformAdmin ? ['admin'] : [...ROLE_PERMISSIONS[membership.role]];
  return {
    actor,
    orgId: membership.orgId,
    platform: user.platformAdmin,
    permissions,
    membership,
    session: user,
  };
}

/**
 * The framework a request reads, for an auditor bounded to some: the `frameworkId` it names (path or query),
 * or ISO/IEC 42001 for the control routes. Null: the request names none.
 */
export function requestedFramework(url: string, params: unknown, query: unknown): string | null {
  const named =
    (params as { frameworkId?: string } | undefined)?.frameworkId ??
    (query as { frameworkId?: string; framework?: string } | undefined)?.frameworkId ??
    (query as { framework?: string } | undefined)?.framework;
  if (named) return named;
  if (/^\/api\/v1\/(orgs\/:orgId\/)?controls\b/.test(url)) return ISO_42001;
  return null;
}
