import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  RISK_SCORE_LEVELS,
  RISK_STATES,
  type RiskScoreLevel,
  TREATMENT_OPTIONS,
} from '../../../shared/vocabulary.js';
import { type ApiClient, ApiError } from '../../api-client/client.js';
import { aiSystemPath, orgPath, riskPath } from '../../api-client/paths.js';
import {
  acceptanceText,
  levelAbove,
  missingForTreated,
  ratedText,
  treatmentText,
} from '../../api-client/risk-text.js';
import type {
  AiSystemList,
  Risk,
  RiskAcceptance,
  RiskCriteria,
  RiskList,
  RiskSummary,
} from '../../api-client/types.js';
import { type Cli, CommandRefusedError, parseTimestamp } from '../cli.js';
import { describe, interactive, renderOnce } from '../output.js';

const criteriaPath = (orgId: string) => orgPath(orgId, '/risk-criteria');

/** A likelihood or an impact: 1–5. */
function rating(value: string): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 5) {
    throw new InvalidArgumentError('expected a rating from 1 to 5');
  }
  return number;
}

/** `<frameworkId>:<requirementId>`, split at the first colon (requirement ids may hold more). */
function requirementRef(value: string): { frameworkId: string; requirementId: string } {
  const at = value.indexOf(':');
  if (at < 1 || at === value.length - 1) {
    throw new InvalidArgumentError('expected <frameworkId>:<requirementId>, e.g. iso-42001:A.6.2.8');
  }
  return { frameworkId: value.slice(0, at), requirementId: value.slice(at + 1) };
}

const collect =
  <T>(parse: (value: string) => T) =>
  (value: string, previous: T[] = []) => [...previous, parse(value)];

const levelOption = (flags: string, description: string) =>
  new Option(flags, description).choices(RISK_SCORE_LEVELS);

/** The level of a score under the org's criteria. */
const levelIn = (criteria: RiskCriteria) => (score: number) =>
  (criteria.levels.find((band) => score >= band.min && score <= band.max) ?? criteria.levels[3])
    .level as RiskScoreLevel;

/** An AI system named by id or by name (case-insensitive), as the register filters by id. */
async function resolveSystem(client: ApiClient, orgId: string, value: string): Promise<string> {
  const { systems } = await client.get<AiSystemList>(aiSystemPath(orgId));
  const found =
    systems.find((system) => system.systemId === value) ??
    systems.find((system) => system.name.toLowerCase() === value.toLowerCase());
  if (!found) throw new CommandRefusedError(`${orgId} has no AI system ${value}`);
  return found.systemId;
}

function riskFields(risk: Risk): Record<string, unknown> {
  const treatment = risk.treatment;
  const { implemented, total } = risk.treatmentProgress;
  const acceptance = risk.acceptance;
  return {
    risk: `${risk.riskId}  ${risk.title}`,
    description: risk.description,
    systems: risk.systemIds.join(', ') || undefined,
    category: risk.category,
    owner: risk.owner,
    inherent: `${ratedText(risk.inherent)}  likelihood ${risk.likelihood} × impact ${risk.impact}`,
    residual: `${ratedText(risk.residual)}  likelihood ${risk.residualLikelihood} × impact ${risk.residualImpact}`,
    state: risk.state,
    treatment: treatment
      ? `${treatment.option}${total ? `, ${implemented} of ${total} requirements implemented` : ''}${
          treatment.dueDate
            ? `; due ${treatment.dueDate.slice(0, 10)}${risk.treatmentOverdue ? ' (overdue)' : ''}`
            : ''
        }`
      : undefined,
    plan: treatment?.plan,
    acceptance: acceptanceText(acceptance),
    'accepted by': acceptance
      ? `${acceptance.acceptedBy.name} <${acceptance.acceptedBy.email}> on ${acceptance.acceptedAt}`
      : undefined,
    'accepted until': acceptance?.expiresAt,
    justification: acceptance?.justification,
    review: risk.reviewDate,
    updated: risk.updatedAt,
  };
}

/** Key–value lines, leaving out the fields a risk does not have. */
const riskText = (risk: Risk) =>
  describe(
    Object.fromEntries(
      Object.entries(riskFields(risk)).filter(([, value]) => value !== undefined && value !== null),
    ),
  );

