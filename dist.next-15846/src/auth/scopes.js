export const SCOPES = ['read', 'write', 'attest', 'export', 'admin'];
export const isPlatform = (principal) => principal.orgId === null;
/** Platform keys hold `admin`, which includes every other permission. */
export const hasScope = (principal, scope) => principal.scopes.includes(scope) || principal.scopes.includes('admin');
//# sourceMappingURL=scopes.js.map