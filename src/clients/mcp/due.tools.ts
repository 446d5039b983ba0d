import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { DUE_KINDS, FINDING_KINDS } from '../../shared/vocabulary.js';
import { duePath, findingPath } from '../api-client/paths.js';
import type { Agenda, FindingList } from '../api-client/types.js';
import { clip, defineTool, listText, page, pageInfo, READ, type ToolContext } from './tool.js';

/** The management-system loop's reads: what is due, and the findings still open. */
export function registerDueTools(server: McpServer, context: ToolContext): void {
  defineTool(server, context, {
    name: 'what_is_due',
    title: 'What is due: every dated obligation, overdue first',
    description:
      'The organization’s agenda, soonest first (so overdue items come first): evidence that expires, risk treatments due and risk reviews, risk acceptances that expire, impact assessment reviews, document reviews, corrective actions of open findings and management-review decisions. Each item has its kind, due date, whether it is overdue, its owner (a name or email, when set), a title and the record it belongs to. Filter by owner, kind, overdue or a date range.',
    annotations: READ,
    input: {
      owner: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe('Only this owner’s items (a name or an email, any case)'),
      kind: z
        .enum(DUE_KINDS)
        .optional()
        .describe(`Only items of this kind: ${DUE_KINDS.join(', ')}`),
      overdue: z.boolean().optional().describe('true: only overdue items; false: only those still ahead'),
      from: z.string().optional().describe('Due at or after, ISO date or date-time'),
      to: z.string().optional().describe('Due before, ISO date or date-time'),
      ...page(50),
    },
    output: {
      items: z.array(
        z.object({
          kind: z.string(),
          dueAt: z.string(),
          overdue: z.boolean(),
          owner: z.string().nullable(),
          title: z.string(),
          resource: z.object({ type: z.string(), id: z.string() }),
        }),
      ),
      ...pageInfo,
    },
    run: async (args, { client, orgId }) => {
      const agenda = await client.get<Agenda>(duePath(orgId), args);
      const items = agenda.items.map((item) => ({ ...item, owner: item.owner ?? null }));
      const next = agenda.offset + items.length;
      const overdue = items.filter((item) => item.overdue).length;
      return {
        data: {
          items,
          total: agenda.total,
          offset: agenda.offset,
          nextOffset: next < agenda.total ? next : null,
        },
        text: listText(
          `${agenda.total} item(s) due${overdue ? ` (${overdue} overdue on this page)` : ''}${items.length ? ', soonest first:' : '.'}`,
          items.map(
            (item) =>
              `${item.dueAt.slice(0, 10)}${item.overdue ? ' OVERDUE' : ''} ${clip(item.title, 140)}${item.owner ? ` (${item.owner})` : ''} [${item.kind}, ${item.resource.type} ${item.resource.id}]`,
          ),
          { total: agenda.total - agenda.offset, nextOffset: next < agenda.total ? next : null },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'open_findings',
    title: 'Open findings of internal audits',
    description:
      'Nonconformities, observations and opportunities from internal audits (ISO/IEC 42001 9.2, 10.2) that are still open: kind, the requirements each is about (with their status now), description, root cause, corrective action, owner and due date, and the effectiveness checks made so far. An open major nonconformity caps its requirements at in_progress in scores, gaps and coverage until a check finds the corrective action effective.',
    annotations: READ,
    input: {
      kind: z
        .enum(FINDING_KINDS)
        .optional()
        .describe(`Only this kind: ${FINDING_KINDS.join(', ')}`),
    },
    output: {
      findings: z.array(
        z.object({
          findingId: z.string(),
          auditId: z.string(),
          kind: z.string(),
          requirements: z.array(
            z.object({ frameworkId: z.string(), requirementId: z.string(), status: z.string() }),
          ),
          description: z.string(),
          rootCause: z.string().nullable(),
          correctiveAction: z.string().nullable(),
          owner: z.string().nullable(),
          dueDate: z.string().nullable(),
          caps: z
            .boolean()
            .describe('An open major nonconformity: its requirements count at most as in progress'),
          checks: z.number().int().describe('Effectiveness checks made so far (none effective yet)'),
          openedAt: z.string(),
        }),
      ),
    },
    run: async (args, { client, orgId }) => {
      const list = await client.get<FindingList>(findingPath(orgId), { state: 'open', kind: args.kind });
      const findings = list.findings.map((f) => ({
        findingId: f.findingId,
        auditId: f.auditId,
        kind: f.kind,
        requirements: f.requirements,
        description: f.description,
        rootCause: f.rootCause,
        correctiveAction: f.correctiveAction,
        owner: f.owner,
        dueDate: f.dueDate,
        caps: f.caps,
        checks: f.checks.length,
        openedAt: f.openedAt,
      }));
      return {
        data: { findings },
        text: listText(
          `${findings.length} open finding(s)${findings.length ? ':' : '.'}`,
          findings.map(
            (f) =>
              `${f.kind.replaceAll('_', ' ')} on ${f.requirements.map((r) => `${r.frameworkId} ${r.requirementId} (${r.status})`).join(', ') || 'no requirement'}` +
              `${f.dueDate ? `, due ${f.dueDate.slice(0, 10)}` : ''}${f.caps ? ', caps its requirements' : ''} ${f.findingId}: ${clip(f.description, 140)}` +
              (f.correctiveAction ? ` Corrective action: ${clip(f.correctiveAction, 100)}` : ''),
          ),
        ),
      };
    },
  });
}
