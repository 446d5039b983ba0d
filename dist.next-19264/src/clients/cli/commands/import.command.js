import { readFile } from 'node:fs/promises';
import { ctePath } from '../../api-client/paths.js';
import { UsageError } from '../cli.js';
import { describe, print, withProgress } from '../output.js';
export function registerImportCommand(program, cli) {
    program
        .command('import')
        .description('bring outside content into comply')
        .command('oscal <file>')
        .description('import an OSCAL catalog (JSON) as a framework (platform key); again to replace it')
        .option('--id <frameworkId>', 'store it under this id instead of a slug of its title')
        .action(async (file, options, command) => {
        const json = cli.json(command);
        let document;
        try {
            document = JSON.parse(await readFile(file, 'utf8'));
        }
        catch (error) {
            throw new UsageError(`Cannot read ${file} as JSON: ${error.message}`);
        }
        const client = cli.client(command);
        const result = await withProgress({ json }, `Importing ${file}`, () => client.request('POST', ctePath('frameworks', 'import'), {
            query: { frameworkId: options.id },
            body: document,
        }));
        await print({ json }, {
            data: result,
            text: describe({
                framework: `${result.id}  ${result.name}`,
                version: result.version,
                requirements: result.controlCount,
                domains: result.domains,
                'withdrawn skipped': result.skippedWithdrawn,
                outcome: result.outcome,
            }),
        });
    });
}
//# sourceMappingURL=import.command.js.map