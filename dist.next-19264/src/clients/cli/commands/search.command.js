import { ctePath } from '../../api-client/paths.js';
import { parseInteger } from '../cli.js';
export function registerSearchCommand(program, cli) {
    program
        .command('search <text>')
        .description('requirements of every framework closest in meaning to a text')
        .option('--limit <n>', 'how many results (1-100)', parseInteger, 10)
        .action(async (text, options, command) => {
        const result = await cli.client(command).post(ctePath('embeddings', 'distance'), {
            query: text,
            limit: options.limit,
        });
        await cli.print(command, {
            data: result,
            text: `model: ${result.model}\n`,
            table: {
                columns: ['DISTANCE', 'FRAMEWORK', 'REQUIREMENT', 'TITLE'],
                rows: result.results.map((hit) => [
                    hit.distance.toFixed(4),
                    hit.frameworkId,
                    hit.requirementId,
                    hit.title,
                ]),
            },
        });
    });
}
//# sourceMappingURL=search.command.js.map