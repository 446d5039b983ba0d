import * as z from 'zod';
import { ApiError } from '../api-client/client.js';
import { errorText } from '../api-client/format.js';
/** Reads change nothing, twice gives the same answer, and stay inside comply. */
export const READ = {
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
export function defineTool(server, context, tool) {
    server.registerTool(tool.name, {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.annotations },
    }, 
    // The SDK's callback type is generic over zod's v3 and v4 shapes; the arguments it passes are the parsed input.
    (async (args) => {
        try {
            const { data, text } = await tool.run(args, context);
            return { structuredContent: data, content: [{ type: 'text', text }] };
        }
        catch (error) {
            return toolError(error);
        }
    }));
}
export function toolError(error) {
    return { isError: true, content: [{ type: 'text', text: describeError(error) }] };
}
/** The API's message, status and code, and what to do about a missing scope. */
export function describeError(error) {
    if (!(error instanceof ApiError))
        return errorText(error);
    const hint = error.status === 403
        ? ' The API key lacks the scope this needs (read for reads, write for changes, export for the SoA), or belongs to another organization.'
        : '';
    return `${errorText(error)}.${hint}`;
}
/** Resource reads report failures as protocol errors, with the same text a tool error carries. */
export async function reading(work) {
    try {
        return await work();
    }
    catch (error) {
        throw new Error(describeError(error));
    }
}
/** Paging arguments shared by the tools whose lists can be long. */
export const page = (defaultLimit) => ({
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
export function paged(items, limit, offset) {
    const slice = items.slice(offset, offset + limit);
    return {
        items: slice,
        total: items.length,
        offset,
        nextOffset: offset + slice.length < items.length ? offset + slice.length : null,
    };
}
//# sourceMappingURL=tool.js.map