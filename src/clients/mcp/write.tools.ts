import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import { EVIDENCE_TYPES, REQUIREMENT_STATUSES } from '../../shared/vocabulary.js';
import { compliancePath, requirementPath } from '../api-client/paths.js';
import type { Requirement, RequirementEvidence, Snapshot } from '../api-client/types.js';
import { defineTool, type ToolContext } from './tool.js';

/**
 * Tools that change the organization's records. The daemon decides whether the key may: each needs the
 * write scope, and without it the tool answers with the API's 403 as a tool error. Nothing here deletes:
 * a status or applicability change keeps the previous value in the change log.
 */

const frameworkId = z.string().min(1).max(200).describe('Framework id from list_frameworks, e.g. eu-ai-act');
const requirementId = z
  .string()
  .min(1)
  .max(200)
  .describe('Requirement id, e.g. Art. 26(6), GOVERN 1.1, A.6.2.8');
const reviewer = z
  .string()
  .min(1)
  .max(200)
  .describe('The person who decided (a user id); recorded in the change log');

const recorded = {
  frameworkId: z.string(),
  requirementId: z.string(),
  status: z.enum(REQUIREMENT_STATUSES),
  applicable: z.boolean(),
  assessment: z.string(),
  justification: z.string().nullable(),
  reviewer: z.string().nullable(),
  updatedAt: z.string().nullable(),
};

const recordOf = (r: Requirement) => ({
  frameworkId: r.frameworkId,
  requirementId: r.requirementId,
  status: r.status,
  applicable: r.applicable,
  assessment: r.assessment,
  justification: r.justification,
  reviewer: r.reviewer,
  updatedAt: r.updatedAt,
});

export function registerWriteTools(server: McpServer, context: ToolContext): void {
  defineTool(server, context, {
    name: 'record_requirement_status',
    title: 'Record a requirement’s status',
    description:
      'Records the organization’s own status for one requirement of any framework (not_started | in_progress | implemented), as a reviewer’s decision with an optional note and owner. The record then wins over what the crosswalk infers, and the change (who, when, from, to) is logged and feeds scores and history. Needs the write scope. Only record what a person has confirmed.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: {
      frameworkId,
      requirementId,
      status: z.enum(REQUIREMENT_STATUSES),
      reviewer,
      note: z.string().max(4000).optional().describe('Why, or what was done'),
      owner: z.string().min(1).max(200).optional().describe('Who is responsible for the requirement'),
    },
    output: recorded,
    run: async ({ frameworkId, requirementId, ...body }, { client, orgId }) => {
      const r = await client.put<Requirement>(
        requirementPath(orgId, frameworkId, requirementId, '/status'),
        body,
      );
      return {
        data: recordOf(r),
        text: `${r.frameworkId} ${r.requirementId} is now ${r.status} (${r.assessment}, recorded by ${r.reviewer}${r.updatedAt ? ` at ${r.updatedAt}` : ''}).`,
      };
    },
  });

  defineTool(server, context, {
    name: 'record_requirement_applicability',
    title: 'Record whether a requirement applies',
    description:
      'Records whether one requirement applies to the organization, with the justification an auditor will read and the reviewer who decided. A requirement marked not applicable leaves the score and the gaps. Needs the write scope.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    input: {
      frameworkId,
      requirementId,
      applicable: z.boolean(),
      justification: z.string().min(1).max(4000).describe('Why it does or does not apply'),
      reviewer,
    },
    output: recorded,
    run: async ({ frameworkId, requirementId, ...body }, { client, orgId }) => {
      const r = await client.put<Requirement>(
        requirementPath(orgId, frameworkId, requirementId, '/applicability'),
        body,
      );
      return {
        data: recordOf(r),
        text: `${r.frameworkId} ${r.requirementId} is now ${r.applicable ? 'applicable' : 'not applicable'}: ${r.justification}`,
      };
    },
  });

  defineTool(server, context, {
    name: 'add_evidence',
    title: 'Add evidence to a requirement',
    description:
      'Attaches one evidence item to a requirement of any framework (ISO/IEC 42001 controls included): type document or link (with fileUrl, an absolute http(s) URL) or attestation, a title, and optionally a description and the dates it is valid between (YYYY-MM-DD or ISO date-time; expiresAt after effectiveDate). Evidence is never changed or deleted afterwards. Needs the write scope.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: {
      frameworkId,
      requirementId,
      type: z.enum(EVIDENCE_TYPES),
      title: z.string().min(1).max(500),
      description: z.string().max(10_000).optional(),
      fileUrl: z.string().max(2048).optional().describe('Required for document and link'),
      effectiveDate: z.string().optional(),
      expiresAt: z.string().optional(),
    },
    output: {
      evidenceId: z.string(),
      frameworkId: z.string(),
      requirementId: z.string(),
      type: z.string(),
      title: z.string(),
      expiresAt: z.string().nullable(),
      expired: z.boolean(),
    },
    run: async ({ frameworkId, requirementId, ...body }, { client, orgId }) => {
      const e = await client.post<RequirementEvidence>(
        requirementPath(orgId, frameworkId, requirementId, '/evidence'),
        body,
      );
      return {
        data: {
          evidenceId: e.evidenceId,
          frameworkId: e.frameworkId,
          requirementId: e.requirementId,
          type: e.type,
          title: e.title,
          expiresAt: e.expiresAt,
          expired: e.expired,
        },
        text: `Added ${e.type} evidence "${e.title}" (${e.evidenceId}) to ${e.frameworkId} ${e.requirementId}${e.expiresAt ? `; ${e.expired ? 'expired' : 'expires'} ${e.expiresAt}` : '; it does not expire'}.`,
      };
    },
  });

  defineTool(server, context, {
    name: 'create_snapshot',
    title: 'Create a compliance snapshot',
    description:
      'Freezes the organization’s current state (score, every control and every framework’s direct records with their evidence) as an immutable, hash-verified snapshot under a label unique in the organization (a used label is refused). Use before an audit or a release, as a baseline. Needs the write scope.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: {
      label: z.string().min(1).max(200).describe('Unique in the organization, e.g. "Q4 audit"'),
      notes: z.string().max(10_000).optional(),
    },
    output: {
      snapshotId: z.string(),
      label: z.string(),
      createdAt: z.string(),
      score: z.number().nullable(),
      contentHash: z.string(),
    },
    run: async (args, { client, orgId }) => {
      const s = await client.post<Snapshot>(compliancePath(orgId, '/snapshot'), args);
      return {
        data: {
          snapshotId: s.snapshotId,
          label: s.label,
          createdAt: s.createdAt,
          score: s.score,
          contentHash: s.contentHash,
        },
        text: `Snapshot "${s.label}" (${s.snapshotId}) created: score ${s.score ?? 'n/a'}, hash ${s.contentHash}.`,
      };
    },
  });
}
