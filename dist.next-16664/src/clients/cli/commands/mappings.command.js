import { InvalidArgumentError } from 'commander';
import { ApiError } from '../../api-client/client.js';
import { ctePath } from '../../api-client/paths.js';
import { parseInteger, UsageError } from '../cli.js';
import { describe, print } from '../output.js';
import { edgesOf } from '../views/mapping-edges.js';
const RELATIONSHIPS = ['equal', 'subset', 'superset', 'intersect'];
function parseScore(value) {
    const parsed = Number(value);
    if (!Number.isFinite(parsed) || parsed < 0 || parsed > 1)
        throw new InvalidArgumentError('expected 0..1');
    return parsed;
}
export function registerMappingCommands(program, cli) {
    const mappings = program
        .command('mappings')
        .description('crosswalk edges: list them, add or remove your own, and accept suggested ones');
    mappings
        .command('list')
        .description('every crosswalk edge, shipped and added')
        .option('--from <frameworkId>', 'only edges with an end in this framework')
        .option('--to <frameworkId>', 'only edges with an end in this framework')
        .option('--added', 'only edges added through the API')
        .action(async (options, command) => {
        const document = await cli.client(command).get(ctePath('mappings'));
        const touches = (edge, frameworkId) => !frameworkId || edge.sourceFrameworkId === frameworkId || edge.targetFrameworkId === frameworkId;
        const edges = edgesOf(document).filter((edge) => touches(edge, options.from) && touches(edge, options.to) && (!options.added || edge.added));
        await cli.print(command, {
            data: { edges },
            text: `${edges.length} edges\n`,
            table: {
                columns: ['EDGE', 'SOURCE', 'RELATIONSHIP', 'TARGET', 'ORIGIN', 'ADDED BY'],
                rows: edges.map((edge) => [
                    edge.edgeId,
                    `${edge.sourceFrameworkId} ${edge.sourceId}`,
                    edge.relationship,
                    `${edge.targetFrameworkId} ${edge.targetId}`,
                    edge.origin,
                    edge.added ? `${edge.createdBy} ${edge.createdAt}` : '',
                ]),
            },
        });
    });
    mappings
        .command('add <sourceFrameworkId> <sourceId> <relationship> <targetFrameworkId> <targetId>')
        .description('add an edge, read "source RELATIONSHIP target" (platform key)')
        .requiredOption('--rationale <text>', 'why the two relate')
        .option('--source <reference>', 'the published mapping the edge is taken from')
        .action(async (sourceFrameworkId, sourceId, relationship, targetFrameworkId, targetId, options, command) => {
        if (!RELATIONSHIPS.includes(relationship)) {
            throw new UsageError(`relationship must be one of ${RELATIONSHIPS.join(', ')}`);
        }
        const edge = await cli.client(command).post(ctePath('mappings'), {
            sourceFrameworkId,
            sourceId,
            targetFrameworkId,
            targetId,
            relationship,
            rationale: options.rationale,
            ...(options.source ? { source: options.source } : {}),
        });
        await cli.print(command, {
            data: edge,
            text: describe({
                edge: edge.edgeId,
                mapping: `${edge.sourceFrameworkId} ${edge.sourceId} ${edge.relationship} ${edge.targetFrameworkId} ${edge.targetId}`,
                inferred: edge.inferred ? 'yes' : 'no',
            }),
        });
    });
    mappings
        .command('remove <edgeId>')
        .description('delete an edge added through the API (platform key); shipped edges stay')
        .action(async (edgeId, _options, command) => {
        await cli.client(command).delete(ctePath('mappings', edgeId));
        await cli.print(command, { data: { edgeId, deleted: true }, text: `deleted ${edgeId}` });
    });
    mappings
        .command('suggest')
        .description('candidate edges between two frameworks that no edge covers yet; optionally accept the best')
        .requiredOption('--from <frameworkId>', 'framework the edges start from (e.g. an imported catalog)')
        .requiredOption('--to <frameworkId>', 'framework the edges lead to')
        .option('--limit <n>', 'how many suggestions (1-1000)', parseInteger, 50)
        .option('--min-score <score>', 'leave out weaker candidates (0..1)', parseScore)
        .option('--accept-above <score>', 'add every suggestion scoring at least this as an edge (platform key)', parseScore)
        .option('--dry-run', 'with --accept-above: show what would be added, add nothing')
        .action(async (options, command) => {
        if (options.dryRun && options.acceptAbove === undefined) {
            throw new UsageError('--dry-run goes with --accept-above');
        }
        const client = cli.client(command);
        const result = await client.get(ctePath('mappings', 'suggestions'), {
            from: options.from,
            to: options.to,
            limit: options.limit,
            minScore: options.minScore,
        });
        const json = cli.json(command);
        const threshold = options.acceptAbove;
        if (threshold === undefined) {
            await print({ json }, {
                data: result,
                text: `${result.suggestions.length} suggestions ${result.from} → ${result.to} (model: ${result.model})\n`,
                table: {
                    columns: ['SCORE', 'SOURCE', 'RELATIONSHIP', 'TARGET', 'RATIONALE'],
                    rows: result.suggestions.map((s) => [
                        s.score.toFixed(3),
                        s.sourceId,
                        s.relationship,
                        s.targetId,
                        s.rationale,
                    ]),
                },
            });
            return;
        }
        const chosen = result.suggestions.filter((s) => s.score >= threshold);
        const outcomes = [];
        for (const suggestion of chosen) {
            if (options.dryRun) {
                outcomes.push({ suggestion, outcome: 'would add' });
                continue;
            }
            try {
                const edge = await client.post(ctePath('mappings'), {
                    sourceFrameworkId: result.from,
                    sourceId: suggestion.sourceId,
                    targetFrameworkId: result.to,
                    targetId: suggestion.targetId,
                    relationship: suggestion.relationship,
                    rationale: `Accepted suggestion (score ${suggestion.score.toFixed(3)}): ${suggestion.rationale}`,
                });
                outcomes.push({ suggestion, outcome: 'added', edgeId: edge.edgeId });
            }
            catch (error) {
                // An edge joined the pair meanwhile: say so and go on; anything else stops the run.
                if (!(error instanceof ApiError) || error.status !== 409)
                    throw error;
                outcomes.push({ suggestion, outcome: 'already joined' });
            }
        }
        const added = outcomes.filter((entry) => entry.outcome === 'added').length;
        await print({ json }, {
            data: { ...result, accepted: outcomes },
            text: options.dryRun
                ? `${chosen.length} of ${result.suggestions.length} suggestions score at least ${threshold}; nothing added (dry run)\n`
                : `${added} edges added from ${chosen.length} suggestions scoring at least ${threshold}\n`,
            table: {
                columns: ['OUTCOME', 'SCORE', 'SOURCE', 'RELATIONSHIP', 'TARGET', 'EDGE'],
                rows: outcomes.map(({ suggestion, outcome, edgeId }) => [
                    outcome,
                    suggestion.score.toFixed(3),
                    suggestion.sourceId,
                    suggestion.relationship,
                    suggestion.targetId,
                    edgeId ?? '',
                ]),
            },
        });
    });
}
//# sourceMappingURL=mappings.command.js.map