import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { RISK_SCORE_LEVELS, type RiskScoreLevel } from '../../../shared/vocabulary.js';
import type { LoadedPolicy } from '../../gate/policy.js';
import type { FrameworkRules, Policy } from '../../gate/policy.schema.js';
import { REPORT_FORMATS, type ReportFormat } from '../../gate/report-formats.js';
import type { CheckReport } from '../../gate/reports.js';
import { type Cli, UsageError } from '../cli.js';
import { withProgress } from '../output.js';

/** Exit code of a check whose rules did not all hold (the same as any refusal by the API). */
export const CHECK_FAILED = 1;
export const DEFAULT_POLICY_FILE = 'comply.policy.json';

/** Repeatable options are undefined when not given (no default, so help shows none). */
interface CheckOptions {
  policy?: string;
  minScore?: [string, number][];
  minDirectScore?: [string, number][];
  maxCritical?: [string, number][];
  maxImportant?: [string, number][];
  expiredEvidence: boolean;
  baseline?: string;
  maxScoreDrop?: number;
  attestedWithin?: number;
  epoch?: { epochId: string; merkleRoot: string }[];
  maxUnacceptedResidual?: RiskScoreLevel;
  lapsedAcceptances: boolean;
  overdueTreatments: boolean;
  dueAssessments: boolean;
  format?: string[];
  output?: string[];
}

/** `<framework>=<number>`, for the per-framework flags. */
const frameworkNumber =
  (integer: boolean, max?: number) =>
  (value: string, previous: [string, number][] = []): [string, number][] => {
    const match = /^([^=]+)=(.+)$/.exec(value);
    const number = Number(match?.[2]);
    if (
      !match ||
      !Number.isFinite(number) ||
      number < 0 ||
      (integer && !Number.isInteger(number)) ||
      (max !== undefined && number > max)
    ) {
      throw new InvalidArgumentError(
        `expected <framework>=<${integer ? 'count' : 'score'}>, e.g. iso-42001=${integer ? '0' : '80'}${max === undefined ? '' : ` (0–${max})`}`,
      );
    }
    return [...previous, [match[1], number]];
  };

const nonNegative = (value: string) => {
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || number > 100)
    throw new InvalidArgumentError('expected a number of points, 0–100');
  return number;
};
const days = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 3650)
    throw new InvalidArgumentError('expected a number of days, 1–3650');
  return number;
};
const epochFlag = (value: string, previous: NonNullable<CheckOptions['epoch']> = []) => {
  const match = /^([^=]+)=([0-9a-fA-F]{64})$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected <epochId>=<merkleRoot> (64 hex digits)');
  return [...previous, { epochId: match[1], merkleRoot: match[2] }];
};
const collect = (value: string, previous: string[] = []) => [...previous, value];

/** The rules the flags give, layered over the policy file's (a flag wins over the file for the same rule). */
function withFlags(policy: Policy, options: CheckOptions): Policy {
  const merged: Policy = structuredClone(policy);
  const framework = (id: string): FrameworkRules => {
    merged.frameworks ??= {};
    merged.frameworks[id] ??= {};
    return merged.frameworks[id];
  };
  for (const [id, value] of options.minScore ?? []) framework(id).minScore = value;
  for (const [id, value] of options.minDirectScore ?? []) framework(id).minDirectScore = value;
  for (const [id, value] of options.maxCritical ?? []) framework(id).maxCriticalGaps = value;
  for (const [id, value] of options.maxImportant ?? []) framework(id).maxImportantGaps = value;
  if (!options.expiredEvidence) merged.noExpiredEvidence ??= {};
  if (options.baseline !== undefined) {
    merged.regression = { ...merged.regression, snapshot: options.baseline };
  }
  if (options.maxScoreDrop !== undefined) {
    if (!merged.regression)
      throw new UsageError('--max-score-drop needs a snapshot to compare with: pass --baseline <label>');
    merged.regression.maxScoreDrop = options.maxScoreDrop;
  }
  if (options.attestedWithin !== undefined) {
    merged.aiSystems = { ...merged.aiSystems, attestedWithinDays: options.attestedWithin };
  }
  if (options.epoch?.length) merged.epochs = [...(merged.epochs ?? []), ...options.epoch];
  const risks = {
    ...(options.maxUnacceptedResidual ? { maxUnacceptedResidual: options.maxUnacceptedResidual } : {}),
    ...(options.lapsedAcceptances ? {} : { noLapsedAcceptances: true }),
    ...(options.overdueTreatments ? {} : { noOverdueTreatments: true }),
  };
  if (Object.keys(risks).length) merged.risks = { ...merged.risks, ...risks };
  if (!options.dueAssessments) merged.impactAssessments = { noneDue: true };
  return merged;
}

