import type { Command } from 'commander';
import type { OrgView } from '../../../features/orgs/orgs.service.js';
import { orgPath } from '../../api-client/paths.js';
import type { Cli } from '../cli.js';
import { describe, print } from '../output.js';

const showOrg = (json: boolean, org: OrgView) =>
  print(
    { json },
    {
      data: org,
      text: describe({
        orgId: org.orgId,
        name: org.name,
        created: org.createdAt,
        score: org.compliance.score === null ? 'n/a' : `${org.compliance.score}%`,
        implemented: org.compliance.counts.implemented,
        'in progress': org.compliance.counts.inProgress,
        'not started': org.compliance.counts.notStarted,
        'not applicable': org.compliance.counts.notApplicable,
      }),
    },
  );

export function registerOrgCommands(program: Command, cli: Cli): void {
  const orgs = program.command('orgs').description('organizations');

  orgs
    .command('create <orgId>')
    .description('create an organization (platform key)')
    .requiredOption('--name <name>', 'display name')
    .action(async (orgId: string, options: { name: string }, command: Command) => {
      await showOrg(
        cli.json(command),
        await cli.client(command).post<OrgView>(orgPath(), { orgId, name: options.name }),
      );
    });

  orgs
    .command('show [orgId]')
    .description('an organization with its compliance summary (default: --org / COMPLY_ORG)')
    .action(async (orgId: string | undefined, _options, command: Command) => {
      const id = orgId ?? cli.org(command);
      await showOrg(cli.json(command), await cli.client(command).get<OrgView>(orgPath(id)));
    });

  orgs
    .command('list')
    .description('all organizations (platform key)')
    .action(async (_options, command: Command) => {
      const result = await cli
        .client(command)
        .get<{ orgs: { orgId: string; name: string; createdAt: string }[] }>(orgPath());
      await cli.print(command, {
        data: result,
        table: {
          columns: ['ORG', 'NAME', 'CREATED'],
          rows: result.orgs.map((o) => [o.orgId, o.name, o.createdAt]),
        },
      });
    });
}
