import { Argument, type Command, Option } from 'commander';
import { MEMBER_ROLES } from '../../../shared/vocabulary.js';
import type { ApiClient } from '../../api-client/client.js';
import { memberPath } from '../../api-client/paths.js';
import type { CreatedMember, Member, MemberList } from '../../api-client/types.js';
import { type Cli, CommandRefusedError, csv, parseTimestamp } from '../cli.js';
import { describe } from '../output.js';

const ROLE_HELP =
  'viewer (read) | editor (read, write) | approver (read, write, approve) | owner (everything, members and keys) | auditor (read and export, until --expires)';

/** A member named by userId, or by email (looked up in the org's members). */
async function resolveMember(client: ApiClient, orgId: string, who: string): Promise<Member> {
  const { members } = await client.get<MemberList>(memberPath(orgId));
  const wanted = who.toLowerCase();
  const member = who.includes('@')
    ? members.find((m) => m.email.toLowerCase() === wanted)
    : members.find((m) => m.userId === who);
  if (!member) throw new CommandRefusedError(`${orgId} has no member ${who}`);
  return member;
}

const memberFields = (member: Member) => ({
  userId: member.userId,
  email: member.email,
  name: member.name,
  role: member.role,
  status: member.status,
  expires: member.expiresAt,
  frameworks: member.frameworkIds?.join(','),
  'last sign-in': member.lastSignInAt,
});

export function registerMemberCommands(program: Command, cli: Cli): void {
  const members = program
    .command('members')
    .description('the people of an org and their roles (owner or platform key; --org / COMPLY_ORG)');

  members
    .command('invite <email>')
    .description('invite a person; prints the one-time invitation link (valid 7 days)')
    .requiredOption('--name <name>', 'their full name, shown on every record they make')
    .addOption(new Option('--role <role>', ROLE_HELP).choices(MEMBER_ROLES).makeOptionMandatory())
    .option(
      '--expires <date>',
      'auditors: access ends then (YYYY-MM-DD: the end of that day, UTC; or an ISO date-time)',
      parseTimestamp('end'),
    )
    .option('--frameworks <list>', 'auditors: the only frameworks they may read (comma-separated ids)', csv)
    .addHelpText(
      'after',
      `
Examples:
  $ comply --org acme members invite alice@example.com --name "Alice Example" --role approver
  $ comply --org acme members invite audit@firm.example --name "Ext Auditor" --role auditor \\
      --expires 2026-06-30 --frameworks iso-42001,eu-ai-act`,
    )
    .action(
      async (
        email: string,
        options: { name: string; role: string; expires?: string; frameworks?: string[] },
        command: Command,
      ) => {
        const created = await cli.client(command).post<CreatedMember>(memberPath(cli.org(command)), {
          email,
          name: options.name,
          role: options.role,
          expiresAt: options.expires,
          frameworkIds: options.frameworks,
        });
        await cli.print(command, {
          data: created,
          text: `${describe(memberFields(created))}\n\nInvitation link for ${created.email}, valid until ${created.invitation.expiresAt}; it is not shown again:\n${created.invitation.url}`,
        });
      },
    );

  members
    .command('list')
    .description("an org's members: role, status, last sign-in")
    .action(async (_options, command: Command) => {
      const list = await cli.client(command).get<MemberList>(memberPath(cli.org(command)));
      await cli.print(command, {
        data: list,
        table: {
          columns: ['USER ID', 'EMAIL', 'NAME', 'ROLE', 'STATUS', 'LAST SIGN-IN', 'EXPIRES', 'FRAMEWORKS'],
          rows: list.members.map((m) => [
            m.userId,
            m.email,
            m.name,
            m.role,
            m.status,
            m.lastSignInAt,
            m.expiresAt,
            m.frameworkIds?.join(','),
          ]),
        },
      });
    });

  /** A change to one member (`PUT`), named by userId or email; prints the member as it is now. */
  const change = async (command: Command, who: string, body: Record<string, unknown>) => {
    const client = cli.client(command);
    const orgId = cli.org(command);
    const member = await resolveMember(client, orgId, who);
    const updated = await client.put<Member>(memberPath(orgId, member.userId), body);
    await cli.print(command, { data: updated, text: describe(memberFields(updated)) });
  };

  members
    .command('set-role')
    .description("change a member's role (the last owner cannot be demoted)")
    .argument('<member>', 'userId or email')
    .addArgument(new Argument('<role>', ROLE_HELP).choices(MEMBER_ROLES))
    .option(
      '--expires <date>',
      'auditors: access ends then (YYYY-MM-DD or ISO date-time)',
      parseTimestamp('end'),
    )
    .option('--frameworks <list>', 'auditors: the only frameworks they may read (comma-separated ids)', csv)
    .action(
      (who: string, role: string, options: { expires?: string; frameworks?: string[] }, command: Command) =>
        change(command, who, { role, expiresAt: options.expires, frameworkIds: options.frameworks }),
    );

  members
    .command('disable')
    .description('disable a member: their sessions end at once, on every daemon')
    .argument('<member>', 'userId or email')
    .action((who: string, _options, command: Command) => change(command, who, { status: 'disabled' }));

  members
    .command('enable')
    .description('enable a disabled member again')
    .argument('<member>', 'userId or email')
    .action((who: string, _options, command: Command) => change(command, who, { status: 'active' }));

  members
    .command('remove')
    .description('remove a member from the org (the last owner cannot be removed)')
    .argument('<member>', 'userId or email')
    .action(async (who: string, _options, command: Command) => {
      const client = cli.client(command);
      const orgId = cli.org(command);
      const member = await resolveMember(client, orgId, who);
      await client.delete(memberPath(orgId, member.userId));
      await cli.print(command, {
        data: { orgId, userId: member.userId, email: member.email, removed: true },
        text: `Removed ${member.email} (${member.userId}) from ${orgId}`,
      });
    });
}
