import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { FINDING_KINDS } from '../../shared/vocabulary.js';
import type { ApiClient } from '../api-client/client.js';
import { score as formatScore } from '../api-client/format.js';
import {
  attestationPath,
  auditPath,
  duePath,
  findingPath,
  frameworkPath,
  reviewPath,
  riskPath,
} from '../api-client/paths.js';
import type {
  Agenda,
  AttestationList,
  Finding,
  FindingList,
  History,
  InternalAuditList,
  ManagementReviewList,
  OrgFrameworkList,
  Risk,
  RiskList,
  RiskSummary,
} from '../api-client/types.js';
import { clip, defineTool, listText, READ, type ToolContext } from './tool.js';

const DAY_MS = 86_400_000;
/** Acceptances expiring this long after the period are an input (as the daemon computes a review's). */
const ACCEPTANCE_HORIZON_MS = 90 * DAY_MS;
/** The first items of the agenda the tool returns; `due.total` counts them all. */
const DUE_ITEMS = 20;
const RISK_PAGE = 1000;
const DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:\d{2}))?$/;

/** The routes the tool reads, every one a GET with the read scope: it never creates a review. */
export const REVIEW_SOURCES = [
  'GET /orgs/{orgId}/frameworks',
  'GET /orgs/{orgId}/frameworks/{frameworkId}/compliance/history (each framework, at both ends of the period)',
  'GET /orgs/{orgId}/findings',
  'GET /orgs/{orgId}/audits',
  'GET /orgs/{orgId}/attestations?level&from&to&includeTotal',
  'GET /orgs/{orgId}/risks/summary',
  'GET /orgs/{orgId}/risks',
  'GET /orgs/{orgId}/management-reviews',
  'GET /orgs/{orgId}/due',
];

/** A date (`YYYY-MM-DD`, UTC) or an ISO date-time; a bare date as `to` means the whole of that day. */
function instant(value: string, bound: 'from' | 'to'): Date {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = new Date(bare ? `${value}T00:00:00.000Z` : value);
  if (Number.isNaN(at.getTime())) {
    throw new Error(`${bound} must be a date (YYYY-MM-DD) or an ISO date-time, not "${value}"`);
  }
  return bare && bound === 'to' ? new Date(at.getTime() + DAY_MS) : at;
}

const inPeriod = (at: string | null, from: Date, to: Date) =>
  at !== null && Date.parse(at) >= from.getTime() && Date.parse(at) < to.getTime();

const byKind = (findings: Finding[]) =>
  findings.reduce<Record<string, number>>((counts, finding) => {
    counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
    return counts;
  }, {});

/** A framework's score as of an instant: the history point of the day it falls in. */
async function scoreAt(client: ApiClient, orgId: string, frameworkId: string, at: Date) {
  const day = at.toISOString();
  const history = await client.get<History>(frameworkPath(orgId, frameworkId, '/compliance/history'), {
    from: day,
    to: day,
    interval: 'daily',
  });
  return history.points.at(-1)?.score ?? null;
}

async function attestationCount(client: ApiClient, orgId: string, level: string, from: Date, to: Date) {
  const page = await client.get<AttestationList>(attestationPath(orgId), {
    level,
    from: from.toISOString(),
    // The route's `to` is inclusive; the period's end is not.
    to: new Date(to.getTime() - 1).toISOString(),
    limit: 1,
    includeTotal: true,
  });
  return page.total ?? 0;
}

async function everyRisk(client: ApiClient, orgId: string): Promise<Risk[]> {
  const risks: Risk[] = [];
  for (let offset = 0; ; offset += RISK_PAGE) {
    const page = await client.get<RiskList>(riskPath(orgId), { limit: RISK_PAGE, offset });
    risks.push(...page.risks);
    if (risks.length >= page.total || page.risks.length === 0) return risks;
  }
}

const score = z.number().nullable().describe('0–100; null when nothing applied then');
const counts = z.record(z.string(), z.number().int());

