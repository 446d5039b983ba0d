import { Argument, type Command, Option } from 'commander';
import type { ControlView, OrgControlView } from '../../../features/controls/controls.service.js';
import { REQUIREMENT_STATUSES } from '../../../shared/vocabulary.js';
import { controlPath, libraryControlPath } from '../../api-client/paths.js';
import { type Cli, parseBoolean, UsageError } from '../cli.js';
import { describe, print } from '../output.js';

const showOrgControl = (json: boolean, control: OrgControlView) =>
  print(
    { json },
    {
      data: control,
      text: describe({
        control: `${control.controlId} ${control.title}`,
        domain: control.domain,
        status: control.status,
        applicable: control.applicable,
        justification: control.justification,
        reviewer: control.reviewer,
        updated: control.updatedAt,
        evidence: `${control.evidenceCount}${control.evidenceExpired ? ' (all expired)' : ''}`,
      }),
    },
  );

export function registerControlCommands(program: Command, cli: Cli): void {
  const controls = program
    .command('controls')
    .description('the ISO/IEC 42001 control library and an org’s controls');

  controls
    .command('list')
    .description("the library, or with --org the org's controls and their status")
    .option('--domain <domain>', 'only one Annex A domain, e.g. A.6')
    .option('--search <text>', 'ranked full-text search (library)')
    .addOption(new Option('--status <status>', 'org controls with this status').choices(REQUIREMENT_STATUSES))
    .option('--applicable <bool>', 'org controls that are (true) or are not (false) applicable', parseBoolean)
    .action(
      async (
        options: { domain?: string; search?: string; status?: string; applicable?: boolean },
        command: Command,
      ) => {
        const json = cli.json(command);
        const org = cli.optionalOrg(command);
        if (org && !options.search) {
          const result = await cli.client(command).get<{ controls: OrgControlView[] }>(controlPath(org), {
            domain: options.domain,
            status: options.status,
            applicable: options.applicable,
          });
          await print(
            { json },
            {
              data: result,
              table: {
                columns: ['CONTROL', 'STATUS', 'APPLICABLE', 'EVIDENCE', 'TITLE'],
                rows: result.controls.map((c) => [
                  c.controlId,
                  c.status,
                  c.applicable ? 'yes' : 'no',
                  c.evidenceCount,
                  c.title,
                ]),
              },
            },
          );
          return;
        }
        if (options.status || options.applicable !== undefined)
          throw new UsageError('--status and --applicable need --org');
        const result = await cli.client(command).get<{ controls: ControlView[] }>(libraryControlPath(), {
          domain: options.domain,
          search: options.search,
        });
        await print(
          { json },
          {
            data: result,
            table: {
              columns: ['CONTROL', 'DOMAIN', 'TITLE'],
              rows: result.controls.map((c) => [c.controlId, c.domain, c.title]),
            },
          },
        );
      },
    );

  controls
    .command('show <controlId>')
    .description("one control: the org's state with --org, else the library entry")
    .action(async (controlId: string, _options, command: Command) => {
      const json = cli.json(command);
      const org = cli.optionalOrg(command);
      if (org) {
        await showOrgControl(
          json,
          await cli.client(command).get<OrgControlView>(controlPath(org, controlId)),
        );
        return;
      }
      const control = await cli.client(command).get<ControlView>(libraryControlPath(controlId));
      await print(
        { json },
        {
          data: control,
          text: `${control.controlId}  ${control.title}\n${control.domain} ${control.domainTitle}\n\n${control.description}`,
        },
      );
    });

  controls
    .command('status')
    .argument('<controlId>', 'an ISO/IEC 42001 control, e.g. A.6.2.8')
    .addArgument(new Argument('<status>', 'the new status').choices(REQUIREMENT_STATUSES))
    .description(`set a control's status: ${REQUIREMENT_STATUSES.join(', ')}`)
    .requiredOption('--reviewer <user>', 'who made the change')
    .option('--note <text>', 'why, for the change log')
    .action(
      async (
        controlId: string,
        status: string,
        options: { reviewer: string; note?: string },
        command: Command,
      ) => {
        const control = await cli
          .client(command)
          .put<OrgControlView>(controlPath(cli.org(command), controlId, '/status'), {
            status,
            reviewer: options.reviewer,
            note: options.note,
          });
        await showOrgControl(cli.json(command), control);
      },
    );

  controls
    .command('applicability <controlId>')
    .description('record whether a control applies, with a justification and reviewer')
    .requiredOption('--applicable <bool>', 'true or false', parseBoolean)
    .requiredOption('--justification <text>', 'why it does or does not apply')
    .requiredOption('--reviewer <user>', 'who decided')
    .action(
      async (
        controlId: string,
        options: { applicable: boolean; justification: string; reviewer: string },
        command: Command,
      ) => {
        const control = await cli
          .client(command)
          .put<OrgControlView>(controlPath(cli.org(command), controlId, '/applicability'), options);
        await showOrgControl(cli.json(command), control);
      },
    );
}
