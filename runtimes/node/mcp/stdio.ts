// The MCP server over stdio under Node: stdout belongs to the protocol, so everything else goes to stderr (the
// command redirects console output before any library loads). Owns the stdio lifetime: serve until
// stdin ends, the client closes, or SIGINT/SIGTERM.
import { StdioServerTransport } from '../../mcp/sdk/server.ts';
import type { HciService } from '../../../core/service/index.ts';
import { createMcpServer, type McpServerOptions } from '../../mcp/server.ts';

/** Serves until the client goes away; resolves when the server has closed. */
export async function serveStdio(svc: HciService, opts: McpServerOptions): Promise<void> {
  const server = createMcpServer(svc, opts);
  const transport = new StdioServerTransport();
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const onSignal = () => finish();
  server.onclose = finish;
  server.onerror = (e) => opts.log?.(`protocol: ${e.message}`);
  process.stdin.once('end', finish);
  process.stdin.once('close', finish);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await server.connect(transport);
  await done;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  server.onclose = undefined;
  await server.close().catch(() => {});
}
