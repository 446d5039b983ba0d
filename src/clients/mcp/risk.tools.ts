import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { RISK_SCORE_LEVELS, RISK_STATES, TREATMENT_OPTIONS } from '../../shared/vocabulary.js';
import { ApiError } from '../api-client/client.js';
import { orgPath, requirementPath, riskPath } from '../api-client/paths.js';
import { acceptanceText, missingForTreated, ratedText } from '../api-client/risk-text.js';
import type { Requirement, Risk, RiskCriteria, RiskList } from '../api-client/types.js';
import { clip, defineTool, listText, page, pageInfo, READ, type ToolContext } from './tool.js';

/** The read tools of the AI risk register. */

const rated = z.object({ score: z.number().int(), level: z.enum(RISK_SCORE_LEVELS) });
const acceptance = z
  .object({
    state: z.enum(['valid', 'stale', 'expired']),
    acceptedBy: z.string().describe('Name and email of the approver'),
    acceptedAt: z.string(),
    expiresAt: z.string(),
    justification: z.string(),
  })
  .nullable()
  .describe('null: never accepted');

const acceptanceOf = (risk: Risk) =>
  risk.acceptance && {
    state: risk.acceptance.state,
    acceptedBy: `${risk.acceptance.acceptedBy.name} <${risk.acceptance.acceptedBy.email}>`,
    acceptedAt: risk.acceptance.acceptedAt,
    expiresAt: risk.acceptance.expiresAt,
    justification: risk.acceptance.justification,
  };

