import { Argument, type Command } from 'commander';
import { reviewPath } from '../../api-client/paths.js';
import type { ManagementReview, ManagementReviewList, ReviewDecision } from '../../api-client/types.js';
import { type Cli, parseTimestamp } from '../cli.js';
import { day, decisionsText, reviewHead, reviewText } from '../views/loop-view.js';

/** The inputs a review holds (ISO/IEC 42001 9.3), which notes are kept against. */
const REVIEW_INPUTS = [
  'earlierActions',
  'scores',
  'nonconformities',
  'audits',
  'attestations',
  'risks',
  'opportunities',
];

/** The exclusive end of a period: a bare date means the whole of that day (up to the next midnight, UTC). */
export function parsePeriodEnd(value: string): string {
  const start = parseTimestamp('start')(value);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return start;
  return new Date(Date.parse(start) + 86_400_000).toISOString();
}

export function registerReviewCommands(program: Command, cli: Cli): void {
  const reviews = program
    .command('reviews')
    .description(
      "management reviews (ISO/IEC 42001 9.3): inputs computed from the org's records for a period, notes, decisions, closed with a content hash",
    );

  const show = (command: Command, review: ManagementReview) =>
    cli.print(command, { data: review, text: reviewText(review) });

  reviews
    .command('hold')
    .description(
      "hold a management review over a period: its inputs are computed from the org's records and printed as tables (write scope)",
    )
    .requiredOption(
      '--from <date>',
      'start of the period reviewed (YYYY-MM-DD or ISO date-time)',
      parseTimestamp('start'),
    )
    .requiredOption(
      '--to <date>',
      'end of the period (a date counts in full; a date-time is exclusive)',
      parsePeriodEnd,
    )
    .requiredOption('--attendee <names...>', 'who attends: several names, or the option again')
    .option('--held <date>', 'when it is held (default now)', parseTimestamp('start'))
    .addHelpText(
      'after',
      `
The inputs: every framework's score at the start and the end of the period; nonconformities opened, closed
and open at the end; audits completed with their findings; attestations by level; risks by level and state
with the acceptances expiring within 90 days after the period; opportunities; and the actions decided by
earlier reviews (overdue ones flagged). Notes and decisions are added while it is open; \`close\` freezes it.

Example:
  $ comply --org acme reviews hold --from 2026-01-01 --to 2026-06-30 --attendee "Cleo CEO" "Ciro CISO"`,
    )
    .action(
      async (options: { from: string; to: string; attendee: string[]; held?: string }, command: Command) => {
        const review = await cli.client(command).post<ManagementReview>(reviewPath(cli.org(command)), {
          heldAt: options.held ?? new Date().toISOString(),
          attendees: options.attendee,
          period: { from: options.from, to: options.to },
        });
        await show(command, review);
      },
    );

  reviews
    .command('list')
    .description('the management reviews, latest first')
    .action(async (_options, command: Command) => {
      const list = await cli.client(command).get<ManagementReviewList>(reviewPath(cli.org(command)));
      await cli.print(command, {
        data: list,
        text: list.reviews.length ? undefined : 'No management reviews yet: `comply reviews hold …`',
        table: list.reviews.length
          ? {
              columns: ['REVIEW ID', 'HELD', 'PERIOD', 'STATE', 'DECISIONS', 'ATTENDEES', 'CONTENT HASH'],
              rows: list.reviews.map((review) => [
                review.reviewId,
                day(review.heldAt),
                `${day(review.period.from)} → ${day(review.period.to)}`,
                review.state,
                review.decisions.length,
                review.attendees.join(', '),
                review.contentHash,
              ]),
            }
          : undefined,
      });
    });

  reviews
    .command('show <reviewId>')
    .description('one review: its period and attendees, its inputs as tables with their notes, its decisions')
    .action(async (reviewId: string, _options, command: Command) => {
      await show(
        command,
        await cli.client(command).get<ManagementReview>(reviewPath(cli.org(command), reviewId)),
      );
    });

  reviews
    .command('note')
    .description('keep a note against one input of an open review (replaces an earlier note on it)')
    .argument('<reviewId>', 'the review (see `reviews list`)')
    .addArgument(new Argument('<input>', 'the input the note is about').choices(REVIEW_INPUTS))
    .argument('<text...>', 'the note')
    .addHelpText(
      'after',
      `
Example:
  $ comply --org acme reviews note $REVIEW scores "EU AI Act up 12 points after the logging work"`,
    )
    .action(async (reviewId: string, input: string, words: string[], _options, command: Command) => {
      const review = await cli.client(command).put<ManagementReview>(reviewPath(cli.org(command), reviewId), {
        notes: { [input]: words.join(' ') },
      });
      await cli.print(command, { data: review, text: `${input}: ${review.notes[input]}` });
    });

  reviews
    .command('decide <reviewId>')
    .description('add a decision to an open review; one with a due date joins the agenda of what is due')
    .requiredOption('--text <text>', 'what was decided')
    .option('--owner <name>', 'who carries it out')
    .option('--due <date>', 'when it is due (YYYY-MM-DD or ISO date-time)', parseTimestamp('end'))
    .addHelpText(
      'after',
      `
Example:
  $ comply --org acme reviews decide $REVIEW --text "Fund a second ML validation engineer" \\
      --owner "Cleo CEO" --due 2026-09-30`,
    )
    .action(
      async (reviewId: string, options: { text: string; owner?: string; due?: string }, command: Command) => {
        const client = cli.client(command);
        const path = reviewPath(cli.org(command), reviewId);
        // The API takes the whole list: the decisions so far, and this one after them.
        const current = await client.get<ManagementReview>(path);
        const decision: ReviewDecision = {
          text: options.text,
          ...(options.owner ? { owner: options.owner } : {}),
          ...(options.due ? { dueDate: options.due } : {}),
        };
        const review = await client.put<ManagementReview>(path, {
          decisions: [...current.decisions, decision],
        });
        await cli.print(command, { data: review, text: decisionsText(review.decisions) });
      },
    );

  reviews
    .command('close <reviewId>')
    .description('close a review: it is frozen, with the SHA-256 of its content (RFC 8785 JSON)')
    .action(async (reviewId: string, _options, command: Command) => {
      const review = await cli
        .client(command)
        .post<ManagementReview>(reviewPath(cli.org(command), reviewId, '/close'), undefined);
      await cli.print(command, {
        data: review,
        text: `${reviewHead(review)}\n\nClosed: the review is frozen; its content hash is ${review.contentHash}`,
      });
    });
}
