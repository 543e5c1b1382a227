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
import type { VerbService } from '../../../core/service/index.ts';
import { checkHttpOptions, MCP_PATH, refusalBody, type MachineNames } from '../../mcp/http-guard.ts';
import { BODY_TOO_LARGE, createHttpEndpoint, MAX_BODY_BYTES, type EndpointOptions } from '../../mcp/http-endpoint.ts';

/** How long an idle keep-alive connection stays open (what the `Keep-Alive: timeout=` header announces). */
export const KEEP_ALIVE_MS = 65_000;

export { checkHttpOptions, isLoopback, MCP_PATH, TOKEN_ENV } from '../../mcp/http-guard.ts';

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

const TOO_LARGE = Symbol('too large');

/** The body as parsed JSON (undefined when empty), or TOO_LARGE past MAX_BODY_BYTES (the request is left paused there). */
function readBody(req: http.IncomingMessage): Promise<unknown> {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, fail) => {
    const chunks: Buffer[] = [];
    let n = 0;
    const onData = (c: Buffer) => {
      n += c.length;
      if (n <= MAX_BODY_BYTES) return void chunks.push(c);
      req.off('data', onData).off('end', onEnd).pause();
      resolve(TOO_LARGE);
    };
    const onEnd = () => {
      try {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve(text ? JSON.parse(text) : undefined);
      } catch (e) {
        fail(e);
      }
    };
    req.on('data', onData).once('end', onEnd).once('error', fail);
  });
}

/** How much of an oversize body is read and dropped before the connection is cut instead. */
const DRAIN_LIMIT = 16 * MAX_BODY_BYTES;

/**
 * 413 once the rest of the body is read and dropped, then the connection closes: an answer sent while
 * the client was still sending made Node end the socket under it, and the client got EPIPE instead
 * of the answer. A sender past DRAIN_LIMIT gets the answer and is cut off (one that never stops, by
 * Node's request timeout).
 */
function tooLarge(req: http.IncomingMessage, res: http.ServerResponse): void {
  const answer = () => reject(res, BODY_TOO_LARGE.status, BODY_TOO_LARGE.message, BODY_TOO_LARGE.headers);
  let drained = 0;
  req.on('data', (c: Buffer) => {
    drained += c.length;
    if (drained <= DRAIN_LIMIT) return;
    req.pause();
    answer();
    res.once('finish', () => req.socket.destroy());
  });
  req.once('end', answer);
  req.resume();
}

export interface HttpHandle {
  url: string;
  close(): Promise<void>;
}

export async function serveHttp(svc: VerbService, o: HttpOptions): Promise<HttpHandle> {
  checkHttpOptions(o);
  const endpoint = createHttpEndpoint(svc, o, nodeMachineNames, (onsessioninitialized) =>
    new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized }));
  const log = o.log ?? (() => {});

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const sid = req.headers['mcp-session-id'];
    const d = await endpoint.decide({
      host: req.headers.host, origin: req.headers.origin, authorization: req.headers.authorization,
      path: new URL(req.url ?? '/', 'http://x').pathname, sessionId: Array.isArray(sid) ? sid[0] : sid, method: req.method,
      remoteAddress: req.socket.remoteAddress,
    });
    if (d.kind === 'refuse') return reject(res, d.status, d.message, d.headers);
    if (d.kind === 'continue') {
      // The session counts this exchange (a request, or a GET stream) until its response closes.
      res.once('close', d.done);
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      if (body === TOO_LARGE) return tooLarge(req, res);
      await d.transport.handleRequest(req, res, body);
      return;
    }
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (e) {
      return reject(res, 400, `bad request: ${(e as Error).message}`);
    }
    if (body === TOO_LARGE) return tooLarge(req, res);
    const opened = await endpoint.open(body, { authorization: req.headers.authorization, remoteAddress: req.socket.remoteAddress });
    if (opened.kind === 'refuse') return reject(res, opened.status, opened.message, opened.headers);
    res.once('close', opened.done);
    await opened.transport.handleRequest(req, res, body);
  };

  const httpServer = http.createServer((req, res) => {
    handle(req, res).catch((e) => {
      log(`http: ${(e as Error)?.message ?? e}`);
      if (e instanceof SyntaxError) reject(res, 400, 'bad request: the body is not JSON');
      else reject(res, 500, 'internal error');
    });
  });

  // A host's client (undici's fetch in the SDK) keeps its connection between calls and reuses it after a
  // pause; with Node's 5 s default the server could close it just as a call went out ("other side
  // closed", a failed tool call). Idle connections cost a socket each; sessions are bounded elsewhere.
  httpServer.keepAliveTimeout = KEEP_ALIVE_MS;
  httpServer.headersTimeout = KEEP_ALIVE_MS + 1_000;

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
