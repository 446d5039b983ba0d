import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { percent } from '../../api-client/format.js';
import { ctePath } from '../../api-client/paths.js';
import type {
  ConflictList,
  Coverage,
  FrameworkCoverage,
  FrameworkDetail,
  FrameworkList,
  GapReport,
  ImportResult,
  RequirementCoverage,
  SearchResult,
} from '../../api-client/types.js';
import { type Cli, parseInteger, UsageError } from '../cli.js';
import { describe, print, withProgress } from '../output.js';
import { printHeatmap } from '../ui/cte-heatmap.js';
import { registerFrameworkStatusCommand } from './frameworks-status.command.js';

const bar = (value: number | null, width = 20) => {
  const filled = Math.round((value ?? 0) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
};

export function registerCteCommands(program: Command, cli: Cli): void {
  const frameworks = program
    .command('frameworks')
    .description('the frameworks the Compliance Topology Engine analyses');

  frameworks
    .command('list')
    .description('built-in and imported frameworks with their size')
    .action(async (_options, command: Command) => {
      const result = await cli.client(command).get<FrameworkList>(ctePath('frameworks'));
      await print(
        { json: cli.json(command) },
        {
          data: result,
          table: {
            columns: ['ID', 'CONTROLS', 'DOMAINS', 'NAME'],
            rows: result.frameworks.map((f) => [f.id, f.controlCount, f.domains, f.name]),
          },
        },
      );
    });

  frameworks
    .command('show <frameworkId>')
    .description('one framework and its requirements')
    .action(async (frameworkId: string, _options, command: Command) => {
      const framework = await cli.client(command).get<FrameworkDetail>(ctePath('frameworks', frameworkId));
      await print(
        { json: cli.json(command) },
        {
          data: framework,
          text: `${describe({
            framework: `${framework.id}  ${framework.name}`,
            version: framework.version,
            publisher: framework.publisher,
            kind: `${framework.kind}${framework.imported ? ' (imported)' : ''}`,
            requirements: framework.controlCount,
            domains: framework.domains,
          })}\n`,
          table: {
            columns: ['REQUIREMENT', 'DOMAIN', 'LEGAL', 'TITLE'],
            rows: framework.controls.map((c) => [c.controlId, c.domain, c.legal ? 'yes' : 'no', c.title]),
          },
        },
      );
    });

  registerFrameworkStatusCommand(frameworks, cli);

  program
    .command('gaps <frameworkId>')
    .description('unmet requirements of a framework for the org, by priority, with what to do')
    .action(async (frameworkId: string, _options, command: Command) => {
      const report = await cli.client(command).get<GapReport>(ctePath('gaps', frameworkId), {
        orgId: cli.optionalOrg(command),
      });
      const { critical, important, minor } = report.summary;
      await print(
        { json: cli.json(command) },
        {
          data: report,
          text: `${report.gaps.length} gaps in ${report.frameworkId}: ${critical} critical, ${important} important, ${minor} minor\n`,
          table: {
            columns: ['PRIORITY', 'REQUIREMENT', 'STATUS', 'RECOMMENDATION'],
            rows: report.gaps.map((gap) => [gap.priority, gap.controlId, gap.status, gap.recommendation]),
          },
        },
      );
    });

  program
    .command('coverage [frameworkId] [requirementId]')
    .description(
      'coverage of every framework and the pairwise heatmap; with a framework, each requirement; with a requirement too, why',
    )
    .action(
      async (frameworkId: string | undefined, requirementId: string | undefined, _o, command: Command) => {
        const client = cli.client(command);
        const query = { orgId: cli.optionalOrg(command) };
        const json = cli.json(command);
        if (frameworkId && requirementId) {
          const why = await client.get<RequirementCoverage>(
            ctePath('coverage', frameworkId, requirementId),
            query,
          );
          const lines = why.justifications.map(
            (j) =>
              `  ${j.controlId} (${j.controlStatus}, ${j.credit}): ${j.path.map((hop) => hop.text).join(' → ')}`,
          );
          const options = why.candidates.map(
            (c) => `  ${c.controlId} ${c.title} (${c.orgStatus}), up to ${percent(c.strength)}`,
          );
          const joint = why.joint
            ? [
                `mapped controls (${why.joint.status}${why.joint.inferred ? ', inferred' : ''}): ${why.joint.controls.join(' ') || 'none applicable'}`,
                ...(why.joint.remaining.length
                  ? [`still to implement: ${why.joint.remaining.join(' ')}`]
                  : []),
                ...(why.joint.excluded.length ? [`excluded: ${why.joint.excluded.join(' ')}`] : []),
              ]
            : [];
          await print(
            { json },
            {
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
            },
          );
          return;
        }
        if (frameworkId) {
          const result = await client.get<FrameworkCoverage>(ctePath('coverage', frameworkId), query);
          await print(
            { json },
            {
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
            },
          );
          return;
        }
        const report = await client.get<Coverage>(ctePath('coverage'), query);
        await print(
          { json },
          {
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
          },
        );
        if (json) return;
        process.stdout.write('\nPairwise: a row implemented in full covers this much of each column\n');
        await printHeatmap(
          report.frameworks.map((f) => f.frameworkId),
          report.pairwise,
        );
      },
    );

  program
    .command('conflicts')
    .description('requirements of different frameworks that pull against each other, with resolutions')
    .option('--framework <frameworkId>', 'only conflicts involving this framework')
    .option('--kind <kind>', 'contradiction, tension or overlap')
    .option('--severity <severity>', 'high, medium or low')
    .action(async (options: { framework?: string; kind?: string; severity?: string }, command: Command) => {
      const result = await cli.client(command).get<ConflictList>(ctePath('conflicts'), {
        frameworkId: options.framework,
        kind: options.kind,
        severity: options.severity,
      });
      await print(
        { json: cli.json(command) },
        {
          data: result,
          table: {
            columns: ['CONFLICT', 'KIND', 'SEVERITY', 'REQUIREMENTS', 'RESOLUTION'],
            rows: result.conflicts.map((c) => [
              c.conflictId,
              c.kind,
              c.severity,
              c.requirements.map((r) => `${r.frameworkId} ${r.requirementId}`).join('; '),
              c.resolution,
            ]),
          },
        },
      );
    });

  program
    .command('search <text>')
    .description('requirements of every framework closest in meaning to a text')
    .option('--limit <n>', 'how many results (1-100)', parseInteger, 10)
    .action(async (text: string, options: { limit: number }, command: Command) => {
      const result = await cli.client(command).post<SearchResult>(ctePath('embeddings', 'distance'), {
        query: text,
        limit: options.limit,
      });
      await print(
        { json: cli.json(command) },
        {
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
        },
      );
    });

  program
    .command('import')
    .description('bring outside content into comply')
    .command('oscal <file>')
    .description('import an OSCAL catalog (JSON) as a framework (platform key); again to replace it')
    .option('--id <frameworkId>', 'store it under this id instead of a slug of its title')
    .action(async (file: string, options: { id?: string }, command: Command) => {
      const json = cli.json(command);
      let document: unknown;
      try {
        document = JSON.parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new UsageError(`Cannot read ${file} as JSON: ${(error as Error).message}`);
      }
      const client = cli.client(command);
      const result = await withProgress({ json }, `Importing ${file}`, () =>
        client.request<ImportResult>('POST', ctePath('frameworks', 'import'), {
          query: { frameworkId: options.id },
          body: document,
        }),
      );
      await print(
        { json },
        {
          data: result,
          text: describe({
            framework: `${result.id}  ${result.name}`,
            version: result.version,
            requirements: result.controlCount,
            domains: result.domains,
            'withdrawn skipped': result.skippedWithdrawn,
            outcome: result.outcome,
          }),
        },
      );
    });
}
