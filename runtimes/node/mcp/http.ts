// The MCP server over Streamable HTTP under Node (node:http; one endpoint, `/mcp`; one protocol session
// per client, all sharing one service). Owns the socket side: listening (loopback by default), bodies,
// responses, Node's SDK transport and this machine's names. The checks (Host and Origin against DNS
// rebinding, the bearer token, sessions) are runtimes/mcp/http-endpoint.ts, shared with Deno.
import * as http from 'node:http';
import * as os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '../../mcp/sdk/node-http.ts';
import { HciError } from '../../../core/platform.ts';
import type { HciService } from '../../../core/service/index.ts';
import { checkHttpOptions, MCP_PATH, refusalBody, type MachineNames } from '../../mcp/http-guard.ts';
import { createHttpEndpoint, type EndpointOptions } from '../../mcp/http-endpoint.ts';

export { checkHttpOptions, isLoopback, MCP_PATH, TOKEN_ENV } from '../../mcp/http-guard.ts';

const MAX_BODY = 4 * 1024 * 1024;

export type HttpOptions = EndpointOptions;

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

export async function serveHttp(svc: HciService, o: HttpOptions): Promise<HttpHandle> {
  checkHttpOptions(o);
  const endpoint = createHttpEndpoint(svc, o, nodeMachineNames, (onsessioninitialized) =>
    new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized }));
  const log = o.log ?? (() => {});

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const sid = req.headers['mcp-session-id'];
    const d = await endpoint.decide({
      host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization,
      path: new URL(req.url ?? '/', 'http://x').pathname, sessionId: Array.isArray(sid) ? sid[0] : sid, method: req.method,
    });
    if (d.kind === 'refuse') return reject(res, d.status, d.message, d.headers);
    if (d.kind === 'continue') {
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      await d.transport.handleRequest(req, res, body);
      return;
    }
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (e) {
      return reject(res, 400, `bad request: ${(e as Error).message}`);
    }
    const opened = await endpoint.open(body);
    if (opened.kind === 'refuse') return reject(res, opened.status, opened.message);
    await opened.transport.handleRequest(req, res, body);
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
      await endpoint.closeAll();
      httpServer.closeAllConnections?.();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}
