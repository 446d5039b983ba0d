import { writeFile } from 'node:fs/promises';
import { Option } from 'commander';
import { SOA_FORMATS } from '../../../shared/vocabulary.js';
import { exportPath } from '../../api-client/paths.js';
import { UsageError } from '../cli.js';
import { print, withProgress } from '../output.js';
const BINARY_TYPES = ['application/zip', 'application/pdf'];
function size(bytes) {
    if (bytes < 1024)
        return `${bytes} B`;
    if (bytes < 1024 * 1024)
        return `${(bytes / 1024).toFixed(1)} kB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
/**
 * Fetches one export and writes it to `--output`, or to stdout when none is given (then stdout holds
 * the document alone, for pipes). A binary document is never written to a terminal.
 */
async function download(cli, command, label, path, query, target) {
    const json = cli.json(command);
    const client = cli.client(command);
    const response = await withProgress({ json }, label, () => client.raw('GET', path, { query }));
    const contentType = response.headers.get('content-type') ?? 'application/octet-stream';
    if (!target.output) {
        if (process.stdout.isTTY && BINARY_TYPES.some((type) => contentType.startsWith(type))) {
            throw new UsageError(`refusing to write ${contentType} to a terminal: use -o <file> or redirect stdout`);
        }
        await new Promise((resolve, reject) => process.stdout.write(response.body, (error) => (error ? reject(error) : resolve())));
        return;
    }
    await writeFile(target.output, response.body);
    const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? null;
    await print({ json }, {
        data: { file: target.output, bytes: response.body.length, contentType, fileName },
        text: `wrote ${target.output} (${size(response.body.length)}, ${contentType.split(';')[0]})`,
    });
}
export function registerExportCommands(program, cli) {
    const exports = program
        .command('export')
        .description('export the org for auditors and pipelines: OSCAL package or Statement of Applicability');
    exports
        .command('oscal')
        .description('the OSCAL 1.2.1 package: five documents, each valid against NIST’s schema')
        .option('-o, --output <file>', 'write to this file instead of stdout')
        .option('--zip', 'the five documents as a zip archive instead of the JSON envelope')
        .action(async (options, command) => {
        await download(cli, command, 'Exporting the OSCAL package', exportPath(cli.org(command), 'oscal'), { format: options.zip ? 'zip' : undefined }, options);
    });
    exports
        .command('soa')
        .description('the Statement of Applicability of every ISO/IEC 42001 Annex A control')
        .addOption(new Option('--format <format>', 'document format').choices(SOA_FORMATS).default('json'))
        .option('--snapshot <snapshotId>', 'the state frozen in this compliance snapshot')
        .option('-o, --output <file>', 'write to this file instead of stdout')
        .action(async (options, command) => {
        await download(cli, command, 'Exporting the Statement of Applicability', exportPath(cli.org(command), 'soa'), { format: options.format, snapshotId: options.snapshot }, options);
    });
}
//# sourceMappingURL=export.command.js.map