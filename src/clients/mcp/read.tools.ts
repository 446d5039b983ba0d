import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import {
  ASSESSMENT_SOURCES,
  GAP_PRIORITIES,
  ISO_42001,
  REQUIREMENT_STATUSES,
} from '../../shared/vocabulary.js';
import { textOf } from '../api-client/client.js';
import { score as formatScore } from '../api-client/format.js';
import {
  aiSystemPath,
  attestationPath,
  auditLogPath,
  ctePath,
  documentPath,
  epochPath,
  exportPath,
  frameworkPath,
  impactAssessmentPath,
  requirementPath,
  snapshotPath,
} from '../api-client/paths.js';
import type {
  AiSystemList,
  AssessedGapReport,
  AttestationList,
  AuditLog,
  AuditVerification,
  ConflictList,
  ControlledDocumentPage,
  Epoch,
  FrameworkCompliance,
  History,
  ImpactAssessmentPage,
  OrgFrameworkList,
  Requirement,
  RequirementCoverage,
  RequirementList,
  SearchResult,
  SnapshotList,
} from '../api-client/types.js';
import { registerRiskTools } from './risk.tools.js';
import { clip, defineTool, listText, page, paged, pageInfo, READ, type ToolContext } from './tool.js';

const frameworkId = z
  .string()
  .min(1)
  .max(200)
  .describe('Framework id from list_frameworks: iso-42001, nist-ai-rmf, eu-ai-act, iso-27001, gdpr, …');
const requirementId = z
  .string()
  .min(1)
  .max(200)
  .describe('Requirement id in the framework’s own notation: A.6.2.8, GOVERN 1.1, Art. 26(6), AC-2(1)');
const score = z.number().nullable().describe('0–100, one decimal; null when nothing applies');
const counts = z.object({
  implemented: z.number().int(),
  inProgress: z.number().int(),
  notStarted: z.number().int(),
  notApplicable: z.number().int(),
});
const status = z.enum(REQUIREMENT_STATUSES);
const assessment = z
  .enum(ASSESSMENT_SOURCES)
  .describe('direct: the org recorded it; inferred: the crosswalk gives it; none: neither');

const requirementSummary = z.object({
  requirementId: z.string(),
  title: z.string(),
  domain: z.string().nullable(),
  status,
  applicable: z.boolean(),
  assessment,
  evidenceCount: z.number().int(),
  evidenceExpired: z.boolean(),
});

/** One requirement of a list, as tools and resources give it: no evidence items, no reasoning. */
export const summarize = (r: RequirementList['requirements'][number]) => ({
  requirementId: r.requirementId,
  title: r.title,
  domain: r.domain ?? null,
  status: r.status,
  applicable: r.applicable,
  assessment: r.assessment,
  evidenceCount: r.evidenceCount,
  evidenceExpired: r.evidenceExpired,
});

