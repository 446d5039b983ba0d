import { orgPath } from '../../api-client/paths.js';
import { describe, print } from '../output.js';
const showOrg = (json, org) => print({ json }, {
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
});
export function registerOrgCommands(program, cli) {
    const orgs = program.command('orgs').description('organizations');
    orgs
        .command('create <orgId>')
        .description('create an organization (platform key)')
        .requiredOption('--name <name>', 'display name')
        .action(async (orgId, options, command) => {
        await showOrg(cli.json(command), await cli.client(command).post(orgPath(), { orgId, name: options.name }));
    });
    orgs
        .command('show [orgId]')
        .description('an organization with its compliance summary (default: --org / COMPLY_ORG)')
        .action(async (orgId, _options, command) => {
        const id = orgId ?? cli.org(command);
        await showOrg(cli.json(command), await cli.client(command).get(orgPath(id)));
    });
    orgs
        .command('list')
        .description('all organizations (platform key)')
        .action(async (_options, command) => {
        const result = await cli
            .client(command)
            .get(orgPath());
        await cli.print(command, {
            data: result,
            table: {
                columns: ['ORG', 'NAME', 'CREATED'],
                rows: result.orgs.map((o) => [o.orgId, o.name, o.createdAt]),
            },
        });
    });
}
//# sourceMappingURL=orgs.command.js.map