import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import type { ApiClient } from '../../api-client/client.js';
import {
  impactAssessmentPath,
  impactAssessmentTemplatePath,
  systemImpactAssessmentPath,
} from '../../api-client/paths.js';
import type {
  ImpactAssessment,
  ImpactAssessmentPage,
  ImpactAssessmentTemplate,
  ImpactAssessmentTemplateList,
} from '../../api-client/types.js';
import { type Cli, parseInteger, UsageError } from '../cli.js';
import { describe } from '../output.js';

type Question = ImpactAssessmentTemplate['sections'][number]['questions'][number];
type Answer = ImpactAssessment['answers'][string];

const STATES = ['draft', 'submitted', 'approved', 'superseded'];

/**
 * The words given on the command line as the answer the question takes: text joins them, a choice is one
 * option, a multi lists options (one word each: options may hold commas), a scale is 1..n or one of its
 * points by name. A question the template does not ask is sent as text, for the daemon to name.
 */
export function answerOf(question: Question | undefined, words: string[]): Answer {
  const joined = words.join(' ');
  if (!question) return joined;
  const options = question.options ?? [];
  switch (question.kind) {
    case 'text':
      return joined;
    case 'choice':
      if (words.length !== 1) throw new UsageError(`${question.questionId} takes one option: quote it`);
      return words[0];
    case 'multi':
      return words;
    case 'scale': {
      if (words.length !== 1) throw new UsageError(`${question.questionId} takes one point of its scale`);
      const named = options.indexOf(words[0]);
      if (named >= 0) return named + 1;
      const point = Number(words[0]);
      if (!Number.isInteger(point)) {
        throw new UsageError(
          `${question.questionId} takes 1..${options.length} or one of: ${options.join(' | ')}`,
        );
      }
      return point;
    }
  }
}

const showAnswer = (value: Answer | undefined) =>
  value === undefined ? '-' : Array.isArray(value) ? value.join('; ') : String(value);

async function templateOf(client: ApiClient, templateId: string): Promise<ImpactAssessmentTemplate> {
  return client.get<ImpactAssessmentTemplate>(impactAssessmentTemplatePath(templateId));
}

/** The assessment as text: what it is, whether it is due again, its answers by section, its impacts. */
function assessmentText(assessment: ImpactAssessment, template?: ImpactAssessmentTemplate): string {
  const head = describe({
    assessmentId: assessment.assessmentId,
    system: assessment.systemId,
    template: `${assessment.templateId} v${assessment.templateVersion}`,
    version: assessment.version,
    state: assessment.state,
    'submitted by':
      assessment.submittedBy && `${assessment.submittedBy.name} (${assessment.submittedBy.type})`,
    'approved by': assessment.approvedBy && `${assessment.approvedBy.name} <${assessment.approvedBy.email}>`,
    approved: assessment.approvedAt,
    'review due': assessment.reviewDue,
    'content hash': assessment.contentHash,
    'superseded by': assessment.supersededBy,
    reassessment: assessment.reassessment.due
      ? `due: ${assessment.reassessment.reasons.map((r) => r.message).join('; ')}`
      : 'not due',
    updated: assessment.updatedAt,
  });
  const lines = [head];
  if (template) {
    for (const section of template.sections) {
      lines.push('', section.title);
      for (const question of section.questions) {
        lines.push(
          `  ${question.questionId}${question.required ? ' *' : ''}: ${showAnswer(assessment.answers[question.questionId])}`,
        );
      }
    }
  } else {
    lines.push('', 'Answers');
    for (const [questionId, value] of Object.entries(assessment.answers))
      lines.push(`  ${questionId}: ${showAnswer(value)}`);
  }
  lines.push('', `Impacts (${assessment.impacts.length})`);
  for (const impact of assessment.impacts) {
    lines.push(
      `  ${impact.affected}, likelihood ${impact.likelihood}, severity ${impact.severity}: ${impact.description}` +
        `${impact.riskId ? ` (risk ${impact.riskId})` : ''}`,
    );
  }
  return lines.join('\n');
}

function readImpacts(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  let impacts: unknown;
  try {
    impacts = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(impacts)) throw new UsageError(`${file} must hold a JSON array of impacts`);
  return impacts;
}