const ruleCount = (policy: Policy) =>
  Object.keys(policy.frameworks ?? {}).length +
  [
    policy.noExpiredEvidence,
    policy.regression,
    policy.aiSystems,
    policy.risks?.maxUnacceptedResidual,
    policy.risks?.noLapsedAcceptances,
    policy.risks?.noOverdueTreatments,
    policy.impactAssessments?.noneDue,
  ].filter(Boolean).length +
  (policy.epochs?.length ?? 0);

/** Pairs each --format with the --output at the same position; one format alone may go to stdout. */
function targets(options: CheckOptions, json: boolean): { format: ReportFormat; file?: string }[] {
  const outputs = options.output ?? [];
  const formats = options.format?.length ? options.format : json ? ['json'] : [];
  for (const format of formats) {
    if (!REPORT_FORMATS.includes(format as ReportFormat)) {
      throw new UsageError(`--format ${format} is not one of ${REPORT_FORMATS.join(', ')}`);
    }
  }
  if (outputs.length > formats.length) {
    throw new UsageError('each --output needs a --format before it (json, junit, sarif or markdown)');
  }
  if (formats.length > 1 && outputs.length !== formats.length) {
    throw new UsageError('with several --format options, give each its own --output file, in the same order');
  }
  return formats.map((format, index) => ({ format: format as ReportFormat, file: outputs[index] }));
}

