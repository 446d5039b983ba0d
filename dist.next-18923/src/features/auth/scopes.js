export const isPlatform = (principal) => principal.platform;
/** Platform principals hold `admin`, which includes every other permission. */
export const hasPermission = (principal, permission) => principal.permissions.includes(permission) || principal.permissions.includes('admin');
//# sourceMappingURL=scopes.js.map