import type { Command } from 'commander';
import { ctePath } from '../../api-client/paths.js';
import type { SearchResult } from '../../api-client/types.js';
import { type Cli, parseInteger } from '../cli.js';

export function registerSearchCommand(program: Command, cli: Cli): void {
  program
    .command('search <text>')
    .description('requirements of every framework closest in meaning to a text')
    .option('--limit <n>', 'how many results (1-100)', parseInteger, 10)
    .action(async (text: string, options: { limit: number }, command: Command) => {
      const result = await cli.client(command).post<SearchResult>(ctePath('embeddings', 'distance'), {
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
