// The MCP server's runtime pieces under Deno, for the shared `mcp` verb (runtimes/cli/mcp-command.ts):
// stdio with Deno's streams and signals, Streamable HTTP with `Deno.serve` and the web-standard SDK
// transport (the endpoint's checks are runtimes/mcp/http-endpoint.ts, shared with Node), and the
// service host (service-host.ts: the Deno adapters, the intercom engine, no file
// watcher — the `watch` tool answers `not_available`, reindex is incremental).
// Loaded only when `mcp` runs.
import { StdioServerTransport } from '../mcp/sdk/server.ts';
import { HciError } from '../../core/platform.ts';
import type { VerbService, ServiceHost } from '../../core/service/index.ts';
import { createMcpServer, type McpServerOptions } from '../mcp/server.ts';
import { runStdioSession } from '../mcp/stdio-session.ts';
import { checkHttpOptions, MCP_PATH, refusalBody } from '../mcp/http-guard.ts';
import { BODY_TOO_LARGE, createHttpEndpoint, readBoundedText, type EndpointOptions } from '../mcp/http-endpoint.ts';
import type { ExchangeDone } from '../mcp/http-sessions.ts';
import type { McpRuntime } from '../cli/runtime.ts';
import { deno, errorName } from './deno-api.ts';
import { denoServiceHost } from './service-host.ts';

/** The parts of Deno's API only the HTTP server uses (typed locally, like deno-api.ts). */
interface DenoServeApi {
  serve(
    opts: { hostname: string; port: number; signal?: AbortSignal; onListen?: (a: { hostname: string; port: number }) => void },
    handler: (req: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { finished: Promise<void> };
  networkInterfaces(): Array<{ address: string }>;
}
const denoServe = () => deno() as unknown as ReturnType<typeof deno> & DenoServeApi;

const enc = new TextEncoder();

function log(msg: string): void {
  deno().stderr.writeSync(enc.encode(`hci mcp (deno): ${msg}\n`));
}

export const denoMcpHost: ServiceHost = denoServiceHost();

function serveStdio(svc: VerbService, opts: McpServerOptions, onInterrupt: (fn: () => void) => () => void): Promise<void> {
  // Deno's node:process stdin: the SDK transport reads it, and its end is stdin's EOF.
  const stdin = (globalThis as unknown as { process: { stdin: { once(ev: string, fn: () => void): void } } }).process.stdin;
  return runStdioSession(createMcpServer(svc, opts), new StdioServerTransport(), {
    onInputEnd: (fn) => {
      stdin.once('end', fn);
      stdin.once('close', fn);
    },
    onSignal: onInterrupt,
    log: opts.log ?? log,
  });
}

function refuse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(refusalBody(message), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** The transport's response; `done` runs at once when it throws. */
async function settle(res: Promise<Response>, done: ExchangeDone): Promise<Response> {
  try {
    return await res;
  } catch (e) {
    done();
    throw e;
  }
}

/** The response, with `done` called once its body has been sent or the client went away (a GET stream ends only then). */
function tracked(res: Response, done: ExchangeDone): Response {
  if (!res.body) {
    done();
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(c) {
      try {
        const { done: end, value } = await reader.read();
        if (end) {
          c.close();
          done();
        } else c.enqueue(value);
      } catch (e) {
        done();
        c.error(e);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

async function serveHttp(svc: VerbService, o: EndpointOptions): Promise<{ url: string; close(): Promise<void> }> {
  checkHttpOptions(o);
  const machine = {
    hostname: () => deno().hostname(),
    addresses: () => {
      try {
        return denoServe().networkInterfaces().map((i) => i.address);
      } catch {
        return []; // needs --allow-sys=networkInterfaces; --allow-host names them instead
      }
    },
  };
  const { WebStandardStreamableHTTPServerTransport } = await import('../mcp/sdk/web-http.ts');
  const endpoint = createHttpEndpoint(svc, o, machine, (onsessioninitialized) =>
    new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: () => crypto.randomUUID(), onsessioninitialized }));

  const handle = async (req: Request, remoteAddress: string): Promise<Response> => {
    const d = await endpoint.decide({
      host: req.headers.get('host'), origin: req.headers.get('origin'), authorization: req.headers.get('authorization'),
      path: new URL(req.url).pathname, sessionId: req.headers.get('mcp-session-id'), method: req.method, remoteAddress,
    });
    if (d.kind === 'refuse') return refuse(d.status, d.message, d.headers);
    if (d.kind === 'continue') {
      let body: unknown;
      try {
        if (req.method === 'POST') {
          const text = await readBoundedText(req);
          if (text === null) {
            d.done();
            return refuse(BODY_TOO_LARGE.status, BODY_TOO_LARGE.message, BODY_TOO_LARGE.headers);
          }
          body = text ? JSON.parse(text) : undefined;
        }
      } catch {
        d.done();
        return refuse(400, 'bad request: the body is not JSON');
      }
      return tracked(await settle(d.transport.handleRequest(req, body === undefined ? undefined : { parsedBody: body }), d.done), d.done);
    }
    let body: unknown;
    try {
      const text = await readBoundedText(req);
      if (text === null) return refuse(BODY_TOO_LARGE.status, BODY_TOO_LARGE.message, BODY_TOO_LARGE.headers);
      body = text ? JSON.parse(text) : undefined;
    } catch (e) {
      return refuse(400, `bad request: ${e instanceof SyntaxError ? 'the body is not JSON' : (e as Error).message}`);
    }
    const opened = await endpoint.open(body, { authorization: req.headers.get('authorization'), remoteAddress });
    if (opened.kind === 'refuse') return refuse(opened.status, opened.message, opened.headers);
    return tracked(await settle(opened.transport.handleRequest(req, { parsedBody: body }), opened.done), opened.done);
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
      (req, info) =>
        handle(req, info.remoteAddr.hostname).catch((e) => {
          log(`http: ${(e as Error)?.message ?? e}`);
          return refuse(500, 'internal error');
        }),
    );
  } catch (e) {
    const name = errorName(e);
    const denied = name === 'NotCapable' || name === 'PermissionDenied';
    throw new HciError(
      name === 'AddrInUse' ? 'port_in_use' : denied ? 'permission_needed' : 'listen_failed',
      `cannot listen on ${o.host}:${o.port}: ${(e as Error).message}`,
      name === 'AddrInUse' ? 'pick another --port' : denied ? `add --allow-net=${o.host}:${o.port}` : undefined,
    );
  }
  return {
    url: await url,
    async close() {
      await endpoint.closeAll();
      stop.abort();
      await served.finished.catch(() => {});
    },
  };
}

export function denoMcpRuntime(onInterrupt: (fn: () => void) => () => void): McpRuntime {
  return {
    host: denoMcpHost,
    serveStdio: (svc, o) => serveStdio(svc, o, onInterrupt),
    serveHttp,
    waitForSignal: () => new Promise((resolve) => void onInterrupt(resolve)),
    logUnhandledRejections: (logTo) =>
      globalThis.addEventListener?.('unhandledrejection', (ev: Event) => {
        ev.preventDefault();
        logTo(`unhandled rejection: ${((ev as PromiseRejectionEvent).reason as Error)?.stack ?? (ev as PromiseRejectionEvent).reason}`);
      }),
    finished: () => {},
    log,
  };
}
