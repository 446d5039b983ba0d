import { ctePath } from '../../api-client/paths.js';
import { parseInteger } from '../cli.js';
export function registerSimilarCommand(program, cli) {
    program
        .command('similar <frameworkId> <requirementId>')
        .description('requirements of other frameworks nearest in meaning to one, and whether an edge joins them')
        .option('--limit <n>', 'how many (1-100)', parseInteger, 10)
        .option('--framework <frameworkId>', 'only requirements of this framework')
        .action(async (frameworkId, requirementId, options, command) => {
        const result = await cli
            .client(command)
            .get(ctePath('frameworks', frameworkId, 'requirements', requirementId, 'similar'), {
            limit: options.limit,
            frameworkId: options.framework,
        });
        await cli.print(command, {
            data: result,
            text: `${result.frameworkId} ${result.requirementId} (model: ${result.model})\n`,
            table: {
                columns: ['DISTANCE', 'FRAMEWORK', 'REQUIREMENT', 'MAPPED', 'TITLE'],
                rows: result.results.map((hit) => [
                    hit.distance.toFixed(4),
                    hit.frameworkId,
                    hit.requirementId,
                    hit.mapped ? 'yes' : 'no',
                    hit.title,
                ]),
            },
        });
    });
}
//# sourceMappingURL=similar.command.js.map