export function registerRiskTools(server: McpServer, context: ToolContext): void {
  defineTool(server, context, {
    name: 'list_risks',
    title: 'AI risks of the register',
    description:
      'The organization’s AI risk register, oldest first: each risk with its AI systems, inherent and residual rating (score = likelihood × impact, level low | medium | high | critical by the org’s criteria), treatment option and progress (listed requirements implemented of total), whether the treatment is overdue, its acceptance (valid | stale | expired) and its derived state: open (no treatment) | treating | treated | accepted | needs_acceptance. Filter by state, residual level, AI system or a requirement the treatment lists; paged. explain_risk_treatment tells what one risk still needs.',
    annotations: READ,
    input: {
      state: z.enum(RISK_STATES).optional().describe('Only risks in this state'),
      level: z.enum(RISK_SCORE_LEVELS).optional().describe('Only risks of this residual level'),
      systemId: z.string().min(1).max(64).optional().describe('Only risks of this AI system (its systemId)'),
      frameworkId: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .describe('With requirementId: only risks whose treatment lists that requirement'),
      requirementId: z.string().min(1).max(128).optional(),
      ...page(50),
    },
    output: {
      orgId: z.string(),
      risks: z.array(
        z.object({
          riskId: z.string(),
          title: z.string(),
          systemIds: z.array(z.string()),
          owner: z.string().nullable(),
          inherent: rated,
          residual: rated,
          state: z.enum(RISK_STATES),
          treatmentOption: z.enum(TREATMENT_OPTIONS).nullable().describe('null: no treatment'),
          treatmentProgress: z.object({ implemented: z.number().int(), total: z.number().int() }),
          treatmentOverdue: z.boolean(),
          acceptance,
        }),
      ),
      ...pageInfo,
    },
    run: async (args, { client, orgId }) => {
      if ((args.frameworkId === undefined) !== (args.requirementId === undefined)) {
        throw new Error('frameworkId and requirementId go together');
      }
      const list = await client.get<RiskList>(riskPath(orgId), {
        state: args.state,
        level: args.level,
        systemId: args.systemId,
        requirement: args.frameworkId ? `${args.frameworkId}:${args.requirementId}` : undefined,
        limit: args.limit,
        offset: args.offset,
      });
      const risks = list.risks.map((risk) => ({
        riskId: risk.riskId,
        title: risk.title,
        systemIds: risk.systemIds,
        owner: risk.owner,
        inherent: risk.inherent,
        residual: risk.residual,
        state: risk.state,
        treatmentOption: risk.treatment?.option ?? null,
        treatmentProgress: {
          implemented: risk.treatmentProgress.implemented,
          total: risk.treatmentProgress.total,
        },
        treatmentOverdue: risk.treatmentOverdue,
        acceptance: acceptanceOf(risk),
      }));
      const end = list.offset + risks.length;
      return {
        data: {
          orgId: list.orgId,
          risks,
          total: list.total,
          offset: list.offset,
          nextOffset: end < list.total ? end : null,
        },
        text: listText(
          `${list.total} risk(s)${risks.length ? `, from ${list.offset}:` : '.'}`,
          risks.map(
            (r) =>
              `${r.riskId} "${r.title}" (${r.state}, residual ${ratedText(r.residual)}); ` +
              (r.treatmentOption
                ? `${r.treatmentOption}, ${r.treatmentProgress.implemented} of ${r.treatmentProgress.total} implemented${r.treatmentOverdue ? ', OVERDUE' : ''}`
                : 'no treatment') +
              (r.acceptance ? `; acceptance ${r.acceptance.state}` : ''),
          ),
          { total: list.total - list.offset, nextOffset: end < list.total ? end : null },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'explain_risk_treatment',
    title: 'What a risk’s treatment needs to be done',
    description:
      'One AI risk’s treatment: the option (mitigate | avoid | transfer | accept), plan and due date, each requirement it lists (any framework) with its title and live effective status (the org’s record, else what the crosswalk infers), the residual level against the org’s acceptable level, the acceptance, and — in missing — what still keeps the risk from the state treated, one sentence each (a requirement to implement, a residual level above what the org accepts, an accept option that only an approver’s acceptance settles).',
    annotations: READ,
    input: { riskId: z.string().min(1).max(64).describe('The riskId, from list_risks') },
    output: {
      riskId: z.string(),
      title: z.string(),
      state: z.enum(RISK_STATES),
      option: z.enum(TREATMENT_OPTIONS).nullable().describe('null: no treatment yet'),
      plan: z.string().nullable(),
      dueDate: z.string().nullable(),
      overdue: z.boolean(),
      requirements: z.array(
        z.object({
          frameworkId: z.string(),
          requirementId: z.string(),
          title: z.string().nullable(),
          status: z.string().describe('Effective status: not_started | in_progress | implemented'),
          implemented: z.boolean(),
        }),
      ),
      inherent: rated,
      residual: rated,
      acceptableLevel: z.enum(RISK_SCORE_LEVELS).describe('Residual risk above it needs an acceptance'),
      acceptance,
      missing: z.array(z.string()).describe('What keeps the risk from being treated; empty when it is'),
    },
    run: async ({ riskId }, { client, orgId }) => {
      const [risk, criteria] = await Promise.all([
        client.get<Risk>(riskPath(orgId, riskId)),
        client.get<RiskCriteria>(orgPath(orgId, '/risk-criteria')),
      ]);
      const titled = await Promise.all(
        risk.treatmentProgress.requirements.map(async (r) => {
          let title: string | null = null;
          try {
            title = (await client.get<Requirement>(requirementPath(orgId, r.frameworkId, r.requirementId)))
              .title;
          } catch (error) {
            // A requirement of a framework removed since (or one an auditor may not read): no title.
            if (!(error instanceof ApiError && (error.status === 404 || error.status === 403))) throw error;
          }
          return { ...r, title, implemented: r.status === 'implemented' };
        }),
      );
      const missing = risk.state === 'treated' ? [] : missingForTreated(risk, criteria.acceptableLevel);
      const treatment = risk.treatment;
      return {
        data: {
          riskId: risk.riskId,
          title: risk.title,
          state: risk.state,
          option: treatment?.option ?? null,
          plan: treatment?.plan ?? null,
          dueDate: treatment?.dueDate ?? null,
          overdue: risk.treatmentOverdue,
          requirements: titled,
          inherent: risk.inherent,
          residual: risk.residual,
          acceptableLevel: criteria.acceptableLevel,
          acceptance: acceptanceOf(risk),
          missing,
        },
        text:
          `${risk.riskId} "${risk.title}": ${risk.state}; ${treatment ? `${treatment.option}, ${risk.treatmentProgress.implemented} of ${risk.treatmentProgress.total} requirement(s) implemented` : 'no treatment'}; ` +
          `residual ${ratedText(risk.residual)}, acceptable up to ${criteria.acceptableLevel}; acceptance ${acceptanceText(risk.acceptance)}.` +
          (treatment?.dueDate
            ? ` Due ${treatment.dueDate.slice(0, 10)}${risk.treatmentOverdue ? ' (overdue)' : ''}.`
            : '') +
          (treatment?.plan ? `\nPlan: ${clip(treatment.plan, 300)}` : '') +
          (titled.length
            ? `\n${listText(
                'Requirements listed:',
                titled.map(
                  (r) =>
                    `${r.frameworkId} ${r.requirementId}${r.title ? ` "${clip(r.title, 100)}"` : ''}: ${r.status}`,
                ),
              )}`
            : '') +
          (missing.length ? `\nMissing for treated:\n- ${missing.join('\n- ')}` : ''),
      };
    },
  });
}
