import type { Scope } from '../../shared/vocabulary.js';

/** Who made a request: a tenant key (one org) or a platform key (`orgId: null`, every org). */
export interface Principal {
  keyId: string;
  orgId: string | null;
  scopes: readonly Scope[];
}

export const isPlatform = (principal: Principal) => principal.orgId === null;

/** Platform keys hold `admin`, which includes every other permission. */
export const hasScope = (principal: Principal, scope: Scope) =>
  principal.scopes.includes(scope) || principal.scopes.includes('admin');
