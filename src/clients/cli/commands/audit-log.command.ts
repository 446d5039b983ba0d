import type { Command } from 'commander';
import type { ApiClient, Query } from '../../api-client/client.js';
import { auditLogPath } from '../../api-client/paths.js';
import type { AuditEvent, AuditLog, AuditVerification } from '../../api-client/types.js';
import { type Cli, parseInteger, parseTimestamp, UsageError } from '../cli.js';
import { describe, interactive } from '../output.js';

interface AuditLogOptions {
  from?: string;
  to?: string;
  actor?: string;
  action?: string;
  resourceType?: string;
  limit?: number;
  cursor?: string;
  all?: boolean;
  verify?: boolean;
  platform?: boolean;
}

const FILTERS = ['from', 'to', 'actor', 'action', 'resourceType', 'limit', 'cursor', 'all'] as const;

const eventRow = (event: AuditEvent) => [
  event.seq,
  event.at,
  `${event.actor.name} (${event.actor.type})`,
  event.action,
  `${event.resource.type} ${event.resource.id}`,
  Object.keys(event.changes ?? {}).join(',') || undefined,
];

const EVENT_COLUMNS = ['SEQ', 'AT', 'ACTOR', 'ACTION', 'RESOURCE', 'CHANGED'];

/** Every page, following `nextCursor`; on a terminal, a running count on stderr. */
async function allPages(client: ApiClient, path: string, query: Query, json: boolean): Promise<AuditLog> {
  const show = !json && interactive(process.stderr);
  const events: AuditEvent[] = [];
  let page: AuditLog;
  let cursor = query.cursor ?? undefined;
  do {
    page = await client.get<AuditLog>(path, { ...query, cursor });
    events.push(...page.events);
    cursor = page.nextCursor ?? undefined;
    if (show) process.stderr.write(`\rfetched ${events.length} events${cursor ? '…' : ''}`);
  } while (cursor);
  if (show) process.stderr.write('\r\u001b[K');
  return { orgId: page.orgId, events, nextCursor: null };
}

/** The event verification found first altered, when the log still serves it. */
async function findEvent(client: ApiClient, path: string, seq: number, eventId: string) {
  try {
    const page = await client.get<AuditLog>(path, { cursor: String(seq + 1), limit: 1 });
    return page.events.find((event) => event.seq === seq && event.eventId === eventId);
  } catch {
    return undefined;
  }
}

export function registerAuditLogCommand(program: Command, cli: Cli): void {
  program
    .command('audit-log')
    .description('who changed what and when, newest first; --verify checks the hash chain')
    .option('--from <date>', 'events at or after (YYYY-MM-DD or ISO date-time)', parseTimestamp('start'))
    .option('--to <date>', 'events at or before (YYYY-MM-DD: through that day)', parseTimestamp('end'))
    .option('--actor <id>', 'only this actor: a userId or a keyId')
    .option('--action <action>', 'only this action (member.created), or a family ending in a dot (member.)')
    .option(
      '--resource-type <type>',
      'only this kind of resource: requirement, evidence, ai-system, snapshot, key, member, …',
    )
    .option('--limit <n>', 'events per page, 1–500 (default 50)', parseInteger)
    .option('--cursor <cursor>', 'continue from a previous page (its nextCursor)')
    .option('--all', 'follow nextCursor to the oldest matching event')
    .option('--verify', 'recompute the hash chain of the whole log: exit 0 when intact, 1 when broken')
    .option('--platform', 'the platform log (sign-ins, failed sign-ins, sign-outs; platform administrators)')
    .addHelpText(
      'after',
      `
Reading an org's log takes an owner, an auditor or a platform key (--org / COMPLY_ORG). Each event names its
actor (a person, a key or comply itself), the action, the resource and each changed field before and after.
Events are chained: each one's hash covers the previous hash, so --verify finds a row altered in the database
and names the first bad event.

Examples:
  $ comply --org acme audit-log --from 2026-01-01 --resource-type requirement
  $ comply --org acme audit-log --all --json > audit.json
  $ comply --org acme audit-log --verify
  $ comply audit-log --platform --action auth.sign_in_failed`,
    )
    .action(async (options: AuditLogOptions, command: Command) => {
      const path = auditLogPath(options.platform ? undefined : cli.org(command));
      const json = cli.json(command);
      if (options.verify) {
        const given = FILTERS.filter((name) => options[name] !== undefined);
        if (given.length)
          throw new UsageError(`--verify checks the whole log; it takes no --${given.join(', --')}`);
        await verify(cli, command, path);
        return;
      }
      if (options.limit !== undefined && (options.limit < 1 || options.limit > 500)) {
        throw new UsageError('--limit takes 1 to 500 events per page');
      }
      const query: Query = {
        from: options.from,
        to: options.to,
        actorId: options.actor,
        action: options.action,
        resourceType: options.resourceType,
        limit: options.limit ?? (options.all ? 500 : undefined),
        cursor: options.cursor,
      };
      const client = cli.client(command, { progress: !options.all });
      const log = options.all
        ? await allPages(client, path, query, json)
        : await client.get<AuditLog>(path, query);
      const scope = log.orgId ?? 'the platform';
      const more = log.nextCursor ? `; older ones: --cursor ${log.nextCursor} (or --all)` : '';
      await cli.print(command, {
        data: log,
        text: `${log.events.length} event(s) of ${scope}, newest first${more}\n`,
        table: { columns: EVENT_COLUMNS, rows: log.events.map(eventRow) },
      });
    });
}

async function verify(cli: Cli, command: Command, path: string): Promise<void> {
  const client = cli.client(command);
  const check = await client.get<AuditVerification>(`${path}/verify`);
  const scope = check.orgId ?? 'the platform';
  if (check.valid) {
    await cli.print(command, {
      data: check,
      text: `intact  ${check.events} event(s) of ${scope}, head ${check.headHash ?? '(empty log)'}`,
    });
    return;
  }
  const bad = check.firstInvalid;
  const event = bad && (await findEvent(client, path, bad.seq, bad.eventId));
  const detail = event
    ? `\n\n${describe({
        seq: event.seq,
        eventId: event.eventId,
        at: event.at,
        actor: `${event.actor.name} (${event.actor.type} ${event.actor.id})`,
        action: event.action,
        resource: `${event.resource.type} ${event.resource.id}`,
        changes: event.changes ? JSON.stringify(event.changes) : undefined,
        prevHash: event.prevHash,
        hash: event.hash,
      })}`
    : '';
  await cli.print(command, {
    data: check,
    text: `BROKEN  the hash chain of ${scope} breaks at ${bad ? `seq ${bad.seq} (event ${bad.eventId}): ${bad.reason}` : 'an unnamed event'}; ${check.events} event(s) checked${detail}`,
  });
  process.exitCode = 1;
}