async function printMatrix(summary: RiskSummary, criteria: RiskCriteria): Promise<void> {
  const { RiskMatrix } = await import('../ui/risk-matrix.js');
  await renderOnce(RiskMatrix, {
    title: 'Residual risk (likelihood × impact)',
    matrix: summary.matrix.residual,
    levelOf: levelIn(criteria),
    levels: RISK_SCORE_LEVELS,
  });
}

const summaryLine = (summary: RiskSummary) => {
  const { byLevel, byState } = summary.counts;
  const total = Object.values(byState).reduce((sum, count) => sum + count, 0);
  const levels = RISK_SCORE_LEVELS.map((level) => `${byLevel[level] ?? 0} ${level}`).join(', ');
  const { valid, stale, expired } = summary.acceptances;
  return (
    `${total} risk(s) by residual level: ${levels}; ${summary.overdueTreatments} overdue treatment(s); ` +
    `acceptances: ${valid} valid, ${stale} stale, ${expired} expired`
  );
};

interface AddOptions {
  title: string;
  description?: string;
  likelihood: number;
  impact: number;
  system?: string[];
  category?: string;
  owner?: string;
  treat?: { frameworkId: string; requirementId: string }[];
  option?: string;
  plan?: string;
  due?: string;
  residualLikelihood?: number;
  residualImpact?: number;
  review?: string;
}

function addBody(options: AddOptions) {
  const treated =
    options.treat !== undefined ||
    options.option !== undefined ||
    options.plan !== undefined ||
    options.due !== undefined;
  return {
    title: options.title,
    description: options.description,
    systemIds: options.system,
    category: options.category,
    owner: options.owner,
    likelihood: options.likelihood,
    impact: options.impact,
    treatment: treated
      ? {
          option: options.option ?? 'mitigate',
          requirements: options.treat ?? [],
          plan: options.plan,
          dueDate: options.due,
        }
      : undefined,
    residualLikelihood: options.residualLikelihood,
    residualImpact: options.residualImpact,
    reviewDate: options.review,
  };
}

