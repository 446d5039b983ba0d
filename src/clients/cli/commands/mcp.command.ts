import type { Command } from 'commander';
import type { Cli } from '../cli.js';

/** The version the MCP server reports to clients. */
const VERSION = '0.1.0';

export function registerMcpCommand(program: Command, cli: Cli): void {
  program
    .command('mcp')
    .description('Model Context Protocol server over stdio, for AI assistants and agents')
    .option('--read-only', 'offer only the tools that read (the key’s scopes still decide on the daemon)')
    .addHelpText(
      'after',
      `
Runs until its standard input closes, speaking MCP (JSON-RPC) on stdin/stdout; logs go to stderr.
Every call goes to the daemon at COMPLY_URL with COMPLY_API_KEY, for the org of --org or COMPLY_ORG:
the key's scopes bound what an agent may do (read for the read tools, write for record_* / add_evidence /
create_snapshot, export for the SoA).

An MCP client configuration (Claude Desktop, Cursor, VS Code, …):
  {"mcpServers": {"comply": {"command": "/path/to/comply/bin/comply", "args": ["mcp"],
    "env": {"COMPLY_URL": "http://127.0.0.1:8080", "COMPLY_API_KEY": "<key>", "COMPLY_ORG": "acme"}}}}`,
    )
    .action(async (options: { readOnly?: boolean }, command: Command) => {
      const orgId = cli.org(command);
      // No spinner: stdout belongs to the protocol.
      const client = cli.client(command, { progress: false });
      if (!cli.apiKey(command) && !cli.session(command)) {
        process.stderr.write(
          'comply mcp: no API key (COMPLY_API_KEY) and no session (comply login): every tool will answer 401\n',
        );
      }
      // Loaded on demand: the MCP SDK and the tools' schemas are for this command alone.
      const [{ StdioServerTransport }, { createMcpServer }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/stdio.js'),
        import('../../mcp/server.js'),
      ]);
      const server = createMcpServer({ client, orgId, readOnly: options.readOnly, version: VERSION });
      const transport = new StdioServerTransport();
      const closed = new Promise<void>((resolve) => {
        transport.onclose = resolve;
        process.stdin.once('end', resolve);
      });
      await server.connect(transport);
      process.stderr.write(
        `comply mcp: serving ${orgId} from ${client.baseUrl}${options.readOnly ? ' (read-only)' : ''}\n`,
      );
      await closed;
      await server.close();
    });
}
