import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { type ApiClient, ApiError } from '../api-client/client.js';
import { errorText } from '../api-client/format.js';

/** What every tool handler gets: the daemon's API client (with the caller's key) and the org it serves. */
export interface ToolContext {
  client: ApiClient;
  orgId: string;
}

export interface ToolOutput<T> {
  /** The structured result, matching the tool's output schema. */
  data: T;
  /**
   * The same result for clients that read text only (as the MCP specification asks of a tool that returns
   * structured content): a headline, then the items with their ids, titles, states and the key reasons,
   * bounded by `listText`.
   */
  text: string;
}

/** Items a tool's text lists before it says how many more there are. */
export const TEXT_ITEMS = 20;

/** One line of text, at most `max` characters (an ellipsis marks a cut). */
export function clip(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`;
}

/**
 * A headline, then one item a line (`- …`), at most `max` of them, then "and N more" for the rest of `total`
 * (the items of later pages included) and where they are: the structured content, the next page.
 */
export function listText(
  headline: string,
  items: string[],
  options: { total?: number; max?: number; nextOffset?: number | null } = {},
): string {
  const max = options.max ?? TEXT_ITEMS;
  const shown = items.slice(0, max);
  const rest = (options.total ?? items.length) - shown.length;
  const lines = [headline, ...shown.map((item) => `- ${item}`)];
  if (rest > 0) {
    const where = [
      ...(items.length > shown.length ? ['the rest of this page in the structured content'] : []),
      ...(options.nextOffset != null ? [`next page: offset ${options.nextOffset}`] : []),
    ];
    lines.push(`- and ${rest} more${where.length ? ` (${where.join('; ')})` : ''}`);
  }
  return lines.join('\n');
}

/** Reads change nothing, twice gives the same answer, and stay inside comply. */
export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * Registers one tool: inputs and output checked by their schemas, and any failure of the API (a refusal,
 * a missing scope, an unreachable daemon) returned as a tool error carrying the API's message rather than
 * thrown, so the agent can read it and the server keeps running.
 */
export function defineTool<In extends z.ZodRawShape, Out extends z.ZodRawShape>(
  server: McpServer,
  context: ToolContext,
  tool: {
    name: string;
    title: string;
    description: string;
    annotations: ToolAnnotations;
    input: In;
    output: Out;
    run: (
      args: z.infer<z.ZodObject<In>>,
      context: ToolContext,
    ) => Promise<ToolOutput<z.infer<z.ZodObject<Out>>>>;
  },
): void {
  server.registerTool(
    tool.name,
    {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      outputSchema: tool.output,
      annotations: { title: tool.title, ...tool.annotations },
    },
    // The SDK's callback type is generic over zod's v3 and v4 shapes; the arguments it passes are the parsed input.
    (async (args: z.infer<z.ZodObject<In>>): Promise<CallToolResult> => {
      try {
        const { data, text } = await tool.run(args, context);
        return { structuredContent: data as Record<string, unknown>, content: [{ type: 'text', text }] };
      } catch (error) {
        return toolError(error);
      }
    }) as never,
  );
}

export function toolError(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: describeError(error) }] };
}

/** The API's message, status and code, and what to do about a missing scope. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return errorText(error);
  const hint =
    error.status === 403
      ? ' The API key lacks the scope this needs (read for reads, write for changes, export for the SoA), or belongs to another organization.'
      : '';
  return `${errorText(error)}.${hint}`;
}

/** Resource reads report failures as protocol errors, with the same text a tool error carries. */
export async function reading<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new Error(describeError(error));
  }
}

/** Paging arguments shared by the tools whose lists can be long. */
export const page = (defaultLimit: number) => ({
  limit: z
    .number()
    .int()
    .min(1)
    .max(200)
    .default(defaultLimit)
    .describe(`Items per page, 1–200 (default ${defaultLimit})`),
  offset: z.number().int().min(0).default(0).describe('Items to skip: the nextOffset of the previous page'),
});

export const pageInfo = {
  total: z.number().int().describe('Items matching, over every page'),
  offset: z.number().int(),
  nextOffset: z.number().int().nullable().describe('Pass as offset for the next page; null on the last page'),
};

export function paged<T>(items: T[], limit: number, offset: number) {
  const slice = items.slice(offset, offset + limit);
  return {
    items: slice,
    total: items.length,
    offset,
    nextOffset: offset + slice.length < items.length ? offset + slice.length : null,
  };
}
