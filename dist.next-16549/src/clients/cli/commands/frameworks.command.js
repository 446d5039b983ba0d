import { ctePath } from '../../api-client/paths.js';
import { describe } from '../output.js';
/** `comply frameworks`: the group, with `list` and `show`; it is returned so that others can add to it. */
export function registerFrameworksCommand(program, cli) {
    const frameworks = program
        .command('frameworks')
        .description('the frameworks the Compliance Topology Engine analyses');
    frameworks
        .command('list')
        .description('built-in and imported frameworks with their size')
        .action(async (_options, command) => {
        const result = await cli.client(command).get(ctePath('frameworks'));
        await cli.print(command, {
            data: result,
            table: {
                columns: ['ID', 'CONTROLS', 'DOMAINS', 'NAME'],
                rows: result.frameworks.map((f) => [f.id, f.controlCount, f.domains, f.name]),
            },
        });
    });
    frameworks
        .command('show <frameworkId>')
        .description('one framework and its requirements')
        .action(async (frameworkId, _options, command) => {
        const framework = await cli.client(command).get(ctePath('frameworks', frameworkId));
        await cli.print(command, {
            data: framework,
            text: `${describe({
                framework: `${framework.id}  ${framework.name}`,
                version: framework.version,
                publisher: framework.publisher,
                kind: `${framework.kind}${framework.imported ? ' (imported)' : ''}`,
                requirements: framework.controlCount,
                domains: framework.domains,
            })}\n`,
            table: {
                columns: ['REQUIREMENT', 'DOMAIN', 'LEGAL', 'TITLE'],
                rows: framework.controls.map((c) => [c.controlId, c.domain, c.legal ? 'yes' : 'no', c.title]),
            },
        });
    });
    return frameworks;
}
//# sourceMappingURL=frameworks.command.js.map