export function registerImpactAssessmentCommands(program: Command, cli: Cli): void {
  const assessments = program
    .command('assessments')
    .description(
      'impact assessments of AI systems (ISO/IEC 42001 AIIA, EU AI Act FRIA, GDPR DPIA): draft, submit, approve, revise',
    );

  /** Prints one assessment, with its template's sections when the text needs them. */
  const show = async (command: Command, assessment: ImpactAssessment) => {
    const template = cli.json(command)
      ? undefined
      : await templateOf(cli.client(command), assessment.templateId).catch(() => undefined);
    await cli.print(command, { data: assessment, text: assessmentText(assessment, template) });
  };

  assessments
    .command('templates')
    .description(
      'the templates an assessment starts from, and the requirements an approved one is evidence for',
    )
    .action(async (_options, command: Command) => {
      const list = await cli
        .client(command)
        .get<ImpactAssessmentTemplateList>(impactAssessmentTemplatePath());
      await cli.print(command, {
        data: list,
        table: {
          columns: ['TEMPLATE', 'VERSION', 'QUESTIONS', 'EVIDENCE FOR', 'NAME'],
          rows: list.templates.map((template) => [
            template.templateId,
            template.version,
            template.sections.reduce((sum, section) => sum + section.questions.length, 0),
            template.evidenceFor.map((ref) => `${ref.frameworkId} ${ref.requirementId}`).join(', '),
            template.name,
          ]),
        },
      });
    });

  assessments
    .command('start <systemId>')
    .description("start an AI system's assessment of a template: version 1, a draft")
    .requiredOption(
      '--template <templateId>',
      'iso-42001-aiia | eu-ai-act-fria | gdpr-dpia (see `assessments templates`)',
    )
    .addHelpText(
      'after',
      `
Example:
  $ comply --org acme assessments start 3f0c… --template eu-ai-act-fria`,
    )
    .action(async (systemId: string, options: { template: string }, command: Command) => {
      const started = await cli
        .client(command)
        .post<ImpactAssessment>(systemImpactAssessmentPath(cli.org(command), systemId), {
          templateId: options.template,
        });
      await show(command, started);
    });

  assessments
    .command('answer <assessmentId> <questionId> [value...]')
    .description(
      'answer one question of a draft (text: the words; choice: one option; multi: one option per word; scale: 1..n or a point by name)',
    )
    .option('--clear', 'remove the answer instead')
    .addHelpText(
      'after',
      `
Examples:
  $ comply assessments answer $ID intended-use "Ranks applicants for interviews"
  $ comply assessments answer $ID parties "children" "society at large"
  $ comply assessments answer $ID overall-severity moderate
  $ comply assessments answer $ID failures --clear`,
    )
    .action(
      async (
        assessmentId: string,
        questionId: string,
        words: string[],
        options: { clear?: boolean },
        command: Command,
      ) => {
        if (options.clear && words.length) throw new UsageError('--clear takes no value');
        if (!options.clear && !words.length)
          throw new UsageError(`No value given for ${questionId} (or pass --clear)`);
        const client = cli.client(command);
        const orgId = cli.org(command);
        let value: Answer | null = null;
        if (!options.clear) {
          const current = await client.get<ImpactAssessment>(impactAssessmentPath(orgId, assessmentId));
          const template = await templateOf(client, current.templateId);
          const question = template.sections
            .flatMap((s) => s.questions)
            .find((q) => q.questionId === questionId);
          value = answerOf(question, words);
        }
        const updated = await client.put<ImpactAssessment>(impactAssessmentPath(orgId, assessmentId), {
          answers: { [questionId]: value },
        });
        await cli.print(command, {
          data: updated,
          text: `${questionId}: ${options.clear ? '(cleared)' : showAnswer(updated.answers[questionId])}`,
        });
      },
    );

  assessments
    .command('impacts <assessmentId> <file>')
    .description(
      'replace the impacts of a draft with a JSON array ("-" reads stdin) of {affected, rights?, description, likelihood, severity, mitigation?, riskId?}',
    )
    .action(async (assessmentId: string, file: string, _options, command: Command) => {
      const updated = await cli
        .client(command)
        .put<ImpactAssessment>(impactAssessmentPath(cli.org(command), assessmentId), {
          impacts: readImpacts(file),
        });
      await show(command, updated);
    });

  const transition = (name: string, description: string) =>
    assessments
      .command(`${name} <assessmentId>`)
      .description(description)
      .action(async (assessmentId: string, _options, command: Command) => {
        const result = await cli
          .client(command)
          .post<ImpactAssessment>(
            impactAssessmentPath(cli.org(command), assessmentId, `/${name}`),
            undefined,
          );
        await show(command, result);
      });
  transition('submit', 'submit a draft for approval (every required question answered)');
  transition(
    'approve',
    'approve a submitted assessment: a signed-in approver or owner (`comply login`), not the person who submitted it',
  );
  transition(
    'revise',
    'start a revision of an approved assessment: a new draft, version + 1, answers copied',
  );

  assessments
    .command('list')
    .description("the org's assessments, most recently changed first")
    .addOption(new Option('--state <state>', 'only this state').choices(STATES))
    .option('--due', 'only approved assessments due for re-assessment')
    .option('--system <systemId>', "only this AI system's")
    .option('--template <templateId>', 'only this template')
    .option('--limit <n>', 'page size, 1..200', parseInteger)
    .option('--offset <n>', 'items to skip', parseInteger)
    .action(
      async (
        options: {
          state?: string;
          due?: boolean;
          system?: string;
          template?: string;
          limit?: number;
          offset?: number;
        },
        command: Command,
      ) => {
        const page = await cli
          .client(command)
          .get<ImpactAssessmentPage>(impactAssessmentPath(cli.org(command)), {
            state: options.state,
            due: options.due ? 'true' : undefined,
            systemId: options.system,
            templateId: options.template,
            limit: options.limit,
            offset: options.offset,
          });
        await cli.print(command, {
          data: page,
          text: `${page.assessments.length} of ${page.total}`,
          table: {
            columns: ['ID', 'SYSTEM', 'TEMPLATE', 'VERSION', 'STATE', 'DUE AGAIN', 'REVIEW DUE', 'UPDATED'],
            rows: page.assessments.map((a) => [
              a.assessmentId,
              a.systemId,
              a.templateId,
              a.version,
              a.state,
              a.reassessment.due ? a.reassessment.reasons.map((r) => r.code).join(',') : '',
              a.reviewDue?.slice(0, 10),
              a.updatedAt,
            ]),
          },
        });
      },
    );

  assessments
    .command('show <assessmentId>')
    .description('one assessment: state, approval, whether it is due again, answers by section, impacts')
    .action(async (assessmentId: string, _options, command: Command) => {
      await show(
        command,
        await cli.client(command).get<ImpactAssessment>(impactAssessmentPath(cli.org(command), assessmentId)),
      );
    });
}
