import { REQUIREMENT_STATUSES } from '../../../shared/vocabulary.js';
import { controlPath, libraryControlPath } from '../../api-client/paths.js';
import { parseBoolean, UsageError } from '../cli.js';
import { describe, print } from '../output.js';
const showOrgControl = (json, control) => print({ json }, {
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
});
export function registerControlCommands(program, cli) {
    const controls = program
        .command('controls')
        .description('the ISO/IEC 42001 control library and an org’s controls');
    controls
        .command('list')
        .description("the library, or with --org the org's controls and their status")
        .option('--domain <domain>', 'only one Annex A domain, e.g. A.6')
        .option('--search <text>', 'ranked full-text search (library)')
        .option('--status <status>', `org controls with this status: ${REQUIREMENT_STATUSES.join(', ')}`)
        .option('--applicable <bool>', 'org controls that are (true) or are not (false) applicable', parseBoolean)
        .action(async (options, command) => {
        const json = cli.json(command);
        const org = cli.optionalOrg(command);
        if (org && !options.search) {
            const result = await cli.client(command).get(controlPath(org), {
                domain: options.domain,
                status: options.status,
                applicable: options.applicable,
            });
            await print({ json }, {
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
            });
            return;
        }
        if (options.status || options.applicable !== undefined)
            throw new UsageError('--status and --applicable need --org');
        const result = await cli.client(command).get(libraryControlPath(), {
            domain: options.domain,
            search: options.search,
        });
        await print({ json }, {
            data: result,
            table: {
                columns: ['CONTROL', 'DOMAIN', 'TITLE'],
                rows: result.controls.map((c) => [c.controlId, c.domain, c.title]),
            },
        });
    });
    controls
        .command('show <controlId>')
        .description("one control: the org's state with --org, else the library entry")
        .action(async (controlId, _options, command) => {
        const json = cli.json(command);
        const org = cli.optionalOrg(command);
        if (org) {
            await showOrgControl(json, await cli.client(command).get(controlPath(org, controlId)));
            return;
        }
        const control = await cli.client(command).get(libraryControlPath(controlId));
        await print({ json }, {
            data: control,
            text: `${control.controlId}  ${control.title}\n${control.domain} ${control.domainTitle}\n\n${control.description}`,
        });
    });
    controls
        .command('status <controlId> <status>')
        .description(`set a control's status: ${REQUIREMENT_STATUSES.join(', ')}`)
        .requiredOption('--reviewer <user>', 'who made the change')
        .option('--note <text>', 'why, for the change log')
        .action(async (controlId, status, options, command) => {
        const control = await cli
            .client(command)
            .put(controlPath(cli.org(command), controlId, '/status'), {
            status,
            reviewer: options.reviewer,
            note: options.note,
        });
        await showOrgControl(cli.json(command), control);
    });
    controls
        .command('applicability <controlId>')
        .description('record whether a control applies, with a justification and reviewer')
        .requiredOption('--applicable <bool>', 'true or false', parseBoolean)
        .requiredOption('--justification <text>', 'why it does or does not apply')
        .requiredOption('--reviewer <user>', 'who decided')
        .action(async (controlId, options, command) => {
        const control = await cli
            .client(command)
            .put(controlPath(cli.org(command), controlId, '/applicability'), options);
        await showOrgControl(cli.json(command), control);
    });
}
//# sourceMappingURL=controls.command.js.map