export function registerReviewTools(server: McpServer, context: ToolContext): void {
  defineTool(server, context, {
    name: 'prepare_management_review',
    title: 'Prepare a management review: its inputs for a period',
    description:
      'The inputs an ISO/IEC 42001 9.3 management review of a period would hold, assembled by reading the org’s records without creating a review: ' +
      'every framework’s score at the start and the end of the period and the change; nonconformities opened, closed and open at the end of the period, by kind; ' +
      'the findings open now (an open major nonconformity caps its requirements at in_progress); audits completed in the period with their findings by kind; ' +
      'attestations by level; risks by residual level and state, overdue treatments and acceptances expiring within 90 days after the period; ' +
      'opportunities for improvement; the actions decided by earlier reviews (overdue flagged); and what is due now (overdue first). ' +
      'It reads only, with the read scope: GET frameworks, each framework’s compliance history, findings, audits, attestations, risks and their summary, management reviews and the agenda (due). ' +
      'Holding the review itself (which freezes these inputs) is for a person: `comply reviews hold`.',
    annotations: READ,
    input: {
      from: z
        .string()
        .regex(DATE, 'a date (YYYY-MM-DD) or an ISO date-time')
        .describe('Start of the period: YYYY-MM-DD (UTC) or an ISO date-time'),
      to: z
        .string()
        .regex(DATE, 'a date (YYYY-MM-DD) or an ISO date-time')
        .describe('End of the period: YYYY-MM-DD counts that whole day; an ISO date-time is exclusive'),
    },
    output: {
      orgId: z.string(),
      period: z.object({ from: z.string(), to: z.string() }),
      scores: z.array(
        z.object({
          frameworkId: z.string(),
          name: z.string(),
          from: score,
          to: score,
          change: z.number().nullable(),
        }),
      ),
      nonconformities: z.object({
        opened: z.number().int(),
        closed: z.number().int(),
        openAtEnd: z.number().int(),
        byKind: counts.describe('Opened in the period, by kind'),
      }),
      openFindings: z.array(
        z.object({
          findingId: z.string(),
          auditId: z.string(),
          kind: z.enum(FINDING_KINDS),
          caps: z.boolean(),
          requirements: z.array(z.string()).describe('"<frameworkId>:<requirementId> (<status now>)"'),
          owner: z.string().nullable(),
          dueDate: z.string().nullable(),
          description: z.string(),
        }),
      ),
      audits: z.object({
        completed: z.array(
          z.object({
            auditId: z.string(),
            title: z.string(),
            completedAt: z.string().nullable(),
            conclusion: z.string().nullable(),
            findingsByKind: counts,
          }),
        ),
      }),
      attestations: z.object({ byLevel: z.object({ L0: z.number().int(), L2: z.number().int() }) }),
      risks: z.object({
        byLevel: counts,
        byState: counts,
        overdueTreatments: z.number().int(),
        acceptancesExpiring: z.array(
          z.object({ riskId: z.string(), title: z.string(), expiresAt: z.string() }),
        ),
      }),
      opportunities: z.array(
        z.object({ findingId: z.string(), description: z.string(), openedAt: z.string() }),
      ),
      earlierActions: z.array(
        z.object({
          reviewId: z.string(),
          heldAt: z.string(),
          text: z.string(),
          owner: z.string().nullable(),
          dueDate: z.string().nullable(),
          overdue: z.boolean(),
        }),
      ),
      due: z.object({
        total: z.number().int(),
        overdue: z.number().int(),
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
      }),
      sources: z.array(z.string()).describe('The routes read'),
    },
    run: async (args, { client, orgId }) => {
      const from = instant(args.from, 'from');
      const to = instant(args.to, 'to');
      if (to <= from) throw new Error('The period must end after it starts');
      const now = new Date();
      const [frameworks, findings, audits, summary, risks, reviews, agenda, overdue, L0, L2] =
        await Promise.all([
          client.get<OrgFrameworkList>(frameworkPath(orgId)),
          client.get<FindingList>(findingPath(orgId)).then((list) => list.findings),
          client.get<InternalAuditList>(auditPath(orgId)).then((list) => list.audits),
          client.get<RiskSummary>(riskPath(orgId, 'summary')),
          everyRisk(client, orgId),
          client.get<ManagementReviewList>(reviewPath(orgId)).then((list) => list.reviews),
          client.get<Agenda>(duePath(orgId), { limit: DUE_ITEMS }),
          client.get<Agenda>(duePath(orgId), { overdue: true, limit: 1 }),
          attestationCount(client, orgId, 'L0', from, to),
          attestationCount(client, orgId, 'L2', from, to),
        ]);
      const end = new Date(Math.min(to.getTime(), now.getTime()));
      const scores = await Promise.all(
        frameworks.frameworks.map(async (framework) => {
          const [atFrom, atTo] = await Promise.all([
            scoreAt(client, orgId, framework.frameworkId, from),
            scoreAt(client, orgId, framework.frameworkId, end),
          ]);
          return {
            frameworkId: framework.frameworkId,
            name: framework.name,
            from: atFrom,
            to: atTo,
            change: atFrom === null || atTo === null ? null : Math.round((atTo - atFrom) * 10) / 10,
          };
        }),
      );
      const nonconformities = findings.filter((finding) => finding.kind.endsWith('_nonconformity'));
      const openFindings = findings.filter((finding) => finding.state === 'open');
      const data = {
        orgId,
        period: { from: from.toISOString(), to: to.toISOString() },
        scores,
        nonconformities: {
          opened: nonconformities.filter((finding) => inPeriod(finding.openedAt, from, to)).length,
          closed: nonconformities.filter((finding) => inPeriod(finding.closedAt, from, to)).length,
          openAtEnd: nonconformities.filter(
            (finding) =>
              Date.parse(finding.openedAt) < to.getTime() &&
              (finding.closedAt === null || Date.parse(finding.closedAt) >= to.getTime()),
          ).length,
          byKind: byKind(nonconformities.filter((finding) => inPeriod(finding.openedAt, from, to))),
        },
        openFindings: openFindings.map((finding) => ({
          findingId: finding.findingId,
          auditId: finding.auditId,
          kind: finding.kind,
          caps: finding.caps,
          requirements: finding.requirements.map((r) => `${r.frameworkId}:${r.requirementId} (${r.status})`),
          owner: finding.owner,
          dueDate: finding.dueDate,
          description: finding.description,
        })),
        audits: {
          completed: audits
            .filter((audit) => inPeriod(audit.completedAt, from, to))
            .map((audit) => ({
              auditId: audit.auditId,
              title: audit.title,
              completedAt: audit.completedAt,
              conclusion: audit.conclusion,
              findingsByKind: byKind(findings.filter((finding) => finding.auditId === audit.auditId)),
            })),
        },
        attestations: { byLevel: { L0, L2 } },
        risks: {
          byLevel: summary.counts.byLevel,
          byState: summary.counts.byState,
          overdueTreatments: summary.overdueTreatments,
          acceptancesExpiring: risks
            .filter(
              (risk) =>
                risk.acceptance?.state === 'valid' &&
                Date.parse(risk.acceptance.expiresAt) < to.getTime() + ACCEPTANCE_HORIZON_MS,
            )
            .map((risk) => ({
              riskId: risk.riskId,
              title: risk.title,
              expiresAt: risk.acceptance?.expiresAt as string,
            })),
        },
        opportunities: findings
          .filter((finding) => finding.kind === 'opportunity' && inPeriod(finding.openedAt, from, to))
          .map((finding) => ({
            findingId: finding.findingId,
            description: finding.description,
            openedAt: finding.openedAt,
          })),
        earlierActions: reviews
          .filter((review) => Date.parse(review.heldAt) < now.getTime())
          .flatMap((review) =>
            review.decisions.map((decision) => ({
              reviewId: review.reviewId,
              heldAt: review.heldAt,
              text: decision.text,
              owner: decision.owner ?? null,
              dueDate: decision.dueDate ?? null,
              overdue: decision.dueDate !== undefined && Date.parse(decision.dueDate) < now.getTime(),
            })),
          ),
        due: {
          total: agenda.total,
          overdue: overdue.total,
          items: agenda.items.map((item) => ({ ...item, owner: item.owner ?? null })),
        },
        sources: REVIEW_SOURCES,
      };
      const moved = scores
        .filter((s) => s.from !== s.to)
        .map((s) => `${s.frameworkId} ${formatScore(s.from)} → ${formatScore(s.to)}`);
      return {
        data,
        text: [
          `Management review inputs for ${orgId}, ${data.period.from} → ${data.period.to} (nothing was created).`,
          `Scores: ${moved.length ? moved.join(', ') : 'no framework moved'}.`,
          `Nonconformities: ${data.nonconformities.opened} opened, ${data.nonconformities.closed} closed, ${data.nonconformities.openAtEnd} open at the end; ${openFindings.length} finding(s) open now.`,
          `Audits completed: ${data.audits.completed.length}. Attestations: L0 ${L0}, L2 ${L2}.`,
          `Risks: ${summary.overdueTreatments} overdue treatment(s), ${data.risks.acceptancesExpiring.length} acceptance(s) expiring.`,
          `Earlier actions: ${data.earlierActions.length} (${data.earlierActions.filter((a) => a.overdue).length} overdue). Due: ${agenda.total} item(s), ${overdue.total} overdue.`,
          ...(data.openFindings.length
            ? [
                listText(
                  'Findings open now:',
                  data.openFindings.map(
                    (f) =>
                      `${f.kind.replaceAll('_', ' ')} ${f.findingId} on ${f.requirements.join(', ') || 'no requirement'}${f.dueDate ? `, due ${f.dueDate.slice(0, 10)}` : ''}: ${clip(f.description, 120)}`,
                  ),
                  { max: 10 },
                ),
              ]
            : []),
          ...(data.risks.acceptancesExpiring.length
            ? [
                listText(
                  'Risk acceptances expiring:',
                  data.risks.acceptancesExpiring.map(
                    (r) => `${r.riskId} "${clip(r.title, 100)}" on ${r.expiresAt.slice(0, 10)}`,
                  ),
                  { max: 10 },
                ),
              ]
            : []),
          ...(data.earlierActions.length
            ? [
                listText(
                  'Actions decided by earlier reviews:',
                  data.earlierActions.map(
                    (a) =>
                      `${clip(a.text, 120)}${a.owner ? ` (${a.owner})` : ''}${a.dueDate ? `, due ${a.dueDate.slice(0, 10)}` : ''}${a.overdue ? ' OVERDUE' : ''}`,
                  ),
                  { max: 10 },
                ),
              ]
            : []),
          ...(data.due.items.length
            ? [
                listText(
                  'Due now, soonest first:',
                  data.due.items.map(
                    (item) =>
                      `${item.dueAt.slice(0, 10)}${item.overdue ? ' OVERDUE' : ''} ${clip(item.title, 120)}${item.owner ? ` (${item.owner})` : ''}`,
                  ),
                  { max: 10, total: data.due.total },
                ),
              ]
            : []),
        ].join('\n'),
      };
    },
  });
}
