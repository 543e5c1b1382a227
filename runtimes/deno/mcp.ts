// The hci MCP server under Deno: the same tools, answers and HTTP guard as `hci mcp` (Node), served
// over stdio (default) or Streamable HTTP with `Deno.serve` (--http). Narrowest permissions that work
// (see the README, "Deno and the browser"):
//
//   deno run --no-prompt --allow-read=<workspace>,<hci folder>/node_modules \
//     --allow-write=<workspace>/.hci --allow-sys=hostname <hci folder>/runtimes/deno/mcp.ts <workspace>
//
// and for HTTP add `--allow-net=127.0.0.1:<port>` and `--http --port <port>`. Optional:
// `--allow-env=HCI_MCP_TOKEN` (a bearer token), `--allow-run` (clear locks left by crashed processes).
// No file watcher under Deno: the `watch` tool answers `not_available`; reindex is incremental.
// The service modules come from runtimes/node/mcp/ but load no Node adapter: they only use
// node:path and node:url (pure) and node:fs realpath of the workspace root (read permission).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { HciError } from '../../core/platform.ts';
import { HciMcpService, type McpHost } from '../node/mcp/service.ts';
import { createMcpServer, type McpServerOptions } from '../node/mcp/server.ts';
import { checkHttpOptions, createRequestGuard, MCP_PATH, refusalBody, TOKEN_ENV, type GuardOptions } from '../node/mcp/http-guard.ts';
import { HttpSessions } from '../node/mcp/http-sessions.ts';
import { deno, errorName } from './deno-api.ts';
import { absolutePath } from './deno-storage.ts';
import { openWorkspace } from './workspace.ts';

/** The parts of Deno's API only this entry uses (typed locally, like deno-api.ts). */
interface DenoServeApi {
  serve(
    opts: { hostname: string; port: number; signal?: AbortSignal; onListen?: (a: { hostname: string; port: number }) => void },
    handler: (req: Request) => Response | Promise<Response>,
  ): { finished: Promise<void> };
  networkInterfaces(): Array<{ address: string }>;
  removeSignalListener(signal: string, handler: () => void): void;
}
const denoServe = () => deno() as unknown as ReturnType<typeof deno> & DenoServeApi;

const USAGE = `usage: deno run <permissions> runtimes/deno/mcp.ts <root> [--http] [--port N] [--host H] [--allow-host NAME]… [--allow-origin ORIGIN]…`;
const DEFAULT_PORT = 7420;
const MAX_BODY = 4 * 1024 * 1024;

const enc = new TextEncoder();
function log(msg: string): void {
  deno().stderr.writeSync(enc.encode(`hci mcp (deno): ${msg}\n`));
}

interface Args {
  root: string;
  http: boolean;
  port: number;
  host: string;
  allowHost: string[];
  allowOrigin: string[];
}

function parseArgs(argv: string[]): Args {
  const a: Args = { root: '.', http: false, port: DEFAULT_PORT, host: '127.0.0.1', allowHost: [], allowOrigin: [] };
  let rootSet = false;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? [argv[i].slice(0, argv[i].indexOf('=')), argv[i].slice(argv[i].indexOf('=') + 1)] : [argv[i], undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new HciError('usage', `${flag} needs a value`, USAGE);
      return v;
    };
    switch (flag) {
      case '--http':
        a.http = true;
        break;
      case '--port': {
        const v = value();
        a.port = /^\d+$/.test(v) ? Number(v) : NaN;
        break;
      }
      case '--host':
        a.host = value();
        break;
      case '--allow-host':
        a.allowHost.push(...value().split(',').filter(Boolean));
        break;
      case '--allow-origin':
        a.allowOrigin.push(...value().split(',').filter(Boolean));
        break;
      case '--help':
      case '-h':
        throw new HciError('usage', 'help', USAGE);
      default:
        if (flag.startsWith('-') || rootSet) throw new HciError('usage', `unexpected argument ${argv[i]}`, USAGE);
        a.root = flag;
        rootSet = true;
    }
  }
  return a;
}

