// `hci mcp [root]`: runs the MCP server over stdio (default) or Streamable HTTP (--http) for one
// workspace, fixed at start. Owns the command's options, refusing unsafe or invalid setups before
// anything listens (exit 2), and the process lifetime; the tools live in runtimes/node/mcp/.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import { HciError } from '../../core/platform.ts';
import type { WatchPreference } from './mcp/service.ts';
import type { HciWorkspace } from '../../core/workspace.ts';
import { openWorkspace } from './index.ts';

// The server's modules (MCP SDK, zod schemas, chokidar, node:http) load only when `hci mcp` runs, so
// every other command starts as fast as before.
const TOKEN_ENV = 'HCI_MCP_TOKEN';

const DEFAULT_PORT = 7420;

/** Sends console.log/info/debug to stderr (stdio mode: stdout carries only the protocol). */
function keepStdoutForProtocol(): void {
  const toErr = (...args: unknown[]) => console.error(...args);
  console.log = toErr;
  console.info = toErr;
  console.debug = toErr;
}

function log(msg: string): void {
  process.stderr.write(`hci mcp: ${msg}\n`);
}

/** The package version, from the nearest package.json above this module (source or dist). */
function packageVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'hci' && pkg.version) return pkg.version;
    } catch {
      // keep looking
    }
    dir = path.dirname(dir);
  }
  return '0.0.0';
}

function port(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return n;
}

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

const collect = (v: string, prev: string[]) => [...prev, ...v.split(',').filter(Boolean)];

interface McpOptions {
  http?: boolean;
  port: number;
  host: string;
  watch: WatchPreference;
  pollInterval: number;
  allowHost: string[];
  allowOrigin: string[];
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export function registerMcpCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('mcp')
    .description('serve the workspace to MCP hosts (Claude Code, Cursor, VS Code): stdio by default, Streamable HTTP with --http')
    .argument('[root]', 'workspace folder, fixed for the server\'s lifetime (default: the current folder)')
    .option('--http', 'serve Streamable HTTP instead of stdio')
    .option('--port <n>', 'HTTP port (0: any free port)', port, DEFAULT_PORT)
    .option('--host <addr>', `HTTP bind address; beyond loopback needs ${TOKEN_ENV}`, '127.0.0.1')
    .option('--watch <mode>', 're-index changed files: auto (OS events, polling fallback), poll, off', (v) => {
      if (!['auto', 'poll', 'off'].includes(v)) throw new InvalidArgumentError('expected auto, poll or off');
      return v;
    }, 'auto')
    .option('--poll-interval <ms>', 'polling interval when polling', positiveInt, 2000)
    .option('--allow-host <name>', 'another Host header to accept over HTTP (repeatable)', collect, [])
    .option('--allow-origin <origin>', 'another Origin to accept over HTTP, e.g. http://localhost:5173 (repeatable)', collect, [])
    .addHelpText('after', `\nHTTP clients send "Authorization: Bearer $${TOKEN_ENV}" when ${TOKEN_ENV} is set (required beyond loopback).\nLogs go to stderr; over stdio, stdout carries only the protocol.`)
    .action(async (rootArg: string | undefined, o: McpOptions) => {
      const root = path.resolve(rootArg ?? '.');
      try {
        let st: fs.Stats | undefined;
        try {
          st = fs.statSync(root);
        } catch {
          // reported below
        }
        if (!st?.isDirectory()) throw new HciError('root_not_found', `workspace folder not found: ${root}`, 'pass an existing folder: hci mcp /path/to/repo');
        const token = process.env[TOKEN_ENV] || undefined;
        // Before anything else loads (the SQLite WASM module binds console.log at init): over stdio,
        // stdout belongs to the protocol.
        if (!o.http) keepStdoutForProtocol();
        const { checkHttpOptions, serveHttp } = await import('./mcp/http.ts');
        if (o.http) checkHttpOptions({ host: o.host, port: o.port, token });
        // Open the workspace (WASM engine, index) while the server's modules load: a faster first answer.
        let early: Promise<HciWorkspace> | null = openWorkspace(root);
        early.catch(() => {}); // a failure (bad settings) is answered by the first tool call
        const [{ serveStdio }, { HciMcpService }, { nodeMcpHost }] = await Promise.all([
          import('./mcp/stdio.ts'), import('./mcp/service.ts'), import('./mcp/node-host.ts'),
        ]);

        // A stray rejection in a library must not take the server (and the host's session) down.
        process.on('unhandledRejection', (e) => log(`unhandled rejection: ${(e as Error)?.stack ?? e}`));
        const version = packageVersion();
        const waitEnv = Number(process.env.HCI_MCP_FIRST_INDEX_WAIT_MS);
        const svc = new HciMcpService({
          root, host: nodeMcpHost(), watch: o.watch, pollMs: o.pollInterval, log,
          open: (r) => {
            const p = early ?? openWorkspace(r);
            early = null;
            return p;
          },
          // How long a search on a workspace without an index waits for the first build before answering `indexing`.
          ...(Number.isFinite(waitEnv) && waitEnv >= 0 ? { firstIndexWaitMs: waitEnv } : {}),
        });
        if (o.http) {
          const h = await serveHttp(svc, {
            host: o.host, port: o.port, token, allowedHosts: o.allowHost, allowedOrigins: o.allowOrigin, version, checkOutput: true, log,
          });
          log(`serving ${root} at ${h.url}${token ? ' (bearer token required)' : ''}`);
          void svc.start();
          await waitForSignal();
          await h.close();
        } else {
          const serving = serveStdio(svc, { version, checkOutput: true, log });
          void svc.start();
          await serving;
        }
        await svc.close();
        setExit(0);
      } catch (e) {
        const err = e instanceof HciError ? e : new HciError('internal', (e as Error)?.message ?? String(e));
        process.stderr.write(`hci: ${err.message}${err.hint ? `\nhint: ${err.hint}` : ''}\n`);
        setExit(err.code === 'internal' || err.code === 'listen_failed' ? 5 : 2);
      }
      // Whatever a library left running (a watcher handle, a socket), the server is done.
      setTimeout(() => process.exit(), 1500).unref();
    });
}