export function registerReadTools(server: McpServer, context: ToolContext): void {
  defineTool(server, context, {
    name: 'list_frameworks',
    title: 'List frameworks with the organization’s scores',
    description:
      'Every compliance framework comply analyses (ISO/IEC 42001, NIST AI RMF, EU AI Act, ISO/IEC 27001, GDPR, the ISO management-system clauses, imported OSCAL catalogs) with the organization’s score (effective statuses: its own records, else what the crosswalk infers), directScore (its own records only), how many applicable requirements rest on direct/inferred/no assessment, and CTE coverage (0–1). Start here to learn the framework ids the other tools take.',
    annotations: READ,
    input: {},
    output: {
      orgId: z.string(),
      frameworks: z.array(
        z.object({
          frameworkId: z.string(),
          name: z.string(),
          requirements: z.number().int(),
          score,
          directScore: score,
          assessed: z.object({
            direct: z.number().int(),
            inferred: z.number().int(),
            none: z.number().int(),
          }),
          coverage: z.number().nullable(),
        }),
      ),
    },
    run: async (_args, { client, orgId }) => {
      const list = await client.get<OrgFrameworkList>(frameworkPath(orgId));
      const frameworks = list.frameworks.map((f) => ({
        frameworkId: f.frameworkId,
        name: f.name,
        requirements: f.controlCount,
        score: f.score,
        directScore: f.directScore,
        assessed: f.assessed,
        coverage: f.coverage,
      }));
      return {
        data: { orgId, frameworks },
        text: listText(
          `${frameworks.length} framework(s) for ${orgId}:`,
          frameworks.map(
            (f) =>
              `${f.frameworkId}: score ${formatScore(f.score)} (direct ${formatScore(f.directScore)}), ${f.name}; ` +
              `${f.requirements} requirement(s), assessed ${f.assessed.direct} direct, ${f.assessed.inferred} inferred, ${f.assessed.none} not at all` +
              (f.coverage === null ? '' : `; coverage ${Math.round(f.coverage * 100)}%`),
          ),
          { max: 100 },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'get_gaps',
    title: 'Gaps of a framework, by priority, with recommendations',
    description:
      'The unmet requirements of one framework for the organization, most urgent first. Priority (critical | important | minor) weighs legal obligation, the highest risk level of the org’s AI systems, how many frameworks depend on the requirement and whether nothing is done yet. Each gap says its status (own records: not_started | in_progress | implemented with expired evidence; other frameworks: uncovered | partial | excluded), where the status comes from, and a recommendation naming the ISO/IEC 42001 controls to implement and the evidence that closes it. Filter by priority; paged.',
    annotations: READ,
    input: {
      frameworkId,
      priority: z.enum(GAP_PRIORITIES).optional().describe('Only gaps of this priority'),
      ...page(20),
    },
    output: {
      frameworkId: z.string(),
      summary: z.object({ critical: z.number().int(), important: z.number().int(), minor: z.number().int() }),
      gaps: z.array(
        z.object({
          requirementId: z.string(),
          priority: z.enum(GAP_PRIORITIES),
          status: z.string(),
          assessment,
          recommendation: z.string(),
        }),
      ),
      ...pageInfo,
    },
    run: async (args, { client, orgId }) => {
      const report = await client.get<AssessedGapReport>(ctePath('gaps', args.frameworkId), {
        orgId,
        include: 'assessment',
      });
      const gaps = report.gaps
        .filter((gap) => !args.priority || gap.priority === args.priority)
        .map((gap) => ({
          requirementId: gap.controlId,
          priority: gap.priority,
          status: gap.status,
          assessment: gap.assessment,
          recommendation: gap.recommendation,
        }));
      const { items, ...info } = paged(gaps, args.limit, args.offset);
      const { critical, important, minor } = report.summary;
      return {
        data: { frameworkId: report.frameworkId, summary: report.summary, gaps: items, ...info },
        text: listText(
          `${report.frameworkId}: ${critical} critical, ${important} important, ${minor} minor gaps; ${info.total} listed${args.priority ? ` (${args.priority})` : ''}, from ${info.offset}:`,
          items.map(
            (gap) =>
              `[${gap.priority}] ${gap.requirementId} (${gap.status}, ${gap.assessment}): ${clip(gap.recommendation)}`,
          ),
          { total: info.total - info.offset, nextOffset: info.nextOffset },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'explain_coverage',
    title: 'Why a requirement is covered, partial or uncovered',
    description:
      'How the crosswalk covers one requirement for the organization: its coverage (covered | partial | uncovered), the org’s own status if any, every justification (a record of another framework, its status, full/partial/joint credit and the path of crosswalk edges), the jointly mapped ISO/IEC 42001 controls still to implement, and candidate controls that would cover it.',
    annotations: READ,
    input: { frameworkId, requirementId },
    output: {
      frameworkId: z.string(),
      requirementId: z.string(),
      title: z.string(),
      coverage: z.enum(['covered', 'partial', 'uncovered']),
      applicable: z.boolean(),
      orgStatus: status.nullable(),
      evidenceExpired: z.boolean(),
      justifications: z.array(
        z.object({
          frameworkId: z.string(),
          requirementId: z.string(),
          status,
          credit: z.string(),
          path: z.string(),
        }),
      ),
      jointRemaining: z.array(z.string()).describe('Mapped controls still to implement for joint coverage'),
      candidates: z.array(z.object({ controlId: z.string(), title: z.string(), status, credit: z.string() })),
    },
    run: async (args, { client, orgId }) => {
      const why = await client.get<RequirementCoverage>(
        ctePath('coverage', args.frameworkId, args.requirementId),
        { orgId },
      );
      const data = {
        frameworkId: why.frameworkId,
        requirementId: why.requirementId,
        title: why.title,
        coverage: why.status,
        applicable: why.applicable,
        orgStatus: why.orgStatus ?? null,
        evidenceExpired: why.evidenceExpired === true,
        justifications: why.justifications.map((j) => ({
          frameworkId: j.frameworkId,
          requirementId: j.controlId,
          status: j.controlStatus,
          credit: j.credit,
          path: j.path.map((hop) => hop.text).join(' → '),
        })),
        jointRemaining: (why.joint as { remaining?: string[] } | undefined)?.remaining ?? [],
        candidates: why.candidates.map((c) => ({
          controlId: c.controlId,
          title: c.title,
          status: c.orgStatus,
          credit: c.credit,
        })),
      };
      return {
        data,
        text: [
          `${why.frameworkId} ${why.requirementId} "${why.title}": ${why.status}${why.applicable ? '' : ' (not applicable)'}; ` +
            `own status ${data.orgStatus ?? 'none'}${data.evidenceExpired ? ', all evidence expired' : ''}.`,
          listText(
            `${data.justifications.length} justification(s):`,
            data.justifications.map(
              (j) =>
                `${j.frameworkId} ${j.requirementId} ${j.status}, ${j.credit} credit: ${clip(j.path, 200)}`,
            ),
          ),
          ...(data.jointRemaining.length
            ? [`Still to implement for joint coverage: ${data.jointRemaining.join(', ')}.`]
            : []),
          listText(
            `${data.candidates.length} candidate control(s):`,
            data.candidates.map(
              (c) => `${c.controlId} "${clip(c.title, 100)}" (${c.status}, ${c.credit} credit)`,
            ),
            { max: 10 },
          ),
        ].join('\n'),
      };
    },
  });

  defineTool(server, context, {
    name: 'search_requirements',
    title: 'Semantic search of requirements',
    description:
      'Requirements of every framework closest in meaning to a free-text query (e.g. "keep logs of AI system events"), nearest first, with their cosine distance (0 = same meaning) and the embedding model that ranked them.',
    annotations: READ,
    input: {
      query: z.string().min(1).max(2000).describe('What the requirement is about, in plain words'),
      limit: z.number().int().min(1).max(100).default(10).describe('Results, 1–100 (default 10)'),
    },
    output: {
      model: z.string(),
      results: z.array(
        z.object({
          frameworkId: z.string(),
          requirementId: z.string(),
          title: z.string(),
          distance: z.number(),
        }),
      ),
    },
    run: async (args, { client }) => {
      const found = await client.post<SearchResult>('/cte/embeddings/distance', args);
      return {
        data: { model: found.model, results: found.results },
        text: listText(
          `${found.results.length} requirement(s) nearest to "${clip(args.query, 100)}" (${found.model}):`,
          found.results.map(
            (r) => `${r.frameworkId} ${r.requirementId} (${r.distance.toFixed(3)}): ${clip(r.title, 120)}`,
          ),
          { max: 100 },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'list_conflicts',
    title: 'Conflicting requirements across frameworks',
    description:
      'Requirements of different frameworks that contradict, pull against each other (tension) or overlap — retention periods, notification deadlines, data-category rules, disclosure against confidentiality — each with its severity and a concrete resolution. Filter by framework, kind or severity.',
    annotations: READ,
    input: {
      frameworkId: frameworkId.optional(),
      kind: z.enum(['contradiction', 'tension', 'overlap']).optional(),
      severity: z.enum(['high', 'medium', 'low']).optional(),
    },
    output: {
      conflicts: z.array(
        z.object({
          conflictId: z.string(),
          kind: z.string(),
          severity: z.string(),
          requirements: z.array(z.string()).describe('"<frameworkId> <requirementId>"'),
          description: z.string(),
          resolution: z.string(),
        }),
      ),
    },
    run: async (args, { client }) => {
      const list = await client.get<ConflictList>('/cte/conflicts', args);
      const conflicts = list.conflicts.map((c) => ({
        conflictId: c.conflictId,
        kind: c.kind,
        severity: c.severity,
        requirements: c.requirements.map((r) => `${r.frameworkId} ${r.requirementId}`),
        description: c.description,
        resolution: c.resolution,
      }));
      return {
        data: { conflicts },
        text: listText(
          `${conflicts.length} conflict(s)${conflicts.length ? ':' : '.'}`,
          conflicts.map(
            (c) =>
              `${c.conflictId} (${c.kind}, ${c.severity}) between ${c.requirements.join(' and ')}: ${clip(c.description, 120)} Resolution: ${clip(c.resolution, 120)}`,
          ),
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'get_score',
    title: 'Compliance score of a framework',
    description:
      'The organization’s current score for one framework (default iso-42001): 100 × (implemented + ½ in progress) / applicable, the score on direct records only, the counts by status, how much rests on inference, and the score per domain.',
    annotations: READ,
    input: { frameworkId: frameworkId.default(ISO_42001) },
    output: {
      frameworkId: z.string(),
      score,
      directScore: score,
      counts,
      assessed: z.object({ direct: z.number().int(), inferred: z.number().int(), none: z.number().int() }),
      byDomain: z.array(
        z.object({ domain: z.string(), title: z.string(), score, requirements: z.number().int() }),
      ),
    },
    run: async (args, { client, orgId }) => {
      const s = await client.get<FrameworkCompliance>(frameworkPath(orgId, args.frameworkId, '/compliance'));
      return {
        data: {
          frameworkId: s.frameworkId,
          score: s.score,
          directScore: s.directScore,
          counts: s.counts,
          assessed: s.assessed,
          byDomain: s.byDomain.map((d) => ({
            domain: d.domain,
            title: d.domainTitle,
            score: d.score,
            requirements: d.controlCount,
          })),
        },
        text: listText(
          `${s.frameworkId}: ${formatScore(s.score)} (direct ${formatScore(s.directScore)}); ${s.counts.implemented} implemented, ${s.counts.inProgress} in progress, ${s.counts.notStarted} not started, ${s.counts.notApplicable} not applicable; ` +
            `assessed ${s.assessed.direct} direct, ${s.assessed.inferred} inferred, ${s.assessed.none} not at all.${s.byDomain.length ? ' By domain:' : ''}`,
          s.byDomain.map(
            (d) => `${d.domain} ${clip(d.domainTitle, 80)}: ${formatScore(d.score)} (${d.controlCount})`,
          ),
          { max: 40 },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'get_score_history',
    title: 'Score history of a framework',
    description:
      'The score of one framework (default iso-42001) per day, ISO week or month, rebuilt exactly from the change log: each point is the state at the end of its period (now for the current one). Defaults: daily over the last 30 days.',
    annotations: READ,
    input: {
      frameworkId: frameworkId.default(ISO_42001),
      from: z.string().optional().describe('Start, YYYY-MM-DD or an ISO date-time (default 29 days ago)'),
      to: z.string().optional().describe('End (default now)'),
      interval: z.enum(['daily', 'weekly', 'monthly']).default('daily'),
    },
    output: {
      frameworkId: z.string(),
      interval: z.string(),
      points: z.array(
        z.object({ periodStart: z.string(), asOf: z.string(), score, implemented: z.number().int() }),
      ),
    },
    run: async (args, { client, orgId }) => {
      const h = await client.get<History>(frameworkPath(orgId, args.frameworkId, '/compliance/history'), {
        from: args.from,
        to: args.to,
        interval: args.interval,
      });
      const points = h.points.map((p) => ({
        periodStart: p.periodStart,
        asOf: p.asOf,
        score: p.score,
        implemented: p.counts.implemented,
      }));
      const first = points[0];
      const last = points.at(-1);
      return {
        data: { frameworkId: args.frameworkId, interval: h.interval, points },
        text: listText(
          `${args.frameworkId}: ${points.length} ${h.interval} points; ${formatScore(first?.score ?? null)} at ${first?.periodStart.slice(0, 10) ?? '-'} → ${formatScore(last?.score ?? null)} now. Newest first:`,
          [...points]
            .reverse()
            .map(
              (p) => `${p.periodStart.slice(0, 10)}: ${formatScore(p.score)}, ${p.implemented} implemented`,
            ),
          { max: 31 },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'list_requirements',
    title: 'Requirements of a framework with the organization’s status',
    description:
      'The requirements of one framework with the organization’s status (not_started | in_progress | implemented), applicability, where the status comes from (direct | inferred | none) and evidence counts (evidenceExpired: it has evidence and all of it expired). Filter by status, applicability or assessment; paged.',
    annotations: READ,
    input: {
      frameworkId,
      status: status.optional(),
      applicable: z.boolean().optional(),
      assessment: assessment.optional(),
      ...page(50),
    },
    output: { frameworkId: z.string(), requirements: z.array(requirementSummary), ...pageInfo },
    run: async (args, { client, orgId }) => {
      const list = await client.get<RequirementList>(requirementPath(orgId, args.frameworkId), {
        status: args.status,
        applicable: args.applicable,
        assessment: args.assessment,
      });
      const { items, ...info } = paged(list.requirements.map(summarize), args.limit, args.offset);
      return {
        data: { frameworkId: list.frameworkId, requirements: items, ...info },
        text: listText(
          `${info.total} requirement(s) of ${list.frameworkId}, from ${info.offset}:`,
          items.map(
            (r) =>
              `${r.requirementId} "${clip(r.title, 100)}": ${r.status} (${r.assessment})${r.applicable ? '' : ', not applicable'}, ` +
              `${r.evidenceCount} evidence${r.evidenceExpired ? ', all expired' : ''}`,
          ),
          { total: info.total - info.offset, nextOffset: info.nextOffset },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'get_requirement',
    title: 'One requirement: record, evidence and inferred status',
    description:
      'One requirement of a framework for the organization: its status and applicability with justification, reviewer, owner and note, the latest evidence, and what the crosswalk infers (status, coverage and the records it comes from), even when a direct record overrides it.',
    annotations: READ,
    input: { frameworkId, requirementId },
    output: {
      frameworkId: z.string(),
      ...requirementSummary.shape,
      justification: z.string().nullable(),
      reviewer: z.string().nullable(),
      owner: z.string().nullable(),
      note: z.string().nullable(),
      updatedAt: z.string().nullable(),
      inferred: z.object({ status, coverage: z.string(), from: z.array(z.string()) }),
      evidence: z.array(
        z.object({ evidenceId: z.string(), type: z.string(), title: z.string(), expired: z.boolean() }),
      ),
    },
    run: async (args, { client, orgId }) => {
      const r = await client.get<Requirement>(requirementPath(orgId, args.frameworkId, args.requirementId));
      return {
        data: {
          frameworkId: r.frameworkId,
          ...summarize(r),
          justification: r.justification,
          reviewer: r.reviewer,
          owner: r.owner,
          note: r.note,
          updatedAt: r.updatedAt,
          inferred: {
            status: r.inferred.status,
            coverage: r.inferred.coverage,
            from: r.inferred.from.map((f) => `${f.frameworkId} ${f.requirementId}`),
          },
          evidence: r.evidence.map((e) => ({
            evidenceId: e.evidenceId,
            type: e.type,
            title: e.title,
            expired: e.expired,
          })),
        },
        text: [
          `${r.frameworkId} ${r.requirementId} "${r.title}": ${r.status} (${r.assessment})${r.applicable ? '' : ', not applicable'}; inferred ${r.inferred.status} (${r.inferred.coverage})` +
            `${r.inferred.from.length ? ` from ${r.inferred.from.map((f) => `${f.frameworkId} ${f.requirementId}`).join(', ')}` : ''}.`,
          ...[
            ['Justification', r.justification],
            ['Reviewer', r.reviewer],
            ['Owner', r.owner],
            ['Note', r.note],
          ]
            .filter(([, value]) => value)
            .map(([label, value]) => `${label}: ${clip(value as string, 300)}`),
          listText(
            `${r.evidenceCount} evidence item(s)${r.evidenceExpired ? ', all expired' : ''}${r.evidence.length ? ':' : '.'}`,
            r.evidence.map(
              (e) => `${e.evidenceId} ${e.type} "${clip(e.title, 100)}"${e.expired ? ' (expired)' : ''}`,
            ),
            { max: 10, total: r.evidenceCount },
          ),
        ].join('\n'),
      };
    },
  });

  defineTool(server, context, {
    name: 'list_ai_systems',
    title: 'AI systems of the organization',
    description:
      'The organization’s AI system inventory: name, owner, purpose, EU AI Act risk level (minimal | limited | high | unacceptable) and lifecycle stage. The systemId is what attestations name.',
    annotations: READ,
    input: {
      riskLevel: z.enum(['minimal', 'limited', 'high', 'unacceptable']).optional(),
      lifecycleStage: z.enum(['design', 'development', 'validation', 'deployed', 'retired']).optional(),
    },
    output: {
      systems: z.array(
        z.object({
          systemId: z.string(),
          name: z.string(),
          owner: z.string(),
          purpose: z.string(),
          riskLevel: z.string(),
          lifecycleStage: z.string(),
        }),
      ),
    },
    run: async (args, { client, orgId }) => {
      const list = await client.get<AiSystemList>(aiSystemPath(orgId), args);
      const systems = list.systems.map((s) => ({
        systemId: s.systemId,
        name: s.name,
        owner: s.owner,
        purpose: s.purpose,
        riskLevel: s.riskLevel,
        lifecycleStage: s.lifecycleStage,
      }));
      return {
        data: { systems },
        text: listText(
          `${systems.length} AI system(s)${systems.length ? ':' : '.'}`,
          systems.map(
            (s) =>
              `${s.name} (${s.riskLevel}, ${s.lifecycleStage}) ${s.systemId}, owner ${s.owner}: ${clip(s.purpose, 100)}`,
          ),
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'list_due_assessments',
    title: 'Impact assessments due for re-assessment',
    description:
      'Approved AI system impact assessments (ISO/IEC 42001 AIIA, EU AI Act FRIA, GDPR DPIA) that must be done again, with the reasons: the AI system’s risk level, lifecycle stage or purpose changed since approval, or the review date (12 months after approval) passed. Each names its AI system, template and version; start the revision from its assessmentId.',
    annotations: READ,
    input: page(20),
    output: {
      assessments: z.array(
        z.object({
          assessmentId: z.string(),
          systemId: z.string(),
          systemName: z.string().nullable(),
          templateId: z.string(),
          version: z.number().int(),
          approvedAt: z.string().nullable(),
          reviewDue: z.string().nullable(),
          reasons: z.array(z.object({ code: z.string(), message: z.string() })),
        }),
      ),
      ...pageInfo,
    },
    run: async (args, { client, orgId }) => {
      const [list, inventory] = await Promise.all([
        client.get<ImpactAssessmentPage>(impactAssessmentPath(orgId), { due: true, ...args }),
        client.get<AiSystemList>(aiSystemPath(orgId)),
      ]);
      const names = new Map(inventory.systems.map((s) => [s.systemId, s.name]));
      const assessments = list.assessments.map((a) => ({
        assessmentId: a.assessmentId,
        systemId: a.systemId,
        systemName: names.get(a.systemId) ?? null,
        templateId: a.templateId,
        version: a.version,
        approvedAt: a.approvedAt,
        reviewDue: a.reviewDue,
        reasons: a.reassessment.reasons,
      }));
      const nextOffset =
        list.offset + assessments.length < list.total ? list.offset + assessments.length : null;
      return {
        data: { assessments, total: list.total, offset: list.offset, nextOffset },
        text: listText(
          `${list.total} impact assessment(s) due for re-assessment${assessments.length ? ':' : '.'}`,
          assessments.map(
            (a) =>
              `${a.systemName ?? a.systemId} ${a.templateId} v${a.version} (${a.reasons.map((r) => r.code).join(', ')}) ${a.assessmentId}: ` +
              clip(a.reasons.map((r) => r.message).join(' '), 200),
          ),
          { total: list.total - list.offset, nextOffset },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'list_documents',
    title: 'Controlled documents, due for review first',
    description:
      'The organization’s controlled documents (policies, procedures, plans, records): the ones whose review is due or next come first, then those without a review cadence. Each gives its published version (the one in force), any draft waiting for approval by a second person, the requirements it is evidence for, and when it is next reviewed (reviewDue: that date has passed).',
    annotations: READ,
    input: {
      kind: z.enum(['policy', 'procedure', 'plan', 'record']).optional(),
      owner: z.string().min(1).max(200).optional().describe('Only the documents this owner holds'),
      ...page(20),
    },
    output: {
      documents: z.array(
        z.object({
          documentId: z.string(),
          title: z.string(),
          kind: z.string(),
          owner: z.string().nullable(),
          nextReviewAt: z.string().nullable(),
          reviewDue: z.boolean(),
          reviewEvery: z.string().nullable(),
          published: z
            .object({ versionId: z.string(), version: z.number().int(), publishedAt: z.string().nullable() })
            .nullable(),
          draft: z.object({ versionId: z.string(), version: z.number().int() }).nullable(),
          requirements: z.array(z.object({ frameworkId: z.string(), requirementId: z.string() })),
        }),
      ),
      ...pageInfo,
    },
    run: async (args, { client, orgId }) => {
      const list = await client.get<ControlledDocumentPage>(documentPath(orgId), args);
      const documents = list.documents.map((d) => ({
        documentId: d.documentId,
        title: d.title,
        kind: d.kind,
        owner: d.owner,
        nextReviewAt: d.nextReviewAt,
        reviewDue: d.reviewDue,
        reviewEvery: d.reviewEvery,
        published: d.published && {
          versionId: d.published.versionId,
          version: d.published.version,
          publishedAt: d.published.publishedAt,
        },
        draft: d.draft && { versionId: d.draft.versionId, version: d.draft.version },
        requirements: d.requirements,
      }));
      const nextOffset = list.offset + documents.length < list.total ? list.offset + documents.length : null;
      const line = (d: (typeof documents)[number]) =>
        `${d.title} (${d.kind}, ${d.published ? `v${d.published.version} in force` : 'not published'}${
          d.draft ? `, draft v${d.draft.version}` : ''
        }${d.nextReviewAt ? `, review ${d.reviewDue ? 'overdue since' : 'due'} ${d.nextReviewAt.slice(0, 10)}` : ''})`;
      const due = documents.filter((d) => d.reviewDue).length;
      return {
        data: { documents, total: list.total, offset: list.offset, nextOffset },
        text: listText(
          `${list.total} document(s)${due ? `, ${due} due for review on this page` : ''}${documents.length ? ':' : '.'}`,
          documents.map((d) => `${line(d)} ${d.documentId}`),
          { total: list.total - list.offset, nextOffset },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'list_attestations',
    title: 'Attestations from sidecars',
    description:
      'Attestations posted by sidecars running next to AI systems, newest first: level (L0 unsigned self-report, L2 Ed25519-signed), epoch, AI system, controls it is evidence for, timestamp and claims. Filter by level, epoch, AI system or time range; page with nextCursor.',
    annotations: READ,
    input: {
      level: z.enum(['L0', 'L2']).optional(),
      epochId: z.string().min(1).max(200).optional(),
      systemId: z
        .string()
        .min(1)
        .max(200)
        .optional()
        .describe('Only attestations about this AI system: its systemId, as list_ai_systems gives it'),
      from: z.string().optional().describe('Earliest timestamp, ISO date-time, inclusive'),
      to: z.string().optional().describe('Latest timestamp, ISO date-time, inclusive'),
      limit: z.number().int().min(1).max(200).default(20),
      cursor: z.string().optional().describe('nextCursor of the previous page'),
    },
    output: {
      attestations: z.array(
        z.object({
          attestationId: z.string(),
          level: z.string(),
          epochId: z.string(),
          systemId: z.string().nullable(),
          controlIds: z.array(z.string()),
          timestamp: z.string(),
          claims: z.record(z.string(), z.unknown()),
        }),
      ),
      nextCursor: z.string().nullable(),
    },
    run: async (args, { client, orgId }) => {
      const list = await client.get<AttestationList>(attestationPath(orgId), args);
      const attestations = list.attestations.map((a) => ({
        attestationId: a.attestationId,
        level: a.level,
        epochId: a.epochId,
        systemId: a.systemId,
        controlIds: a.controlIds,
        timestamp: a.timestamp,
        claims: a.claims,
      }));
      return {
        data: { attestations, nextCursor: list.nextCursor },
        text: `${listText(
          `${attestations.length} attestation(s)${list.nextCursor ? ' on this page' : ''}${attestations.length ? ', newest first:' : '.'}`,
          attestations.map(
            (a) =>
              `${a.attestationId} ${a.level} at ${a.timestamp}, epoch ${a.epochId}${a.systemId ? `, system ${a.systemId}` : ''}, ` +
              `controls ${a.controlIds.join(', ') || 'none'}; claims ${clip(JSON.stringify(a.claims), 120)}`,
          ),
        )}${list.nextCursor ? `\nMore with cursor ${list.nextCursor}.` : ''}`,
      };
    },
  });

  defineTool(server, context, {
    name: 'get_epoch',
    title: 'Summary of an attestation epoch',
    description:
      'One attestation epoch: how many attestations it holds at each level (L0 unsigned, L2 signed), its first and last timestamps, and its RFC 6962 Merkle root over the attestations’ content hashes — what an auditor compares with a root recorded elsewhere.',
    annotations: READ,
    input: { epochId: z.string().min(1).max(200) },
    output: {
      epochId: z.string(),
      count: z.number().int(),
      levels: z.object({ L0: z.number().int(), L2: z.number().int() }),
      firstTimestamp: z.string(),
      lastTimestamp: z.string(),
      merkleRoot: z.string(),
    },
    run: async (args, { client, orgId }) => {
      const e = await client.get<Epoch>(epochPath(orgId, args.epochId));
      return {
        data: {
          epochId: e.epochId,
          count: e.count,
          levels: e.levels,
          firstTimestamp: e.firstTimestamp,
          lastTimestamp: e.lastTimestamp,
          merkleRoot: e.merkleRoot,
        },
        text: `epoch ${e.epochId}: ${e.count} attestation(s) (${e.levels.L2} L2, ${e.levels.L0} L0) from ${e.firstTimestamp} to ${e.lastTimestamp}, Merkle root ${e.merkleRoot}.`,
      };
    },
  });

  defineTool(server, context, {
    name: 'list_snapshots',
    title: 'Compliance snapshots',
    description:
      'The organization’s immutable compliance snapshots (audit baselines), newest first: label, creation time, ISO/IEC 42001 score and content hash. Their ids select a frozen SoA in export_soa_markdown.',
    annotations: READ,
    input: page(20),
    output: {
      snapshots: z.array(
        z.object({
          snapshotId: z.string(),
          label: z.string(),
          createdAt: z.string(),
          score,
          contentHash: z.string(),
        }),
      ),
      ...pageInfo,
    },
    run: async (args, { client, orgId }) => {
      const list = await client.get<SnapshotList>(snapshotPath(orgId), args);
      const snapshots = list.snapshots.map((s) => ({
        snapshotId: s.snapshotId,
        label: s.label,
        createdAt: s.createdAt,
        score: s.score,
        contentHash: s.contentHash,
      }));
      const nextOffset = list.offset + snapshots.length < list.total ? list.offset + snapshots.length : null;
      return {
        data: { snapshots, total: list.total, offset: list.offset, nextOffset },
        text: listText(
          `${list.total} snapshot(s)${snapshots.length ? ', newest first:' : '.'}`,
          snapshots.map(
            (s) =>
              `"${s.label}" ${s.snapshotId}, ${s.createdAt}: score ${formatScore(s.score)}, hash ${s.contentHash}`,
          ),
          { total: list.total - list.offset, nextOffset },
        ),
      };
    },
  });

  defineTool(server, context, {
    name: 'export_soa_markdown',
    title: 'Statement of Applicability (Markdown)',
    description:
      'The ISO/IEC 42001 Statement of Applicability as a Markdown document: every Annex A control with applicability and justification, status, evidence, reviewer and last update, under a header with the score. With snapshotId, the state frozen in that snapshot. Needs an API key with the export scope.',
    annotations: READ,
    input: { snapshotId: z.string().min(1).max(64).optional() },
    output: { markdown: z.string(), bytes: z.number().int() },
    run: async (args, context) => {
      const markdown = await soaMarkdown(context, args.snapshotId);
      return { data: { markdown, bytes: Buffer.byteLength(markdown) }, text: markdown };
    },
  });

  defineTool(server, context, {
    name: 'audit_log',
    title: 'Audit trail: who changed what, and whether the log is intact',
    description:
      'The organization’s audit trail, newest first: every change by a person, an API key or comply itself (statuses, applicability, evidence, AI systems, snapshots, members, keys, …), each with its actor, action (e.g. requirement.updated), resource and each changed field before and after. Filter by time range, actor, action or resource type; page with nextCursor. With verify: true it also recomputes the hash chain of the whole log and says whether it is intact or which event is the first altered one. Needs an owner, an auditor or a platform key.',
    annotations: READ,
    input: {
      from: z.string().optional().describe('Earliest event, ISO date-time, inclusive'),
      to: z.string().optional().describe('Latest event, ISO date-time, inclusive'),
      actorId: z.string().min(1).max(128).optional().describe('Only this actor: a userId or a keyId'),
      action: z
        .string()
        .min(1)
        .max(128)
        .optional()
        .describe('Only this action (member.created), or a family ending in a dot (member.)'),
      resourceType: z
        .string()
        .min(1)
        .max(64)
        .optional()
        .describe('Only this resource type: requirement, evidence, ai-system, snapshot, key, member, …'),
      limit: z.number().int().min(1).max(500).default(50).describe('Events per page, 1–500 (default 50)'),
      cursor: z.string().optional().describe('nextCursor of the previous page'),
      verify: z.boolean().default(false).describe('Also check the hash chain of the whole log'),
    },
    output: {
      orgId: z.string().nullable(),
      events: z.array(
        z.object({
          seq: z.number().int(),
          eventId: z.string(),
          at: z.string(),
          actor: z.object({ type: z.string(), id: z.string(), name: z.string() }),
          action: z.string(),
          resource: z.object({ type: z.string(), id: z.string() }),
          changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })).optional(),
        }),
      ),
      nextCursor: z.string().nullable(),
      verification: z
        .object({
          valid: z.boolean(),
          events: z.number().int().describe('Events checked'),
          headHash: z.string().nullable(),
          firstInvalid: z
            .object({ seq: z.number().int(), eventId: z.string(), reason: z.string() })
            .optional(),
        })
        .nullable()
        .describe('With verify: whether the hash chain is intact; else null'),
    },
    run: async ({ verify, ...query }, { client, orgId }) => {
      const [log, check] = await Promise.all([
        client.get<AuditLog>(auditLogPath(orgId), query),
        verify ? client.get<AuditVerification>(auditLogPath(orgId, '/verify')) : null,
      ]);
      const events = log.events.map((e) => ({
        seq: e.seq,
        eventId: e.eventId,
        at: e.at,
        actor: e.actor,
        action: e.action,
        resource: e.resource,
        ...(e.changes ? { changes: e.changes } : {}),
      }));
      const verification = check && {
        valid: check.valid,
        events: check.events,
        headHash: check.headHash,
        ...(check.firstInvalid ? { firstInvalid: check.firstInvalid } : {}),
      };
      const chain = !verification
        ? ''
        : verification.valid
          ? ` Hash chain intact over ${verification.events} event(s).`
          : ` Hash chain BROKEN at seq ${verification.firstInvalid?.seq} (${verification.firstInvalid?.eventId}): ${verification.firstInvalid?.reason}.`;
      return {
        data: { orgId: log.orgId, events, nextCursor: log.nextCursor, verification },
        text: `${listText(
          `${events.length} event(s)${log.nextCursor ? ' on this page' : ''}${events.length ? ', newest first:' : '.'}`,
          events.map(
            (e) =>
              `#${e.seq} ${e.at} ${e.action} ${e.resource.type} ${e.resource.id} by ${e.actor.name}` +
              (e.changes ? `: ${clip(Object.keys(e.changes).join(', '), 120)} changed` : ''),
          ),
        )}${log.nextCursor ? `\nMore with cursor ${log.nextCursor}.` : ''}${chain}`,
      };
    },
  });
  registerRiskTools(server, context);
}

export async function soaMarkdown({ client, orgId }: ToolContext, snapshotId?: string): Promise<string> {
  const response = await client.raw('GET', exportPath(orgId, 'soa'), {
    query: { format: 'markdown', snapshotId },
  });
  return textOf(response);
}
