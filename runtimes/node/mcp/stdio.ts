// The MCP server over stdio under Node: stdout belongs to the protocol, so everything else goes to stderr (the
// command redirects console output before any library loads). Supplies the session's lifetime
// (runtimes/mcp/stdio-session.ts: serve until the client closes, SIGINT/SIGTERM, or stdin ends — after
// answering what arrived before the end) with process.stdin and process signals.
import { StdioServerTransport } from '../../mcp/sdk/server.ts';
import type { VerbService } from '../../../core/service/index.ts';
import { createMcpServer, type McpServerOptions } from '../../mcp/server.ts';
import { runStdioSession } from '../../mcp/stdio-session.ts';

/** Serves until the client goes away; resolves when the server has closed. */
export function serveStdio(svc: VerbService, opts: McpServerOptions): Promise<void> {
  return runStdioSession(createMcpServer(svc, opts), new StdioServerTransport(), {
    onInputEnd: (fn) => {
      process.stdin.once('end', fn);
      process.stdin.once('close', fn);
    },
    onSignal: (fn) => {
      process.once('SIGINT', fn);
      process.once('SIGTERM', fn);
      return () => {
        process.off('SIGINT', fn);
        process.off('SIGTERM', fn);
      };
    },
    log: opts.log,
  });
}
