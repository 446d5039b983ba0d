import { Option } from 'commander';
import { ASSESSMENT_SOURCES, REQUIREMENT_STATUSES } from '../../../shared/vocabulary.js';
import { frameworkPath, requirementPath } from '../../api-client/paths.js';
import { parseBoolean } from '../cli.js';
import { showRequirement } from '../views/requirement-view.js';
/** Titles are cut so the columns after them stay aligned in plain text too. */
const TITLE_WIDTH = 48;
const truncate = (text, width = TITLE_WIDTH) => text.length > width ? `${text.slice(0, width - 1)}…` : text;
export function registerRequirementCommands(program, cli) {
    const requirements = program
        .command('requirements')
        .description("requirements of any framework with the org's assessment: its own record, what the crosswalk infers, or neither");
    requirements
        .command('list <frameworkId>')
        .description("every requirement of a framework with the org's status and where it comes from")
        .addOption(new Option('--status <status>', 'only this effective status').choices(REQUIREMENT_STATUSES))
        .addOption(new Option('--assessment <source>', 'only statuses from this source').choices(ASSESSMENT_SOURCES))
        .option('--applicable <bool>', 'only requirements that are (true) or are not (false) applicable', parseBoolean)
        .addHelpText('after', `
STATUS is the effective status: the org's own record (ASSESSMENT direct), else what the crosswalk
infers from the org's records of other frameworks (inferred), else not_started (none). INFERRED
shows the crosswalk's status where a direct record says something else.

Example:
  $ comply requirements list eu-ai-act --assessment inferred
  $ comply requirements list nist-ai-rmf --status in_progress --json`)
        .action(async (frameworkId, options, command) => {
        const result = await cli
            .client(command)
            .get(frameworkPath(cli.org(command), frameworkId, '/requirements'), options);
        await cli.print(command, {
            data: result,
            table: {
                columns: ['REQUIREMENT', 'TITLE', 'STATUS', 'ASSESSMENT', 'INFERRED', 'APPLICABLE', 'EVIDENCE'],
                rows: result.requirements.map((r) => [
                    r.requirementId,
                    truncate(r.title),
                    r.status,
                    r.assessment,
                    r.inferred.status === r.status ? undefined : r.inferred.status,
                    r.applicable ? 'yes' : 'no',
                    r.evidenceCount,
                ]),
            },
        });
    });
    requirements
        .command('show <frameworkId> <requirementId>')
        .description("one requirement: the org's record and the crosswalk reasoning behind its inferred status")
        .addHelpText('after', `
Quote requirement ids that contain spaces or parentheses.

Example:
  $ comply requirements show eu-ai-act "Art. 26(6)"
  $ comply requirements show nist-ai-rmf "GOVERN 1.1" --json`)
        .action(async (frameworkId, requirementId, _options, command) => {
        await showRequirement(cli.json(command), await cli
            .client(command)
            .get(requirementPath(cli.org(command), frameworkId, requirementId)));
    });
}
//# sourceMappingURL=requirements.command.js.map