export function registerRiskCommands(program: Command, cli: Cli): void {
  const risks = program
    .command('risks')
    .description('the AI risk register: rate, treat and accept risks (--org / COMPLY_ORG)');

  risks
    .command('add')
    .description('add an AI risk: its systems, inherent rating, treatment and residual rating')
    .requiredOption('--title <text>', 'what could go wrong')
    .option('--description <text>', 'how it arises and whom it harms')
    .requiredOption('--likelihood <n>', 'inherent likelihood, 1–5', rating)
    .requiredOption('--impact <n>', 'inherent impact, 1–5', rating)
    .option('--system <id|name>', 'an AI system the risk arises from (repeatable)', collect(String))
    .option('--category <text>', 'a category of your own (bias, privacy, safety, …)')
    .option('--owner <owner>', 'who answers for the risk')
    .option(
      '--treat <framework:requirement>',
      'a requirement whose implementation treats the risk, any framework (repeatable)',
      collect(requirementRef),
    )
    .addOption(
      new Option('--option <option>', 'how the risk is treated (default mitigate when treated)').choices(
        TREATMENT_OPTIONS,
      ),
    )
    .option('--plan <text>', 'the treatment plan')
    .option(
      '--due <date>',
      'when the treatment is due (YYYY-MM-DD: the end of that day, UTC)',
      parseTimestamp('end'),
    )
    .option('--residual-likelihood <n>', 'likelihood after treatment, 1–5 (default the inherent one)', rating)
    .option('--residual-impact <n>', 'impact after treatment, 1–5 (default the inherent one)', rating)
    .option('--review <date>', 'when the risk is next reviewed', parseTimestamp('start'))
    .addHelpText(
      'after',
      `
The level of a rating is the org's (see comply risks criteria): by default likelihood × impact 1–4 low,
5–9 medium, 10–16 high, 20–25 critical. Residual risk above the acceptable level needs an acceptance.
Any of --treat, --option, --plan or --due gives the risk a treatment.

Examples:
  $ comply --org acme risks add --title "Biased ranking of applicants" --likelihood 4 --impact 5 \\
      --system "CV screener" --treat iso-42001:A.7.4 --treat eu-ai-act:"Art. 10(1)-(4)" --due 2026-09-30 \\
      --residual-likelihood 2 --residual-impact 4 --owner "HR lead"
  $ comply --org acme risks add --title "Vendor model outage" --likelihood 2 --impact 3 --option accept`,
    )
    .action(async (options: AddOptions, command: Command) => {
      const risk = await cli.client(command).post<Risk>(riskPath(cli.org(command)), addBody(options));
      await cli.print(command, { data: risk, text: riskText(risk) });
    });

  risks
    .command('list')
    .description('the register, oldest first; on a terminal with the residual heat map')
    .addOption(new Option('--state <state>', 'only risks in this state').choices(RISK_STATES))
    .addOption(levelOption('--level <level>', 'only risks of this residual level'))
    .option('--system <id|name>', 'only risks of this AI system')
    .option(
      '--requirement <framework:requirement>',
      'only risks whose treatment lists this requirement',
      (value: string) => {
        requirementRef(value);
        return value;
      },
    )
    .option('--limit <n>', 'risks per page, 1–1000 (default 1000)', (value: string) => {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 1 || number > 1000) {
        throw new InvalidArgumentError('expected a number from 1 to 1000');
      }
      return number;
    })
    .option('--offset <n>', 'risks to skip', (value: string) => {
      const number = Number(value);
      if (!Number.isInteger(number) || number < 0) throw new InvalidArgumentError('expected a number ≥ 0');
      return number;
    })
    .addHelpText(
      'after',
      `
States: open (no treatment) | treating (requirements not all implemented) | treated (all implemented,
residual acceptable) | accepted (a valid acceptance) | needs_acceptance (residual above the acceptable
level, or option accept, without a valid acceptance).

Examples:
  $ comply --org acme risks list --state needs_acceptance
  $ comply --org acme risks list --requirement iso-42001:A.7.4 --json`,
    )
    .action(
      async (
        options: {
          state?: string;
          level?: string;
          system?: string;
          requirement?: string;
          limit?: number;
          offset?: number;
        },
        command: Command,
      ) => {
        const client = cli.client(command);
        const orgId = cli.org(command);
        const systemId = options.system ? await resolveSystem(client, orgId, options.system) : undefined;
        const list = await client.get<RiskList>(riskPath(orgId), {
          state: options.state,
          level: options.level,
          systemId,
          requirement: options.requirement,
          limit: options.limit ?? 1000,
          offset: options.offset,
        });
        await cli.print(command, {
          data: list,
          table: {
            columns: [
              'RISK ID',
              'STATE',
              'RESIDUAL',
              'INHERENT',
              'TREATMENT',
              'ACCEPTANCE',
              'OWNER',
              'TITLE',
            ],
            rows: list.risks.map((risk) => [
              risk.riskId,
              risk.state,
              ratedText(risk.residual),
              ratedText(risk.inherent),
              treatmentText(risk),
              acceptanceText(risk.acceptance),
              risk.owner,
              risk.title,
            ]),
          },
        });
        if (!cli.json(command) && list.offset + list.risks.length < list.total) {
          process.stderr.write(
            `Showing ${list.risks.length} of ${list.total} risks from ${list.offset}: pass --offset ${list.offset + list.risks.length} for more.\n`,
          );
        }
        if (cli.json(command) || !interactive(process.stdout)) return;
        const [summary, criteria] = await Promise.all([
          client.get<RiskSummary>(riskPath(orgId, undefined, '/summary')),
          client.get<RiskCriteria>(criteriaPath(orgId)),
        ]);
        process.stdout.write('\n');
        await printMatrix(summary, criteria);
        process.stdout.write(`${summaryLine(summary)}\n`);
      },
    );

  risks
    .command('show <riskId>')
    .description('one risk: ratings, state, treatment requirements with their live status, acceptance')
    .action(async (riskId: string, _options, command: Command) => {
      const client = cli.client(command);
      const orgId = cli.org(command);
      const risk = await client.get<Risk>(riskPath(orgId, riskId));
      if (cli.json(command)) {
        await cli.print(command, { data: risk });
        return;
      }
      const criteria = await client.get<RiskCriteria>(criteriaPath(orgId));
      const missing = risk.state === 'treated' ? [] : missingForTreated(risk, criteria.acceptableLevel);
      const next = missing.length
        ? `\n\nTo be treated${risk.state === 'accepted' ? ' (it is accepted meanwhile)' : ''}:\n${missing.map((line) => `  - ${line}`).join('\n')}`
        : '';
      const requirements = risk.treatmentProgress.requirements;
      await cli.print(command, {
        data: risk,
        text: `${riskText(risk)}${next}${requirements.length ? '\n' : ''}`,
        table: requirements.length
          ? {
              columns: ['FRAMEWORK', 'REQUIREMENT', 'STATUS'],
              rows: requirements.map((r) => [r.frameworkId, r.requirementId, r.status]),
            }
          : undefined,
      });
    });

  risks
    .command('accept <riskId>')
    .description('accept the residual risk as it stands, until a date (a signed-in approver or owner)')
    .requiredOption('--justification <text>', 'why the org accepts the risk')
    .requiredOption(
      '--expires <date>',
      'the acceptance lapses then (YYYY-MM-DD: the end of that day, UTC; or an ISO date-time)',
      parseTimestamp('end'),
    )
    .addHelpText(
      'after',
      `
Accepting is an approval: it takes a person, signed in with \`comply login\` as an approver or owner of the
org; an API key is refused (403, person_required), and a key set in COMPLY_API_KEY or --api-key takes
precedence over the session. The acceptance is bound to the risk's assessed fields (ratings, treatment,
systems): when they change it turns stale, after --expires it expires, and the risk needs accepting again.

Example:
  $ comply login
  $ comply --org acme risks accept risk_abc --justification "Residual bias monitored weekly" --expires 2026-12-31`,
    )
    .action(async (riskId: string, options: { justification: string; expires: string }, command: Command) => {
      const client = cli.client(command);
      const orgId = cli.org(command);
      let acceptance: RiskAcceptance;
      try {
        acceptance = await client.post<RiskAcceptance>(riskPath(orgId, riskId, '/acceptance'), {
          justification: options.justification,
          expiresAt: options.expires,
        });
      } catch (error) {
        if (error instanceof ApiError && error.details.reason === 'person_required') {
          process.stderr.write(
            'Accepting a risk takes a person: sign in with `comply login` (as an approver or owner) and unset COMPLY_API_KEY / --api-key, which take precedence over the session.\n',
          );
        }
        throw error;
      }
      await cli.print(command, {
        data: acceptance,
        text: describe({
          risk: riskId,
          acceptance: acceptance.acceptanceId,
          'accepted by': `${acceptance.acceptedBy.name} <${acceptance.acceptedBy.email}>`,
          'accepted at': acceptance.acceptedAt,
          until: acceptance.expiresAt,
          justification: acceptance.justification,
          state: acceptance.state,
        }),
      });
    });

  risks
    .command('criteria')
    .description('how the org rates risks: levels by score and the acceptable level; --acceptable changes it')
    .addOption(
      levelOption(
        '--acceptable <level>',
        'set the acceptable level: residual risk above it needs an acceptance',
      ),
    )
    .action(async (options: { acceptable?: string }, command: Command) => {
      const client = cli.client(command);
      const orgId = cli.org(command);
      const criteria = options.acceptable
        ? await client.put<RiskCriteria>(criteriaPath(orgId), { acceptableLevel: options.acceptable })
        : await client.get<RiskCriteria>(criteriaPath(orgId));
      await cli.print(command, {
        data: criteria,
        text: `${describe({
          likelihood: `${criteria.likelihood.min}–${criteria.likelihood.max}`,
          impact: `${criteria.impact.min}–${criteria.impact.max}`,
          score: 'likelihood × impact',
          acceptable: `${criteria.acceptableLevel} (residual risk above it needs an acceptance)`,
          criteria: criteria.custom ? "the org's own" : 'the defaults',
        })}\n`,
        table: {
          columns: ['LEVEL', 'SCORES', 'NEEDS ACCEPTANCE'],
          rows: criteria.levels.map((band) => [
            band.level,
            `${band.min}–${band.max}`,
            levelAbove(band.level, criteria.acceptableLevel) ? 'yes' : 'no',
          ]),
        },
      });
    });
}
