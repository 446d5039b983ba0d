import { Option } from 'commander';
import { LIFECYCLE_STAGES, RISK_LEVELS } from '../../../shared/vocabulary.js';
import { aiSystemPath } from '../../api-client/paths.js';
import { UsageError } from '../cli.js';
import { describe, print } from '../output.js';
const riskOption = (description) => new Option('--risk <level>', description).choices(RISK_LEVELS);
const stageOption = (description) => new Option('--stage <stage>', description).choices(LIFECYCLE_STAGES);
const body = (options) => ({
    name: options.name,
    owner: options.owner,
    purpose: options.purpose,
    riskLevel: options.risk,
    lifecycleStage: options.stage,
    description: options.description,
});
const showSystem = (json, system) => print({ json }, {
    data: system,
    text: describe({
        systemId: system.systemId,
        name: system.name,
        risk: system.riskLevel,
        stage: system.lifecycleStage,
        owner: system.owner,
        purpose: system.purpose,
        description: system.description,
        updated: system.updatedAt,
    }),
});
export function registerSystemCommands(program, cli) {
    const systems = program.command('systems').description("the org's inventory of AI systems");
    systems
        .command('list')
        .description('AI systems of --org, by name')
        .addOption(riskOption('only this EU AI Act risk tier'))
        .addOption(stageOption('only this lifecycle stage'))
        .action(async (options, command) => {
        const result = await cli
            .client(command)
            .get(aiSystemPath(cli.org(command)), {
            riskLevel: options.risk,
            lifecycleStage: options.stage,
        });
        await cli.print(command, {
            data: result,
            table: {
                columns: ['ID', 'RISK', 'STAGE', 'OWNER', 'NAME'],
                rows: result.systems.map((s) => [s.systemId, s.riskLevel, s.lifecycleStage, s.owner, s.name]),
            },
        });
    });
    systems
        .command('add <name>')
        .description('register an AI system')
        .requiredOption('--owner <owner>', 'accountable person or team')
        .requiredOption('--purpose <text>', 'intended purpose')
        .addOption(riskOption('EU AI Act risk tier').makeOptionMandatory())
        .addOption(stageOption('lifecycle stage (default design)'))
        .option('--description <text>', 'what it is')
        .action(async (name, options, command) => {
        await showSystem(cli.json(command), await cli
            .client(command)
            .post(aiSystemPath(cli.org(command)), body({ ...options, name })));
    });
    systems
        .command('update <systemId>')
        .description('change any of the fields given; the others stay')
        .option('--name <name>', 'new name')
        .option('--owner <owner>', 'accountable person or team')
        .option('--purpose <text>', 'intended purpose')
        .addOption(riskOption('EU AI Act risk tier'))
        .addOption(stageOption('lifecycle stage'))
        .option('--description <text>', 'what it is')
        .action(async (systemId, options, command) => {
        const changes = Object.fromEntries(Object.entries(body(options)).filter(([, value]) => value !== undefined));
        if (Object.keys(changes).length === 0)
            throw new UsageError('Nothing to change: give at least one option');
        await showSystem(cli.json(command), await cli.client(command).put(aiSystemPath(cli.org(command), systemId), changes));
    });
    systems
        .command('remove <systemId>')
        .description('delete an AI system from the inventory')
        .action(async (systemId, _options, command) => {
        await cli.client(command).delete(aiSystemPath(cli.org(command), systemId));
        await cli.print(command, { data: { systemId, removed: true }, text: `removed ${systemId}` });
    });
}
//# sourceMappingURL=systems.command.js.map