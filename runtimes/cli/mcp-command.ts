// `hci mcp [root...]`, a row of the command table: the MCP server over stdio (default) or Streamable
// HTTP (--http) for one workspace, fixed at start — or for several, searched as one (a Federation:
// core/service/federation.ts). Owns the command's options, refusing unsafe or
// invalid setups before anything listens (exit 2), and the server's lifetime; the tools are
// runtimes/mcp/, the answers core/service/, the transports and the watcher the runtime's (McpRuntime).
import { HciError } from '../../core/platform.ts';
import { EXIT } from '../../core/contract/errors.ts';
import { HCI_VERSION } from '../../core/version.ts';
import { checkHttpOptions, TOKEN_ENV } from '../mcp/http-guard.ts';
import { command, fail, type CommandRow } from './command.ts';
import type { McpRuntime } from './runtime.ts';
import { arg, isIndexUrl, opt, port } from './options.ts';

const DEFAULT_PORT = 7420;
/** How long a search on a workspace without an index waits for the first build before answering `indexing`. */
const FIRST_INDEX_WAIT_ENV = 'HCI_MCP_FIRST_INDEX_WAIT_MS';

/** Sends console.log/info/debug to stderr (stdio mode: stdout carries only the protocol). */
function keepStdoutForProtocol(): void {
  const toErr = (...args: unknown[]) => console.error(...args);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
}

export const mcpCommand: CommandRow = command({
  name: 'mcp',
  description: 'serve the workspace to MCP hosts (Claude Code, Cursor, VS Code): stdio by default, Streamable HTTP with --http',
  args: [arg.words('[root...]', 'workspace folder, fixed for the server\'s lifetime (default: the current folder); or the http(s) URL of a published index (hci pack), served read-only; several: one search over all of them')],
  options: {
    http: opt.flag('--http', 'serve Streamable HTTP instead of stdio'),
    port: opt.intOr('--port <n>', 'HTTP port (0: any free port)', DEFAULT_PORT, port),
    host: opt.textOr('--host <addr>', `HTTP bind address; beyond loopback needs ${TOKEN_ENV}`, '127.0.0.1'),
    watch: opt.oneOfOr('--watch <mode>', 're-index changed files: auto (OS events, polling fallback), poll, off', ['auto', 'poll', 'off'] as const, 'auto'),
    pollInterval: opt.intOr('--poll-interval <ms>', 'polling interval when polling', 2000),
    allowHost: opt.list('--allow-host <name>', 'another Host header to accept over HTTP (repeatable)'),
    allowOrigin: opt.list('--allow-origin <origin>', 'another Origin to accept over HTTP, e.g. http://localhost:5173 (repeatable)'),
  },
  helpAfter: `\nHTTP clients send "Authorization: Bearer $${TOKEN_ENV}" when ${TOKEN_ENV} is set (required beyond loopback).\nLogs go to stderr; over stdio, stdout carries only the protocol.`,
  async run(c, [rootArgs], o) {
    const roots = (rootArgs.length ? rootArgs : ['.']).map((r) => (isIndexUrl(r) ? r : c.rt.resolve(r)));
    const root = roots[0];
    let m: McpRuntime | undefined;
    try {
      for (const r of roots) if (!isIndexUrl(r) && !c.rt.isDirectory(r)) throw new HciError('root_not_found', `workspace folder not found: ${r}`, c.rt.missingRootHint);
      const token = c.rt.env(TOKEN_ENV) || undefined;
      const http = o.http;
      const listen = { host: o.host, port: o.port, token };
      if (http) checkHttpOptions(listen);
      // Before anything else loads (the SQLite WASM module binds console.log at init): over stdio,
      // stdout belongs to the protocol.
      else keepStdoutForProtocol();
      m = await c.rt.mcp(root);
      m.logUnhandledRejections(m.log);
      const wait = Number(c.rt.env(FIRST_INDEX_WAIT_ENV));
      const { Federation, HciService, repoNames } = await import('../../core/service/index.ts');
      const serve = (r: string, open?: McpRuntime['open']) => new HciService({
        root: r, host: m!.host, surface: 'mcp', watch: o.watch, pollMs: o.pollInterval, log: m!.log, open,
        ...(Number.isFinite(wait) && wait >= 0 ? { firstIndexWaitMs: wait } : {}),
      });
      const names = repoNames(roots);
      // The workspace opened early (m.open) is the first root's.
      const parts = roots.length > 1 ? m.repoSearchPool?.(roots) : undefined;
      const svc = roots.length === 1 ? serve(root, m.open) : new Federation(roots.map((r, i) => ({ repo: names[i], service: serve(r, i === 0 ? m!.open : undefined), ...(parts ? { search: parts[i] } : {}) })));
      const server = { version: HCI_VERSION, checkOutput: true, log: m.log };
      if (http) {
        const h = await m.serveHttp(svc, { ...server, ...listen, allowedHosts: o.allowHost, allowedOrigins: o.allowOrigin });
        m.log(`serving ${svc.root} at ${h.url}${token ? ' (bearer token required)' : ''}`);
        void svc.start();
        await m.waitForSignal();
        await h.close();
      } else {
        const serving = m.serveStdio(svc, server);
        void svc.start();
        await serving;
      }
      await svc.close();
      return EXIT.ok;
    } catch (e) {
      return fail(c, e, false);
    } finally {
      m?.finished();
    }
  },
});
