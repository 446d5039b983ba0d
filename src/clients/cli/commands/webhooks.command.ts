import type { Command } from 'commander';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../shared/vocabulary.js';
import { webhookPath } from '../../api-client/paths.js';
import type { CreatedWebhook, DeliveryLog, WebhookList } from '../../api-client/types.js';
import { type Cli, csv, parseInteger, UsageError } from '../cli.js';
import { describe } from '../output.js';

function parseEvents(value: string): WebhookEventType[] {
  const events = csv(value);
  const unknown = events.filter((event) => !WEBHOOK_EVENT_TYPES.includes(event as WebhookEventType));
  if (unknown.length) {
    throw new UsageError(`Unknown event(s) ${unknown.join(', ')}; use ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  }
  return events as WebhookEventType[];
}

export function registerWebhookCommands(program: Command, cli: Cli): void {
  const webhooks = program
    .command('webhooks')
    .description('send changes and reminders to a chat or ticket system (owner or platform key; --org)');

  webhooks
    .command('add <url>')
    .description('add a webhook; prints its signing secret once')
    .requiredOption('--events <list>', `comma-separated: ${WEBHOOK_EVENT_TYPES.join(', ')}`, parseEvents)
    .option('--description <text>', 'what the receiver is, for whoever reads the list')
    .addHelpText(
      'after',
      `
Deliveries follow the Standard Webhooks scheme: verify the webhook-signature header with the secret and a
Standard Webhooks library (npm standardwebhooks, pip standardwebhooks, …) before trusting a body.

Examples:
  $ comply --org acme webhooks add https://hooks.example.com/comply --events item.overdue,finding.opened
  $ comply --org acme webhooks add https://tickets.example.com/in --events requirement.status_changed \\
      --description "ticket bridge"`,
    )
    .action(
      async (
        url: string,
        options: { events: WebhookEventType[]; description?: string },
        command: Command,
      ) => {
        const created = await cli.client(command).post<CreatedWebhook>(webhookPath(cli.org(command)), {
          url,
          events: options.events,
          description: options.description,
        });
        await cli.print(command, {
          data: created,
          text: `${describe({
            webhookId: created.webhookId,
            url: created.url,
            events: created.events.join(','),
            description: created.description,
            secret: created.secret,
          })}\n\nStore the secret now: it is not shown again. Receivers verify each delivery's signature with it.`,
        });
      },
    );

  webhooks
    .command('list')
    .description("an org's webhooks (never their secrets)")
    .action(async (_options, command: Command) => {
      const list = await cli.client(command).get<WebhookList>(webhookPath(cli.org(command)));
      await cli.print(command, {
        data: list,
        table: {
          columns: ['WEBHOOK ID', 'URL', 'EVENTS', 'DESCRIPTION', 'CREATED'],
          rows: list.webhooks.map((w) => [
            w.webhookId,
            w.url,
            w.events.join(','),
            w.description,
            w.createdAt,
          ]),
        },
      });
    });

  webhooks
    .command('remove <webhookId>')
    .description('remove a webhook: nothing more is sent to it')
    .action(async (webhookId: string, _options, command: Command) => {
      await cli.client(command).delete(webhookPath(cli.org(command), webhookId));
      await cli.print(command, { data: { webhookId, removed: true }, text: `Removed ${webhookId}` });
    });

  webhooks
    .command('deliveries <webhookId>')
    .description("a webhook's delivery log: every attempt, newest first")
    .option('--limit <n>', 'attempts per page (1-500)', parseInteger, 50)
    .option('--offset <n>', 'attempts to skip', parseInteger, 0)
    .action(async (webhookId: string, options: { limit: number; offset: number }, command: Command) => {
      const log = await cli
        .client(command)
        .get<DeliveryLog>(webhookPath(cli.org(command), webhookId, '/deliveries'), options);
      const shown = log.offset + log.deliveries.length;
      await cli.print(command, {
        data: log,
        table: {
          columns: ['AT', 'EVENT ID', 'TYPE', 'ATTEMPT', 'STATUS', 'OUTCOME', 'MS', 'ERROR'],
          rows: log.deliveries.map((d) => [
            d.at,
            d.eventId,
            d.type,
            d.attempt,
            d.statusCode,
            d.outcome,
            d.durationMs,
            d.error,
          ]),
        },
        text: `${log.total} attempt(s)${shown < log.total ? `; more with --offset ${shown}` : ''}`,
      });
    });
}
