// The MCP server over Streamable HTTP (one endpoint, `/mcp`; one protocol session per client, all
// sharing one service). Owns the network guard: it binds to loopback by default, checks Host and
// Origin on every request against DNS rebinding, and requires a bearer token whenever it listens
// beyond loopback (and checks it whenever one is configured).
import * as http from 'node:http';
import * as os from 'node:os';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { HciError } from '../../../core/platform.ts';
import type { HciMcpService } from './service.ts';
import { createMcpServer, type McpServerOptions } from './server.ts';

export const TOKEN_ENV = 'HCI_MCP_TOKEN';
export const MCP_PATH = '/mcp';
const MAX_BODY = 4 * 1024 * 1024;
const MAX_SESSIONS = 64;
const SESSION_IDLE_MS = 30 * 60_000;

export interface HttpOptions extends McpServerOptions {
  host: string;
  port: number;
  /** Bearer token; required when `host` is not loopback. */
  token?: string;
  /** More Host names to accept (a reverse proxy's name, a LAN name). */
  allowedHosts?: string[];
  /** More Origins to accept (exact, e.g. http://my-ide.local:3000). */
  allowedOrigins?: string[];
}

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(?:\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** Refuses unsafe configurations before anything listens. */
export function checkHttpOptions(o: Pick<HttpOptions, 'host' | 'port' | 'token'>): void {
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) {
    throw new HciError('invalid_arguments', `--port must be an integer from 0 to 65535 (got ${o.port})`, '0 picks a free port');
  }
  if (!isLoopback(o.host) && !o.token) {
    throw new HciError(
      'token_required',
      `refusing to listen on ${o.host} (beyond loopback) without a bearer token`,
      `set ${TOKEN_ENV} to a long random secret (clients send "Authorization: Bearer <token>"), or bind 127.0.0.1`,
    );
  }
}

function hostNameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  const i = h.lastIndexOf(':');
  return i >= 0 ? h.slice(0, i) : h;
}

function allowedHostNames(o: HttpOptions): Set<string> {
  const names = new Set(['localhost', '127.0.0.1', '[::1]']);
  const bind = o.host.toLowerCase();
  names.add(bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind);
  if (!isLoopback(o.host)) {
    names.add(os.hostname().toLowerCase());
    if (bind === '0.0.0.0' || bind === '::' || bind === '[::]') {
      for (const list of Object.values(os.networkInterfaces())) {
        for (const a of list ?? []) names.add(a.family === 'IPv6' ? `[${a.address.toLowerCase()}]` : a.address);
      }
    }
  }
  for (const h of o.allowedHosts ?? []) names.add(h.toLowerCase());
  return names;
}

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function reject(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
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

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastSeen: number;
}

export async function serveHttp(svc: HciMcpService, o: HttpOptions): Promise<HttpHandle> {
  checkHttpOptions(o);
  const hosts = allowedHostNames(o);
  const origins = new Set((o.allowedOrigins ?? []).map((x) => x.toLowerCase().replace(/\/$/, '')));
  const tokenDigest = o.token ? digest(o.token) : null;
  const sessions = new Map<string, Session>();
  const log = o.log ?? (() => {});

  const originAllowed = (origin: string): boolean => {
    if (origins.has(origin.toLowerCase())) return true;
    try {
      const u = new URL(origin);
      const name = u.hostname.includes(':') && !u.hostname.startsWith('[') ? `[${u.hostname}]` : u.hostname;
      return (u.protocol === 'http:' || u.protocol === 'https:') && hosts.has(name.toLowerCase());
    } catch {
      return false;
    }
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://x');
    // DNS rebinding: a page on evil.example that resolves to 127.0.0.1 still sends its own Host.
    const hostHeader = req.headers.host;
    if (!hostHeader || !hosts.has(hostNameOf(hostHeader))) {
      log(`http: refused Host ${JSON.stringify(hostHeader ?? '')}`);
      return reject(res, 403, `forbidden: Host "${hostHeader ?? ''}" is not allowed (DNS rebinding protection)`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin)) {
      log(`http: refused Origin ${JSON.stringify(origin)}`);
      return reject(res, 403, `forbidden: Origin "${origin}" is not allowed`);
    }
    if (tokenDigest) {
      const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
      if (!m || !timingSafeEqual(digest(m[1].trim()), tokenDigest)) {
        return reject(res, 401, 'unauthorized: send "Authorization: Bearer <token>"', { 'www-authenticate': 'Bearer realm="hci"' });
      }
    }
    if (url.pathname !== MCP_PATH) return reject(res, 404, `not found: the MCP endpoint is ${MCP_PATH}`);

    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    if (sessionId) {
      const s = sessions.get(sessionId);
      if (!s) return reject(res, 404, 'session not found (the server restarted or the session expired): initialize again');
      s.lastSeen = Date.now();
      const body = req.method === 'POST' ? await readBody(req) : undefined;
      await s.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST') return reject(res, 400, 'bad request: no mcp-session-id; start with an initialize POST');
    let body: unknown;
    try {
      body = await readBody(req);
    } catch (e) {
      return reject(res, 400, `bad request: ${(e as Error).message}`);
    }
    if (!isInitializeRequest(body)) return reject(res, 400, 'bad request: no mcp-session-id; the first request must be initialize');
    if (sessions.size >= MAX_SESSIONS) return reject(res, 503, `too many sessions (${MAX_SESSIONS}); close one (DELETE ${MCP_PATH}) and retry`);
    const server = createMcpServer(svc, o);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, lastSeen: Date.now() });
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
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

  const sweep = setInterval(() => {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, s] of sessions) {
      if (s.lastSeen < cutoff) {
        sessions.delete(id);
        void s.transport.close().catch(() => {});
      }
    }
  }, 60_000);
  sweep.unref();

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
      clearInterval(sweep);
      for (const s of sessions.values()) await s.transport.close().catch(() => {});
      sessions.clear();
      httpServer.closeAllConnections?.();
      await new Promise<void>((r) => httpServer.close(() => r()));
    },
  };
}
