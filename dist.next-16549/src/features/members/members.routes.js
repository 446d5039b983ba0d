import { Type } from 'typebox';
import { errorResponses, OrgIdParam } from '../../shared/schemas.js';
import { invitationUrl, publicBase } from '../auth/auth.routes.js';
import { currentLibrary } from '../cte/library.service.js';
import { CreatedMemberSchema, CreateMemberBody, MemberListSchema, MemberParams, MemberSchema, UpdateMemberBody, } from './members.schemas.js';
import { getMember, inviteMember, listMembers, memberView, removeMember, updateMember, } from './members.service.js';
const TAG = 'people';
/** An org's members (under the org scope): owners and platform administrators manage them. */
export const memberRoutes = async function memberRoutes(app, { ctx }) {
    /** The ids among `ids` that name no framework of the library. */
    const unknownFrameworks = async (ids) => {
        const { library } = await currentLibrary(ctx.db.em());
        return ids.filter((id) => !library.framework(id));
    };
    app.post('/orgs/:orgId/members', {
        config: { scope: 'manage' },
        schema: {
            tags: [TAG],
            summary: 'Invite a person: the member starts `invited`, with a one-time link valid for 7 days',
            description: 'The invitation token and link are shown only in this response. An email already a member gets `409`. ' +
                '`expiresAt` and `frameworkIds` are for auditors only: access ends then, and covers only those frameworks.',
            params: OrgIdParam,
            body: CreateMemberBody,
            response: { 201: CreatedMemberSchema, ...errorResponses },
        },
    }, async (request, reply) => {
        const { orgId } = request.params;
        const { member, invitation } = await inviteMember(ctx.db.em(), orgId, request.body, unknownFrameworks);
        request.log.info({ orgId, userId: member.userId, role: member.role }, 'member invited');
        return reply
            .status(201)
            .header('location', `/api/v1/orgs/${encodeURIComponent(orgId)}/members/${encodeURIComponent(member.userId)}`)
            .send({
            ...memberView(member),
            invitation: {
                token: invitation.token,
                url: invitationUrl(publicBase(request, ctx.config.publicUrl), invitation.token),
                expiresAt: invitation.expiresAt.toISOString(),
            },
        });
    });
    app.get('/orgs/:orgId/members', {
        config: { scope: 'manage' },
        schema: {
            tags: [TAG],
            summary: "The organization's members, by email",
            params: OrgIdParam,
            response: { 200: MemberListSchema, ...errorResponses },
        },
    }, async (request) => ({
        orgId: request.params.orgId,
        members: (await listMembers(ctx.db.em(), request.params.orgId)).map(memberView),
    }));
    app.get('/orgs/:orgId/members/:userId', {
        config: { scope: 'manage' },
        schema: {
            tags: [TAG],
            summary: 'One member',
            params: MemberParams,
            response: { 200: MemberSchema, ...errorResponses },
        },
    }, async (request) => memberView(await getMember(ctx.db.em(), request.params.orgId, request.params.userId)));
    app.put('/orgs/:orgId/members/:userId', {
        config: { scope: 'manage' },
        schema: {
            tags: [TAG],
            summary: "Change a member's role, auditor bounds, or status (disabled ends their sessions at once)",
            description: 'The last active owner cannot be demoted or disabled (`409`).',
            params: MemberParams,
            body: UpdateMemberBody,
            response: { 200: MemberSchema, ...errorResponses },
        },
    }, async (request) => {
        const { orgId, userId } = request.params;
        const member = await updateMember(ctx.db.em(), orgId, userId, request.body, unknownFrameworks);
        // Role, bounds and status are read from the cached session: every daemon forgets it now.
        await ctx.revocations.revoked({ kind: 'user', userId });
        request.log.info({ orgId, userId, change: request.body }, 'member changed');
        return memberView(member);
    });
    app.delete('/orgs/:orgId/members/:userId', {
        config: { scope: 'manage' },
        schema: {
            tags: [TAG],
            summary: 'Remove a member; their sessions in this organization end at once',
            description: 'The last active owner cannot be removed (`409`).',
            params: MemberParams,
            response: { 204: Type.Null(), ...errorResponses },
        },
    }, async (request, reply) => {
        const { orgId, userId } = request.params;
        await removeMember(ctx.db.em(), orgId, userId);
        await ctx.revocations.revoked({ kind: 'user', userId });
        request.log.info({ orgId, userId }, 'member removed');
        return reply.status(204).send(null);
    });
};
//# sourceMappingURL=members.routes.js.map