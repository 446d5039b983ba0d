import { type Command, InvalidArgumentError } from 'commander';
import { EU_AI_ACT_ROLES, type EuAiActRole } from '../../../shared/vocabulary.js';
import { applicabilityProfilePath } from '../../api-client/paths.js';
import type {
  ApplicabilityProfileBody,
  ApplicabilityProfileView,
  ProfileExclusion,
} from '../../api-client/types.js';
import { type Cli, UsageError } from '../cli.js';
import { describe } from '../output.js';

/** `--role none`: the org holds none of the EU AI Act's roles. */
const NO_ROLE = 'none';

function collectRole(value: string, previous: string[] = []): string[] {
  if (value !== NO_ROLE && !(EU_AI_ACT_ROLES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${[...EU_AI_ACT_ROLES, NO_ROLE].join(', ')}`);
  }
  return previous.includes(value) ? previous : [...previous, value];
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');

const requirementList = (items: { requirementId: string }[]) =>
  items.map((item) => item.requirementId).join(', ');

/** What the org said, who saved it and when; or how to say it. */
function profileText(view: ApplicabilityProfileView): string {
  const { profile } = view;
  if (!profile) {
    return (
      'No applicability profile yet. Tell comply what the organization is under the EU AI Act, e.g.\n' +
      '  comply profile set --role deployer --dry-run'
    );
  }
  return describe({
    'EU AI Act roles': profile.euAiActRoles.join(', ') || 'none',
    'general-purpose AI models': yesNo(profile.generalPurposeModels),
    biometrics: yesNo(profile.biometrics),
    'law enforcement': yesNo(profile.lawEnforcement),
    saved: `${profile.updatedAt} by ${profile.updatedBy}`,
  });
}

const countsText = (exclusions: ProfileExclusion[]) => {
  const counts = new Map<string, number>();
  for (const exclusion of exclusions) counts.set(exclusion.state, (counts.get(exclusion.state) ?? 0) + 1);
  return [...counts].map(([state, count]) => `${count} ${state}`).join(', ');
};

const bindNoOneText = (view: ApplicabilityProfileView) =>
  view.bindNoOne.length
    ? `Never gaps, as they bind no organization: ${view.bindNoOne.map((p) => `${p.requirementId} (${p.title})`).join('; ')}.`
    : '';

/**
 * What saving did (or, in a dry run, would do): the requirements it excludes, those a person's record keeps
 * as they are, and the earlier exclusions that no longer follow and apply again.
 */
function outcomeText(before: ApplicabilityProfileView, after: ApplicabilityProfileView, dryRun: boolean) {
  const excluded = after.exclusions.filter((e) => e.state === 'applied' || e.state === 'proposed');
  const kept = after.exclusions.filter((e) => e.state === 'confirmed' || e.state === 'overridden');
  const still = new Set(after.exclusions.map((e) => e.requirementId));
  const again = before.exclusions.filter((e) => e.state === 'applied' && !still.has(e.requirementId));
  const lines = [
    dryRun
      ? 'Dry run: nothing was written. Saving this profile would give:'
      : 'Saved the applicability profile.',
    `${dryRun ? 'Would exclude' : 'Excluded'} ${excluded.length} EU AI Act requirement(s)${excluded.length ? `: ${requirementList(excluded)}` : ''}.`,
  ];
  if (kept.length) {
    lines.push(
      `Kept as a person recorded ${kept.length === 1 ? 'it' : 'them'} (${kept.length}): ${kept
        .map(
          (e) =>
            `${e.requirementId} ${e.state === 'overridden' ? 'applies' : 'not applicable'} (${e.reviewer ?? 'someone'})`,
        )
        .join('; ')}.`,
    );
  }
  if (again.length) {
    lines.push(`${dryRun ? 'Would apply' : 'Applies'} again (${again.length}): ${requirementList(again)}.`);
  }
  lines.push('`comply profile` lists every exclusion with its reason.');
  return lines.join('\n');
}

function exclusionTable(view: ApplicabilityProfileView) {
  return {
    columns: ['REQUIREMENT', 'STATE', 'REVIEWER', 'TITLE', 'WHY NOT APPLICABLE'],
    rows: view.exclusions.map((e) => [
      e.requirementId,
      e.state,
      e.reviewer ?? '',
      e.title,
      e.justification.replace(/^Not applicable by the organization's applicability profile: /, ''),
    ]),
  };
}

interface SetOptions {
  role: string[];
  generalPurposeModels?: boolean;
  biometrics?: boolean;
  lawEnforcement?: boolean;
  dryRun?: boolean;
}

export function registerProfileCommands(program: Command, cli: Cli): void {
  const profile = program
    .command('profile')
    .description(
      'the applicability profile: what the org is under the EU AI Act, and the requirements that therefore do not apply',
    );

  profile
    .command('show', { isDefault: true })
    .description(
      'the profile (roles, the three questions, who saved it when) and each exclusion with its state: applied, confirmed, overridden or proposed',
    )
    .addHelpText(
      'after',
      `
States: applied (the profile wrote the exclusion), confirmed (a person recorded it as not applicable),
overridden (a person recorded that it applies: their judgement wins), proposed (not written yet).

Example:
  $ comply --org acme profile`,
    )
    .action(async (_options, command: Command) => {
      const view = await cli
        .client(command)
        .get<ApplicabilityProfileView>(applicabilityProfilePath(cli.org(command)));
      const text = [profileText(view)];
      if (view.profile) {
        text.push(
          '',
          `${view.exclusions.length} EU AI Act requirement(s) excluded${view.exclusions.length ? ` (${countsText(view.exclusions)})` : ''}.`,
        );
      }
      const note = bindNoOneText(view);
      if (note) text.push('', note);
      if (cli.json(command) || view.exclusions.length === 0) {
        await cli.print(command, { data: view, text: text.join('\n') });
        return;
      }
      await cli.print(command, { data: view, text: `${text.join('\n')}\n`, table: exclusionTable(view) });
    });

  profile
    .command('set')
    .description(
      'say what the org is under the EU AI Act; comply records each requirement that follows as not applicable, with a generated justification (a person’s own applicability judgement is kept)',
    )
    .requiredOption(
      '--role <role>',
      `a role the org holds (repeatable): ${EU_AI_ACT_ROLES.join(', ')}, or ${NO_ROLE}`,
      collectRole,
    )
    .option('--general-purpose-models', 'it provides general-purpose AI models (Art. 51–55 apply)')
    .option(
      '--biometrics',
      'it uses or provides biometric identification, categorisation or emotion recognition',
    )
    .option('--law-enforcement', 'it is, or works for, a law-enforcement authority')
    .option('--dry-run', 'show what saving would exclude; write nothing')
    .addHelpText(
      'after',
      `
Every answer is given each time: a question left out is answered no. Exclusions of an earlier profile that no
longer follow are withdrawn; a requirement whose applicability a person recorded keeps that record.

Examples:
  $ comply --org acme profile set --role deployer --dry-run
  $ comply --org acme profile set --role deployer --role provider --general-purpose-models`,
    )
    .action(async (options: SetOptions, command: Command) => {
      if (options.role.includes(NO_ROLE) && options.role.length > 1) {
        throw new UsageError(`--role ${NO_ROLE} cannot be combined with another role`);
      }
      const body: ApplicabilityProfileBody = {
        euAiActRoles: options.role.filter((role): role is EuAiActRole => role !== NO_ROLE),
        generalPurposeModels: Boolean(options.generalPurposeModels),
        biometrics: Boolean(options.biometrics),
        lawEnforcement: Boolean(options.lawEnforcement),
      };
      const client = cli.client(command);
      const path = applicabilityProfilePath(cli.org(command));
      const before = await client.get<ApplicabilityProfileView>(path);
      const after = await client.request<ApplicabilityProfileView>('PUT', path, {
        body,
        query: { dryRun: options.dryRun ? true : undefined },
      });
      await cli.print(command, { data: after, text: outcomeText(before, after, Boolean(options.dryRun)) });
    });
}