export function registerCheckCommand(program: Command, cli: Cli): void {
  program
    .command('check')
    .description('compliance gate for pipelines: exit 0 when every rule holds, 1 when one fails')
    .option(
      '--policy <file>',
      `rules from this policy file (default: ./${DEFAULT_POLICY_FILE} when no rule flag is given)`,
    )
    .option(
      '--min-score <framework=score>',
      'lowest acceptable score of a framework (repeatable)',
      frameworkNumber(false, 100),
    )
    .option(
      '--min-direct-score <framework=score>',
      'lowest acceptable score on direct records only (repeatable)',
      frameworkNumber(false, 100),
    )
    .option(
      '--max-critical <framework=count>',
      'most critical gaps a framework may have (repeatable)',
      frameworkNumber(true),
    )
    .option(
      '--max-important <framework=count>',
      'most important gaps a framework may have (repeatable)',
      frameworkNumber(true),
    )
    .option('--no-expired-evidence', 'fail on an implemented requirement whose evidence has all expired')
    .option('--baseline <snapshot>', 'fail on regressions since this compliance snapshot (label or id)')
    .option(
      '--max-score-drop <points>',
      'with --baseline: points the ISO/IEC 42001 score may drop (default 0)',
      nonNegative,
    )
    .option('--attested-within <days>', 'every high-risk AI system needs an attestation this recent', days)
    .option(
      '--epoch <epochId=merkleRoot>',
      'this epoch must be wholly signed (L2) with this Merkle root (repeatable)',
      epochFlag,
    )
    .addOption(
      new Option(
        '--max-unaccepted-residual <level>',
        'every AI risk whose residual level is above this has a valid acceptance',
      ).choices(RISK_SCORE_LEVELS),
    )
    .option('--no-lapsed-acceptances', 'fail on a stale or expired AI risk acceptance')
    .option('--no-overdue-treatments', 'fail on an AI risk treatment past its due date unfinished')
    .option('--no-due-assessments', 'fail on an approved impact assessment due for re-assessment')
    .option(
      '--format <format>',
      `report format: ${REPORT_FORMATS.join(' | ')} (repeatable, paired with --output)`,
      collect,
    )
    .option(
      '-o, --output <file>',
      'write the report of the matching --format here; the summary goes to stdout',
      collect,
    )
    .addHelpText(
      'after',
      `
Rules come from a policy file (JSON; schema: comply.policy.schema.json) and from the flags; a flag
overrides the file's rule of the same kind. Without --policy and without rule flags,
./${DEFAULT_POLICY_FILE} is read. The key needs the read scope.

Exit codes: 0 every rule holds; 1 a rule failed (or the API refused); 2 bad usage or an invalid policy
(the message names the JSON path of the bad member); 3 the daemon is unreachable.

Without --format a short summary is printed. With one --format and no --output the report alone goes
to stdout. With --output (repeat --format/--output in pairs) reports go to files and the summary to stdout.

Examples:
  $ comply check --org acme --min-score iso-42001=80 --max-critical eu-ai-act=0
  $ comply check --policy comply.policy.json --format junit -o check.xml --format markdown -o check.md
  $ comply check --baseline "release 1.4" --max-score-drop 2 --format sarif > check.sarif
  $ comply check --epoch 2026-11-22=<merkleRoot> --attested-within 7
  $ comply check --max-unaccepted-residual medium --no-lapsed-acceptances --no-overdue-treatments`,
    )
    .action(async (options: CheckOptions, command: Command) => {
      const orgId = cli.org(command);
      const outputs = targets(options, cli.json(command));
      // The gate (its policy schema and validator among them) is loaded for this command alone.
      const [
        { loadPolicy, PolicyError },
        { REPORTERS, textReport },
        { evaluatePolicy, PolicyReferenceError },
      ] = await Promise.all([
        import('../../gate/policy.js'),
        import('../../gate/reports.js'),
        import('../../gate/rules.js'),
      ]);
      const flagRules = withFlags({}, options);
      let loaded: LoadedPolicy | undefined;
      try {
        const file =
          options.policy ??
          (ruleCount(flagRules) === 0 && existsSync(DEFAULT_POLICY_FILE) ? DEFAULT_POLICY_FILE : undefined);
        if (file) loaded = loadPolicy(file);
      } catch (error) {
        if (error instanceof PolicyError) throw new UsageError(error.message);
        throw error;
      }
      const policy = withFlags(loaded?.policy ?? {}, options);
      if (ruleCount(policy) === 0) {
        throw new UsageError(
          `no rules to check: pass --policy <file>, create ./${DEFAULT_POLICY_FILE}, or give rule flags (see comply check --help)`,
        );
      }
      const client = cli.client(command);
      const started = Date.now();
      let results: CheckReport['results'];
      try {
        results = await withProgress({ json: outputs.length > 0 }, 'Checking the policy', () =>
          evaluatePolicy(client, orgId, policy),
        );
      } catch (error) {
        if (error instanceof PolicyReferenceError) throw new UsageError(error.message);
        throw error;
      }
      const report: CheckReport = {
        orgId,
        url: client.baseUrl,
        checkedAt: new Date().toISOString(),
        durationMs: Date.now() - started,
        results,
        ...(loaded ? { policy: { file: loaded.file, text: loaded.text } } : {}),
      };
      const toStdout = outputs.find((target) => !target.file);
      for (const target of outputs) {
        if (target.file) await writeFile(target.file, REPORTERS[target.format](report));
      }
      process.stdout.write(toStdout ? REPORTERS[toStdout.format](report) : textReport(report));
      if (!results.every((r) => r.passed)) process.exitCode = CHECK_FAILED;
    });
}
