import { percent } from '../../api-client/format.js';
import { ctePath } from '../../api-client/paths.js';
import { describe, print } from '../output.js';
import { bar } from '../ui/bar.js';
import { printHeatmap } from '../ui/cte-heatmap.js';
export function registerCoverageCommand(program, cli) {
    program
        .command('coverage [frameworkId] [requirementId]')
        .description('coverage of every framework and the pairwise heatmap; with a framework, each requirement; with a requirement too, why')
        .action(async (frameworkId, requirementId, _o, command) => {
        const client = cli.client(command);
        const query = { orgId: cli.optionalOrg(command) };
        const json = cli.json(command);
        if (frameworkId && requirementId) {
            const why = await client.get(ctePath('coverage', frameworkId, requirementId), query);
            const lines = why.justifications.map((j) => `  ${j.controlId} (${j.controlStatus}, ${j.credit}): ${j.path.map((hop) => hop.text).join(' → ')}`);
            const options = why.candidates.map((c) => `  ${c.controlId} ${c.title} (${c.orgStatus}), up to ${percent(c.strength)}`);
            const joint = why.joint
                ? [
                    `mapped controls (${why.joint.status}${why.joint.inferred ? ', inferred' : ''}): ${why.joint.controls.join(' ') || 'none applicable'}`,
                    ...(why.joint.remaining.length
                        ? [`still to implement: ${why.joint.remaining.join(' ')}`]
                        : []),
                    ...(why.joint.excluded.length ? [`excluded: ${why.joint.excluded.join(' ')}`] : []),
                ]
                : [];
            await print({ json }, {
                data: why,
                text: [
                    describe({
                        requirement: `${why.frameworkId} ${why.requirementId}  ${why.title}`,
                        status: why.status,
                        strength: why.strength,
                    }),
                    `covered by:${lines.length ? `\n${lines.join('\n')}` : ' nothing yet'}`,
                    ...joint,
                    ...(options.length ? [`controls that reach it:\n${options.join('\n')}`] : []),
                ].join('\n'),
            });
            return;
        }
        if (frameworkId) {
            const result = await client.get(ctePath('coverage', frameworkId), query);
            await print({ json }, {
                data: result,
                text: `${result.frameworkId}: ${percent(result.coverage)} (${result.covered} covered, ${result.partial} partial, ${result.uncovered} uncovered)\n`,
                table: {
                    columns: ['REQUIREMENT', 'STATUS', 'COVERED BY', 'TITLE'],
                    rows: result.requirements.map((r) => [
                        r.requirementId,
                        r.joint?.status === 'excluded' && r.status === 'uncovered'
                            ? 'uncovered (excluded)'
                            : r.status,
                        r.coveredBy.join(' '),
                        r.title,
                    ]),
                },
            });
            return;
        }
        const report = await client.get(ctePath('coverage'), query);
        await print({ json }, {
            data: report,
            text: `Coverage of ${report.orgId} (statuses of its ${report.baseFrameworkId} controls, through the crosswalk)\n`,
            table: {
                columns: [
                    'FRAMEWORK',
                    'COVERAGE',
                    '',
                    'COVERED',
                    'PARTIAL',
                    'UNCOVERED',
                    'N/A',
                    'BY EXCLUSION',
                ],
                rows: report.frameworks.map((f) => [
                    f.frameworkId,
                    percent(f.coverage),
                    bar(f.coverage),
                    f.covered,
                    f.partial,
                    f.uncovered,
                    f.notApplicable,
                    f.excluded,
                ]),
            },
        });
        if (json)
            return;
        process.stdout.write('\nPairwise: a row implemented in full covers this much of each column\n');
        await printHeatmap(report.frameworks.map((f) => f.frameworkId), report.pairwise);
    });
}
//# sourceMappingURL=coverage.command.js.map