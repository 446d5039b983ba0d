import type { Command } from 'commander';
import { ctePath } from '../../api-client/paths.js';
import type { SimilarResult } from '../../api-client/types.js';
import { type Cli, parseInteger } from '../cli.js';

export function registerSimilarCommand(program: Command, cli: Cli): void {
  program
    .command('similar <frameworkId> <requirementId>')
    .description('requirements of other frameworks nearest in meaning to one, and whether an edge joins them')
    .option('--limit <n>', 'how many (1-100)', parseInteger, 10)
    .option('--framework <frameworkId>', 'only requirements of this framework')
    .action(
      async (
        frameworkId: string,
        requirementId: string,
        options: { limit: number; framework?: string },
        command: Command,
      ) => {
        const result = await cli
          .client(command)
          .get<SimilarResult>(ctePath('frameworks', frameworkId, 'requirements', requirementId, 'similar'), {
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
      },
    );
}
