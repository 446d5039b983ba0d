import { type Command, Option } from 'commander';
import { soaChecksPath } from '../../api-client/paths.js';
import type { SoaChecks } from '../../api-client/types.js';
import type { Cli } from '../cli.js';

const SEVERITIES = ['high', 'medium', 'low'] as const;

/** `comply soa checks`: what an auditor would catch in the Statement of Applicability, for people and pipelines. */
export function registerSoaCommands(program: Command, cli: Cli): void {
  const soa = program
    .command('soa')
    .description('the Statement of Applicability as computed from risk treatment');
  soa
    .command('checks')
    .description(
      'the consistency checks of the SoA: excluded controls that treat a risk, risks without treatment or needing ' +
        'acceptance, stale or expired acceptances, overdue treatments, high-risk systems without an approved ' +
        'impact assessment, assessments due',
    )
    .addOption(
      new Option(
        '--fail-on <severity>',
        'exit 1 when a check of this severity or above is found (pipelines)',
      ).choices(SEVERITIES),
    )
    .addHelpText(
      'after',
      `
Examples:
  $ comply --org acme soa checks
  $ comply --org acme soa checks --fail-on high --json`,
    )
    .action(async (options: { failOn?: (typeof SEVERITIES)[number] }, command: Command) => {
      const result = await cli.client(command).get<SoaChecks>(soaChecksPath(cli.org(command)));
      await cli.print(command, {
        data: result,
        ...(result.checks.length
          ? {
              table: {
                columns: ['SEVERITY', 'KIND', 'SUBJECT', 'MESSAGE'],
                rows: result.checks.map((check) => [
                  check.severity,
                  check.kind,
                  check.controlId ?? check.riskId ?? check.systemId ?? check.assessmentId ?? '',
                  check.message,
                ]),
              },
            }
          : { text: `The Statement of Applicability of ${result.orgId} passes every check.` }),
      });
      if (options.failOn) {
        const worst = SEVERITIES.slice(0, SEVERITIES.indexOf(options.failOn) + 1);
        if (result.checks.some((check) => (worst as readonly string[]).includes(check.severity)))
          process.exitCode = 1;
      }
    });
}
