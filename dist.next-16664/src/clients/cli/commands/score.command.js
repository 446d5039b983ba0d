import { score as percent } from '../../api-client/format.js';
import { compliancePath, frameworkPath } from '../../api-client/paths.js';
import { describe, print } from '../output.js';
import { countsText, domainTable, frameworkOption, trend } from '../views/score-view.js';
/** The score of any framework, with how much of it rests on the org's own records. */
async function frameworkScore(cli, command, frameworkId) {
    const client = cli.client(command);
    const org = cli.org(command);
    const json = cli.json(command);
    const score = await client.get(frameworkPath(org, frameworkId, '/compliance'));
    if (json) {
        await print({ json }, { data: score });
        return;
    }
    const history = await client.get(frameworkPath(org, frameworkId, '/compliance/history'));
    const { direct, inferred, none } = score.assessed;
    await print({ json }, {
        data: score,
        text: `${describe({
            framework: score.frameworkId,
            score: `${percent(score.score)}  (${countsText(score)})`,
            'direct score': `${percent(score.directScore)}  (the org's own records only)`,
            assessed: `${direct} direct, ${inferred} inferred, ${none} none  (applicable requirements)`,
            trend: `${trend(history)}  (${history.points.length} days)`,
        })}${score.byDomain.length ? '\n' : ''}`,
        table: score.byDomain.length ? domainTable(score.byDomain, 'REQUIREMENTS') : undefined,
    });
}
export function registerScoreCommand(program, cli) {
    program
        .command('score')
        .description("the org's compliance score, its trend over the last 30 days and the score per domain")
        .addOption(frameworkOption('the score'))
        .addHelpText('after', `
With --framework, the score counts effective statuses (the org's own records, else what the crosswalk
infers); it also shows the direct score (own records only) and how many applicable requirements take
their status from each source.

Example:
  $ comply score
  $ comply score --framework eu-ai-act --json`)
        .action(async (options, command) => {
        if (options.framework !== undefined) {
            await frameworkScore(cli, command, options.framework);
            return;
        }
        const client = cli.client(command);
        const org = cli.org(command);
        const json = cli.json(command);
        const score = await client.get(compliancePath(org));
        if (json) {
            await print({ json }, { data: score });
            return;
        }
        const history = await client.get(compliancePath(org, '/history'));
        await print({ json }, {
            data: score,
            text: [
                `score  ${percent(score.score)}  (${countsText(score)})`,
                `trend  ${trend(history)}  (${history.points.length} days)`,
                '',
            ].join('\n'),
            table: domainTable(score.byDomain, 'CONTROLS'),
        });
    });
}
//# sourceMappingURL=score.command.js.map