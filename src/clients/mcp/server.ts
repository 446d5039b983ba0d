import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';
import type { ApiClient } from '../api-client/client.js';
import { frameworkPath, requirementPath } from '../api-client/paths.js';
import type { OrgFrameworkList, RequirementList } from '../api-client/types.js';
import { registerDueTools } from './due.tools.js';
import { registerProfileTools } from './profile.tools.js';
import { registerReadTools, soaMarkdown, summarize } from './read.tools.js';
import { registerReviewTools } from './review.tools.js';
import { reading, type ToolContext } from './tool.js';
import { registerWriteTools } from './write.tools.js';

/**
 * comply as a Model Context Protocol server: tools an agent calls, resources it reads and prompts for
 * common jobs, all answered through the daemon's HTTP API with one API key, so the key's scopes bound
 * what the agent may do. The server serves one organization.
 */

export const MCP_SERVER_NAME = 'comply';

export interface McpOptions {
  client: ApiClient;
  orgId: string;
  /** Leave the tools that change records out entirely (the key's scopes still decide on the daemon). */
  readOnly?: boolean;
  version: string;
}

export function createMcpServer(options: McpOptions): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: options.version },
    {
      instructions:
        `comply: compliance management for organization "${options.orgId}" (ISO/IEC 42001, NIST AI RMF, EU AI Act, ISO/IEC 27001, GDPR and imported catalogs). ` +
        'Call list_frameworks first for the framework ids. get_gaps gives what to do next; explain_coverage why a requirement is (not) met; ' +
        'record_* and add_evidence change records and need a key with the write scope: only record what a person has confirmed.',
    },
  );
  const context: ToolContext = {
    client: options.client,
    orgId: options.orgId,
  };
  registerReadTools(server, context);
  registerReviewTools(server, context);
  registerDueTools(server, context);
  registerProfileTools(server, context);
  if (!options.readOnly) registerWriteTools(server, context);
  registerResources(server, context);
  registerPrompts(server);
  return server;
}

function registerResources(server: McpServer, context: ToolContext): void {
  const soaUri = `comply://orgs/${encodeURIComponent(context.orgId)}/soa.md`;
  server.registerResource(
    'statement-of-applicability',
    soaUri,
    {
      title: 'Statement of Applicability',
      description: `The ISO/IEC 42001 Statement of Applicability of ${context.orgId} in Markdown (needs the export scope)`,
      mimeType: 'text/markdown',
    },
    (uri) =>
      reading(async () => ({
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await soaMarkdown(context) }],
      })),
  );

  server.registerResource(
    'framework-requirements',
    new ResourceTemplate(
      `comply://orgs/${encodeURIComponent(context.orgId)}/frameworks/{frameworkId}/requirements`,
      {
        list: () =>
          reading(async () => {
            const list = await context.client.get<OrgFrameworkList>(frameworkPath(context.orgId));
            return {
              resources: list.frameworks.map((f) => ({
                uri: `comply://orgs/${encodeURIComponent(context.orgId)}/frameworks/${encodeURIComponent(f.frameworkId)}/requirements`,
                name: `${f.frameworkId} requirements`,
                title: `${f.name}: requirements and status`,
                mimeType: 'application/json',
              })),
            };
          }),
      },
    ),
    {
      title: 'Requirements of a framework',
      description:
        'Every requirement of one framework with the organization’s status, applicability and evidence counts (JSON)',
      mimeType: 'application/json',
    },
    (uri, variables) =>
      reading(async () => {
        const frameworkId = decodeURIComponent(String(variables.frameworkId));
        const list = await context.client.get<RequirementList>(requirementPath(context.orgId, frameworkId));
        const requirements = list.requirements.map(summarize);
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: 'application/json',
              text: JSON.stringify({ orgId: list.orgId, frameworkId: list.frameworkId, requirements }),
            },
          ],
        };
      }),
  );
}

const user = (text: string) => ({
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
});

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'audit_summary',
    {
      title: 'Prepare an audit summary',
      description:
        'A summary for an auditor of where the organization stands on one framework, with evidence',
      argsSchema: { frameworkId: z.string().describe('Framework to summarize, e.g. iso-42001 or eu-ai-act') },
    },
    ({ frameworkId }) =>
      user(
        `Prepare an audit summary of our ${frameworkId} compliance.\n` +
          `1. Call get_score (frameworkId ${frameworkId}) and get_score_history for the trend over the last 90 days.\n` +
          `2. Call list_requirements to separate direct records from inferred ones, and note requirements whose evidence has all expired.\n` +
          `3. Call get_gaps for ${frameworkId} and list the critical and important gaps with their recommendations.\n` +
          '4. Call list_snapshots and list_ai_systems; for high-risk systems, check recent attestations with list_attestations and get_epoch.\n' +
          (frameworkId === 'iso-42001'
            ? '5. Read the Statement of Applicability resource and quote its exclusions.\n'
            : '') +
          'Write it for an auditor: scope, score and trend, what rests on inference rather than records, open gaps by priority, ' +
          'evidence that is stale, and the snapshot to use as the baseline. Change nothing.',
      ),
  );

  server.registerPrompt(
    'plan_next_quarter',
    {
      title: 'Plan the next quarter’s compliance work',
      description: 'A prioritized plan of work that closes the most important gaps across frameworks',
      argsSchema: {
        frameworks: z
          .string()
          .optional()
          .describe('Comma-separated framework ids to focus on (default: every framework)'),
        capacity: z.string().optional().describe('How many requirements the team can take on, e.g. "10"'),
      },
    },
    ({ frameworks, capacity }) =>
      user(
        'Plan next quarter’s compliance work.\n' +
          `1. Call list_frameworks${frameworks ? ` and focus on ${frameworks}` : ''}.\n` +
          '2. For each framework call get_gaps (priority critical first, then important).\n' +
          '3. Prefer ISO/IEC 42001 controls whose recommendation says they count toward many requirements across frameworks; ' +
          'use explain_coverage to confirm what one control would close, and list_conflicts to flag requirements that pull against each other.\n' +
          `4. Propose at most ${capacity ?? '10'} work items, each with the controls to implement, the evidence that closes it, ` +
          'the gaps it closes per framework and an owner to assign. Change nothing: this is a proposal.',
      ),
  );

  server.registerPrompt(
    'close_gap',
    {
      title: 'Close one gap',
      description: 'What closes one requirement’s gap, and how to record it once done',
      argsSchema: { frameworkId: z.string(), requirementId: z.string() },
    },
    ({ frameworkId, requirementId }) =>
      user(
        `Explain what it takes to meet ${frameworkId} ${requirementId}.\n` +
          'Call get_requirement and explain_coverage, then say which controls to implement and which evidence to collect. ' +
          'When I confirm the work is done, record it with record_requirement_status and add_evidence (reviewer: me).',
      ),
  );
}
