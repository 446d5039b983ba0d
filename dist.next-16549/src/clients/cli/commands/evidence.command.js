import { Option } from 'commander';
import { EVIDENCE_TYPES } from '../../../shared/vocabulary.js';
import { controlPath, requirementPath } from '../../api-client/paths.js';
import { parseInteger } from '../cli.js';
import { describe } from '../output.js';
/** An ISO/IEC 42001 control's evidence by default; with --framework, a requirement of that framework. */
const evidencePath = (org, requirementId, frameworkId) => frameworkId === undefined
    ? controlPath(org, requirementId, '/evidence')
    : requirementPath(org, frameworkId, requirementId, '/evidence');
const frameworkOption = () => new Option('--framework <frameworkId>', 'a requirement of this framework (e.g. eu-ai-act, nist-ai-rmf) instead of an ISO/IEC 42001 control');
const validity = (item) => item.expiresAt ? `${item.expiresAt.slice(0, 10)}${item.expired ? ' (expired)' : ''}` : 'never';
export function registerEvidenceCommands(program, cli) {
    const evidence = program
        .command('evidence')
        .description("a control's evidence: attestations, documents, links; with --framework, any requirement's");
    evidence
        .command('add')
        .argument('<controlId>', 'an ISO/IEC 42001 control, or with --framework a requirement id, e.g. "Art. 26(6)"')
        .description('attach evidence to a control of --org, or with --framework to a requirement of that framework')
        .addOption(frameworkOption())
        .addOption(new Option('--type <type>', 'kind of evidence').choices(EVIDENCE_TYPES).makeOptionMandatory())
        .requiredOption('--title <title>', 'what it is')
        .option('--description <text>', 'more detail')
        .option('--file-url <url>', 'absolute http(s) URL of the file (required for document and link)')
        .option('--effective <date>', 'valid from (YYYY-MM-DD or ISO date-time)')
        .option('--expires <date>', 'valid until (YYYY-MM-DD or ISO date-time)')
        .addHelpText('after', `
Example:
  $ comply evidence add A.6.2.8 --type link --title "Logging policy" --file-url https://example.com/logging
  $ comply evidence add --framework eu-ai-act "Art. 26(6)" --type document --title "Log retention" \\
      --file-url https://example.com/retention.pdf --expires 2027-06-30`)
        .action(async (controlId, options, command) => {
        const item = await cli
            .client(command)
            .post(evidencePath(cli.org(command), controlId, options.framework), {
            type: options.type,
            title: options.title,
            description: options.description,
            fileUrl: options.fileUrl,
            effectiveDate: options.effective,
            expiresAt: options.expires,
        });
        await cli.print(command, {
            data: item,
            text: describe({
                evidenceId: item.evidenceId,
                ...(item.frameworkId === undefined
                    ? { control: item.controlId }
                    : { framework: item.frameworkId, requirement: item.controlId }),
                type: item.type,
                title: item.title,
                url: item.fileUrl,
                effective: item.effectiveDate,
                expires: validity(item),
                created: item.createdAt,
            }),
        });
    });
    evidence
        .command('list')
        .argument('<controlId>', 'an ISO/IEC 42001 control, or with --framework a requirement id, e.g. "GOVERN 1.1"')
        .description("a page of a control's evidence, or with --framework a requirement's, newest first")
        .addOption(frameworkOption())
        .addOption(new Option('--type <type>', 'only this kind').choices(EVIDENCE_TYPES))
        .option('--limit <n>', 'page size, 1..200', parseInteger, 50)
        .option('--offset <n>', 'items to skip', parseInteger, 0)
        .addHelpText('after', `
Example:
  $ comply evidence list A.6.2.8 --type link
  $ comply evidence list --framework nist-ai-rmf "GOVERN 1.1" --json`)
        .action(async (controlId, options, command) => {
        const { framework, ...query } = options;
        const page = await cli
            .client(command)
            .get(evidencePath(cli.org(command), controlId, framework), query);
        const last = page.offset + page.evidence.length;
        await cli.print(command, {
            data: page,
            text: page.total ? `${page.offset + 1}–${last} of ${page.total}` : 'no evidence',
            table: page.evidence.length
                ? {
                    columns: ['ID', 'TYPE', 'CREATED', 'EXPIRES', 'TITLE'],
                    rows: page.evidence.map((item) => [
                        item.evidenceId,
                        item.type,
                        item.createdAt,
                        validity(item),
                        item.title,
                    ]),
                }
                : undefined,
        });
    });
}
//# sourceMappingURL=evidence.command.js.map