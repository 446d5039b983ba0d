import { type Command, Option } from 'commander';
import { DUE_KINDS } from '../../../shared/vocabulary.js';
import type { ApiClient, Query } from '../../api-client/client.js';
import { duePath } from '../../api-client/paths.js';
import type { Agenda, DueItem, Me } from '../../api-client/types.js';
import { type Cli, parseInteger, parseTimestamp, UsageError } from '../cli.js';

interface DueOptions {
  mine?: boolean;
  owner?: string;
  overdue?: boolean;
  kind?: string;
  from?: string;
  to?: string;
  limit: number;
}

/** The signed-in person's name and email: the owners their items carry. */
async function ownNames(client: ApiClient): Promise<string[]> {
  const me = await client.get<Me>('/me');
  if (me.type !== 'user') {
    throw new UsageError('--mine needs a signed-in person (comply login); an API key owns no items');
  }
  return [me.name, me.email];
}

const sameItem = (a: DueItem, b: DueItem) =>
  a.kind === b.kind && a.resource.id === b.resource.id && a.dueAt === b.dueAt;

export function registerDueCommand(program: Command, cli: Cli): void {
  program
    .command('due')
    .description(
      'what is due in an org, soonest (so overdue) first: evidence expiry, treatments, reviews, findings…',
    )
    .option('--mine', 'only items whose owner is you (your name or email; needs comply login)')
    .option('--owner <name>', 'only items of this owner (any case)')
    .option('--overdue', 'only overdue items')
    .addOption(new Option('--kind <kind>', 'only items of this kind').choices(DUE_KINDS))
    .option('--from <date>', 'due at or after (YYYY-MM-DD or ISO date-time)', parseTimestamp('start'))
    .option('--to <date>', 'due before (YYYY-MM-DD or ISO date-time)', parseTimestamp('start'))
    .option('--limit <n>', 'items at most (1-1000)', parseInteger, 100)
    .addHelpText(
      'after',
      `
Examples:
  $ comply --org acme due --mine
  $ comply --org acme due --overdue --kind evidence_expiry
  $ comply --org acme due --owner "Dana Doe" --to 2026-12-31`,
    )
    .action(async (options: DueOptions, command: Command) => {
      if (options.mine && options.owner) throw new UsageError('--mine and --owner exclude each other');
      const client = cli.client(command);
      const orgId = cli.org(command);
      const query: Query = {
        overdue: options.overdue ? true : undefined,
        kind: options.kind,
        from: options.from,
        to: options.to,
        limit: options.limit,
      };
      let agenda: Agenda;
      if (options.mine) {
        // Items name their owner as written: by name or by email. Both lists, merged in date order.
        const pages = await Promise.all(
          (await ownNames(client)).map((owner) => client.get<Agenda>(duePath(orgId), { ...query, owner })),
        );
        const items = pages
          .flatMap((page) => page.items)
          .filter((item, index, all) => all.findIndex((other) => sameItem(other, item)) === index)
          .sort((a, b) => a.dueAt.localeCompare(b.dueAt))
          .slice(0, options.limit);
        agenda = { orgId, items, total: items.length, limit: options.limit, offset: 0 };
      } else {
        agenda = await client.get<Agenda>(duePath(orgId), { ...query, owner: options.owner });
      }
      const overdue = agenda.items.filter((item) => item.overdue).length;
      await cli.print(command, {
        data: agenda,
        text: `${agenda.total} item(s) due${overdue ? `, ${overdue} overdue` : ''}${
          agenda.items.length < agenda.total ? ` (showing ${agenda.items.length}; raise --limit)` : ''
        }`,
        table: {
          columns: ['DUE', 'OVERDUE', 'KIND', 'TITLE', 'OWNER', 'RESOURCE'],
          rows: agenda.items.map((item) => [
            item.dueAt,
            item.overdue ? 'yes' : '',
            item.kind,
            item.title,
            item.owner,
            `${item.resource.type} ${item.resource.id}`,
          ]),
        },
      });
    });
}