/** An environment variable, or undefined when it is unset or not granted (--allow-env=NAME). */
function env(name: string): string | undefined {
  try {
    return deno().env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/** The package version (needs read permission on package.json; "0.0.0" without it). */
function packageVersion(): string {
  try {
    const p = decodeURIComponent(new URL('../../package.json', import.meta.url).pathname);
    return (JSON.parse(deno().readTextFileSync(p)) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Deno has the Deno adapters and no watcher (Deno.watchFs lacks the polling fallback and dir/file kinds). */
export const denoMcpHost: McpHost = { name: 'Deno', openWorkspace: (root) => openWorkspace(root) };

async function serveStdio(svc: HciMcpService, opts: McpServerOptions): Promise<void> {
  const server = createMcpServer(svc, opts);
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  server.onclose = finish;
  server.onerror = (e) => log(`protocol: ${e.message}`);
  const transport = new StdioServerTransport();
  transport.onclose = finish;
  // stdin ending (the client went away) closes the transport through the SDK's own listeners only on
  // error; watch it here too.
  const stdin = (globalThis as unknown as { process: { stdin: { once(ev: string, fn: () => void): void } } }).process.stdin;
  stdin.once('end', finish);
  stdin.once('close', finish);
  deno().addSignalListener('SIGINT', finish);
  deno().addSignalListener('SIGTERM', finish);
  await server.connect(transport);
  await done;
  server.onclose = undefined;
  await server.close().catch(() => {});
}

function refuse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(refusalBody(message), { status, headers: { 'content-type': 'application/json', ...headers } });
}

async function serveHttp(svc: HciMcpService, o: McpServerOptions & GuardOptions): Promise<void> {
  checkHttpOptions(o);
  const guard = createRequestGuard(o, {
    hostname: () => deno().hostname(),
    addresses: () => {
      try {
        return denoServe().networkInterfaces().map((i) => i.address);
      } catch {
        return []; // needs --allow-sys=networkInterfaces; --allow-host names them instead
      }
    },
  });
  const sessions = new HttpSessions<WebStandardStreamableHTTPServerTransport>();

  const handle = async (req: Request): Promise<Response> => {
    const refused = await guard({ host: req.headers.get('host'), origin: req.headers.get('origin'), authorization: req.headers.get('authorization') });
    if (refused) {
      if (refused.log) log(refused.log);
      return refuse(refused.status, refused.message, refused.headers);
    }
    if (new URL(req.url).pathname !== MCP_PATH) return refuse(404, `not found: the MCP endpoint is ${MCP_PATH}`);
    const route = sessions.route(req.headers.get('mcp-session-id'), req.method);
    if (route.kind === 'refuse') return refuse(route.refusal.status, route.refusal.message);
    if (route.kind === 'continue') return route.transport.handleRequest(req);
    let body: unknown;
    try {
      const text = await req.text();
      if (text.length > MAX_BODY) throw new Error(`request body over ${MAX_BODY} bytes`);
      body = text ? JSON.parse(text) : undefined;
    } catch (e) {
      return refuse(400, `bad request: ${e instanceof SyntaxError ? 'the body is not JSON' : (e as Error).message}`);
    }
    const refusal = sessions.admit(body);
    if (refusal) return refuse(refusal.status, refusal.message);
    const server = createMcpServer(svc, o);
    const opener = sessions.opener(server);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), onsessioninitialized: opener.onsessioninitialized });
    opener.attach(transport);
    server.onerror = (e) => log(`protocol: ${e.message}`);
    await server.connect(transport);
    return transport.handleRequest(req, { parsedBody: body });
  };

  const stop = new AbortController();
  let listening!: (url: string) => void;
  const url = new Promise<string>((r) => (listening = r));
  let served: { finished: Promise<void> };
  try {
    served = denoServe().serve(
      {
        hostname: o.host, port: o.port, signal: stop.signal,
        onListen: (a) => listening(`http://${a.hostname.includes(':') ? `[${a.hostname}]` : a.hostname}:${a.port}${MCP_PATH}`),
      },
      (req) =>
        handle(req).catch((e) => {
          log(`http: ${(e as Error)?.message ?? e}`);
          return refuse(500, 'internal error');
        }),
    );
  } catch (e) {
    const name = errorName(e);
    throw new HciError(
      name === 'AddrInUse' ? 'port_in_use' : name === 'NotCapable' || name === 'PermissionDenied' ? 'permission_needed' : 'listen_failed',
      `cannot listen on ${o.host}:${o.port}: ${(e as Error).message}`,
      name === 'AddrInUse' ? 'pick another --port' : name === 'NotCapable' || name === 'PermissionDenied' ? `add --allow-net=${o.host}:${o.port}` : undefined,
    );
  }
  log(`serving ${svc.root} at ${await url}${o.token ? ' (bearer token required)' : ''}`);
  void svc.start();
  await new Promise<void>((resolve) => {
    deno().addSignalListener('SIGINT', resolve);
    deno().addSignalListener('SIGTERM', resolve);
  });
  await sessions.closeAll();
  stop.abort();
  await served.finished.catch(() => {});
}

async function main(): Promise<number> {
  let a: Args;
  try {
    a = parseArgs(deno().args);
  } catch (e) {
    const err = e as HciError;
    deno().stderr.writeSync(enc.encode(`${err.message === 'help' ? '' : `hci: ${err.message}\n`}${err.hint ?? ''}\n`));
    return err.message === 'help' ? 0 : 2;
  }
  const root = absolutePath(a.root);
  try {
    let isDir = false;
    try {
      isDir = deno().statSync(root).isDirectory;
    } catch {
      // reported below
    }
    if (!isDir) throw new HciError('root_not_found', `workspace folder not found (or not readable): ${root}`, 'pass an existing folder and grant --allow-read on it');
    const token = env(TOKEN_ENV);
    if (a.http) checkHttpOptions({ host: a.host, port: a.port, token });
    // Over stdio, stdout carries only the protocol: console output (the SQLite module's too) goes to stderr.
    if (!a.http) {
      const toErr = (...args: unknown[]) => console.error(...args);
      console.log = toErr;
      console.info = toErr;
      console.debug = toErr;
    }
    globalThis.addEventListener?.('unhandledrejection', (ev: Event) => {
      ev.preventDefault();
      log(`unhandled rejection: ${((ev as PromiseRejectionEvent).reason as Error)?.stack ?? (ev as PromiseRejectionEvent).reason}`);
    });
    const version = packageVersion();
    const svc = new HciMcpService({ root, host: denoMcpHost, watch: 'off', log });
    if (a.http) {
      await serveHttp(svc, { host: a.host, port: a.port, token, allowedHosts: a.allowHost, allowedOrigins: a.allowOrigin, version, checkOutput: true, log });
    } else {
      const serving = serveStdio(svc, { version, checkOutput: true, log });
      void svc.start();
      await serving;
    }
    await svc.close();
    return 0;
  } catch (e) {
    const err = e instanceof HciError ? e : new HciError('internal', (e as Error)?.message ?? String(e));
    log(`${err.message}${err.hint ? `\nhint: ${err.hint}` : ''}`);
    return err.code === 'internal' || err.code === 'listen_failed' ? 5 : 2;
  }
}

if ((import.meta as { main?: boolean }).main) deno().exit(await main());
