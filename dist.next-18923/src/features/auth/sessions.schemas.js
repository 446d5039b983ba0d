import { Type } from 'typebox';
import { MemberRoleSchema, Nullable, PlainText, Timestamp } from '../../shared/schemas.js';
import { PrincipalSchema } from './keys.schemas.js';
/** Passwords: at least 12 characters (NIST SP 800-63B length over composition rules). */
export const Password = Type.String({
    minLength: 12,
    maxLength: 1024,
    description: 'At least 12 characters',
});
export const UserSchema = Type.Object({
    userId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    platformAdmin: Type.Boolean({ description: 'Acts on every organization, as a platform key does' }),
    lastSignInAt: Nullable(Timestamp),
});
export const UserOrgSchema = Type.Object({ orgId: Type.String(), role: MemberRoleSchema });
export const SignedInSchema = Type.Object({ user: UserSchema, orgs: Type.Array(UserOrgSchema) });
export const LoginBody = Type.Object({
    email: Type.String({ minLength: 1, maxLength: 254 }),
    password: Type.String({ minLength: 1, maxLength: 1024 }),
}, { additionalProperties: false });
export const AcceptInvitationBody = Type.Object({
    token: Type.String({ minLength: 16, maxLength: 128 }),
    password: Password,
    name: Type.Optional(PlainText({ minLength: 1, maxLength: 200, description: 'The set-up link only: your name' })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254, description: 'The set-up link only: your email' })),
}, { additionalProperties: false });
export const SsoConfigSchema = Type.Object({
    sso: Type.Boolean({ description: 'Whether "Sign in with SSO" is configured' }),
    setupPending: Type.Boolean({
        description: 'No person exists yet: the set-up link printed at start creates one',
    }),
});
export const UserMeSchema = Type.Object({
    type: Type.Literal('user'),
    userId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    platformAdmin: Type.Boolean(),
    orgs: Type.Array(Type.Object({
        orgId: Type.String(),
        role: MemberRoleSchema,
        scopes: Type.Array(Type.String(), {
            description: 'What the role allows: read, write, approve, export, manage',
        }),
        expiresAt: Nullable(Timestamp),
        frameworkIds: Nullable(Type.Array(Type.String())),
    })),
});
/** `GET /me`: the key, or the signed-in person, making the request. */
export const MeSchema = Type.Union([PrincipalSchema, UserMeSchema]);
//# sourceMappingURL=sessions.schemas.js.map