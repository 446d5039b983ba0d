import { Type } from 'typebox';
import { MemberRoleSchema, Nullable, OrgId, PlainText, Timestamp } from '../../shared/schemas.js';
import { MEMBER_STATUSES } from '../../shared/vocabulary.js';
const Email = Type.String({ format: 'email', minLength: 3, maxLength: 254, description: 'Email address' });
const PersonName = PlainText({
    minLength: 1,
    maxLength: 200,
    description: 'Full name, shown on every record',
});
const FrameworkIds = Type.Array(Type.String({ minLength: 1, maxLength: 128 }), {
    maxItems: 100,
    uniqueItems: true,
    description: 'Auditors only: the frameworks they may read; absent or null: every framework',
});
export const MemberSchema = Type.Object({
    userId: Type.String(),
    email: Type.String(),
    name: Type.String(),
    role: MemberRoleSchema,
    status: Type.Enum(MEMBER_STATUSES, {
        description: 'invited (until the invitation is accepted) | active | disabled',
    }),
    createdAt: Timestamp,
    lastSignInAt: Nullable(Timestamp),
    expiresAt: Type.Optional(Nullable(Timestamp)),
    frameworkIds: Type.Optional(Nullable(Type.Array(Type.String()))),
});
export const InvitationSchema = Type.Object({
    token: Type.String({ description: 'One-time token; shown only in this response' }),
    url: Type.String({ description: 'The console link that accepts the invitation' }),
    expiresAt: Timestamp,
});
export const CreatedMemberSchema = Type.Intersect([
    MemberSchema,
    Type.Object({ invitation: InvitationSchema }),
]);
export const MemberListSchema = Type.Object({ orgId: Type.String(), members: Type.Array(MemberSchema) });
export const CreateMemberBody = Type.Object({
    email: Email,
    name: PersonName,
    role: MemberRoleSchema,
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'Auditors: access ends then' })),
    frameworkIds: Type.Optional(FrameworkIds),
}, { additionalProperties: false });
export const UpdateMemberBody = Type.Object({
    role: Type.Optional(MemberRoleSchema),
    expiresAt: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
    frameworkIds: Type.Optional(Nullable(FrameworkIds)),
    status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('disabled')], {
        description: 'disabled ends the member’s sessions at once, on every daemon',
    })),
}, { additionalProperties: false, minProperties: 1 });
export const MemberParams = Type.Object({
    orgId: OrgId,
    userId: Type.String({ minLength: 1, maxLength: 64 }),
});
//# sourceMappingURL=members.schemas.js.map