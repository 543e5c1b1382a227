// The MCP server over Streamable HTTP (one endpoint, `/mcp`; one protocol session per client, all
// sharing one service). Owns the network guard: it binds to loopback by default, checks Host and
// Origin on every request against DNS rebinding, and requires a bearer token whenever it listens
// beyond loopback (and checks it whenever one is configured) — the checks themselves are http-guard.ts,
// shared with the Deno server.
import * as http from 'node:http';
import * as os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { HciError } from '../../../core/platform.ts';
import type { HciMcpService } from './service.ts';
import { createMcpServer, type McpServerOptions } from './server.ts';
import { checkHttpOptions, createRequestGuard, MCP_PATH, refusalBody, type GuardOptions, type MachineNames } from './http-guard.ts';
import { HttpSessions } from './http-sessions.ts';

export { checkHttpOptions, isLoopback, MCP_PATH, TOKEN_ENV } from './http-guard.ts';

const MAX_BODY = 4 * 1024 * 1024;

export interface HttpOptions extends McpServerOptions, GuardOptions {}

/** Node's answers to the guard's questions about this machine's names. */
export const nodeMachineNames: MachineNames = {
  hostname: () => os.hostname(),
  addresses: () => Object.values(os.networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address)),
};

function reject(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(refusalBody(message));
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of req) {
    n += (c as Buffer).length;
    if (n > MAX_BODY) throw new HciError('too_large', `request body over ${MAX_BODY} bytes`);
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : undefined;
}

export interface HttpHandle {
  url: string;
  close(): Promise<void>;
}

export async function serveHttp(svc: HciMcpService, o: HttpOptions): Promise<HttpHandle> {
  checkHttpOptions(o);
  const guard = createRequestGuard(o, nodeMachineNames);
  const sessions = new HttpSessions<StreamableHTTPServerTransport>();
  const log = o.log ?? (() => {});

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://x');
    const refused = await guard({ host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization });
    if (refused) {
      if (refused.log) log(refused.log);
      return reject(res, refused.status, refused.message, refused.headers);
    }
    if (url.pathname !== MCP_PATH) return reject(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);

    const sid = req.headers['mcp-session-id'];
    const route = sessions.route(Array.isArray(sid) ? sid[0] : sid, req.method);
    if (route.kind === 'refuse') return reject(res, route.refusal.status, route.refusal.message);
    if (route.kind === 'continue') {
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      await route.transport.handleRequest(req, res, body);
      return;
    }
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (e) {
      return reject(res, 400, `bad request: ${(e as Error).message}`);
    }
    const refusal = sessions.admit(body);
    if (refusal) return reject(res, refusal.status, refusal.message);
    const server = createMcpServer(svc, o);
    const opener = sessions.opener(server);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: opener.onsessioninitialized });
    opener.attach(transport);
    server.onerror = (e) => log(`protocol: ${e.message}`);
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`http: ${(e as Error)?.message ?? e}`);
      if (e instanceof SyntaxError) reject(res, 400, 'bad request: the body is not JSON');
      else reject(res, 500, 'internal error');
    });
  });

  await new Promise<void>((resolve, rejectListen) => {
    httpServer.once('error', (e: NodeJS.ErrnoException) =>
      rejectListen(
        new HciError(
          e.code === 'EADDRINUSE' ? 'port_in_use' : 'listen_failed',
          `cannot listen on ${o.host}:${o.port}: ${e.message}`,
          e.code === 'EADDRINUSE' ? 'pick another --port (0 picks a free one)' : undefined,
        ),
      ),
    );
    httpServer.listen(o.port, o.host, () => resolve());
  });
  const addr = httpServer.address() as AddressInfo;
  const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    url: `http://${shownHost}:${addr.port}${MCP_PATH}`,
    async close() {
      await sessions.closeAll();
      httpServer.closeAllConnections?.();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}
