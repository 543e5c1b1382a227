// The Streamable HTTP endpoint's decisions, for both HTTP hosts (node:http in runtimes/node/mcp/http.ts,
// Deno.serve in runtimes/deno/mcp-server.ts): the guard (Host, Origin, bearer token), the one path, which
// session a request continues, opening a session — a protocol server over the shared service on a
// new SDK transport — and the bound on a request body (413 beyond it, in a session or not). Owns that
// order of checks; the hosts own sockets, bodies, responses and which SDK transport their platform takes,
// and tell the sessions when each exchange ends (http-sessions.ts).
import type { VerbService } from '../../core/service/index.ts';
import { createMcpServer, type McpServerOptions } from './server.ts';
import { createRequestGuard, MCP_PATH, type GuardOptions, type MachineNames, type RequestHeaders } from './http-guard.ts';
import { clientKey, HttpSessions, type ExchangeDone, type SessionLimits, type SessionTransport } from './http-sessions.ts';

export interface EndpointOptions extends McpServerOptions, GuardOptions {
  /** Overrides of the session bounds (tests). */
  sessionLimits?: Partial<SessionLimits>;
}

/** The most a request body may hold (the MCP SDK's own default bound). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface Refused {
  kind: 'refuse';
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/** The answer to a body over MAX_BODY_BYTES; the connection is closed after it. */
export const BODY_TOO_LARGE: Refused = {
  kind: 'refuse', status: 413, message: `payload too large: a request body may hold at most ${MAX_BODY_BYTES} bytes`, headers: { connection: 'close' },
};

export type Decision<T> = Refused | { kind: 'continue'; transport: T; done: ExchangeDone } | { kind: 'open' };

/** What a host needs to make its SDK transport for a new session. */
export type TransportFactory<T> = (onsessioninitialized: (id: string) => void) => T;

/** A request as the endpoint judges it: headers, path, method, and the peer's address. */
export type RequestFacts = RequestHeaders & { path: string; sessionId: string | null | undefined; method: string | undefined; remoteAddress: string | null | undefined };

export interface HttpEndpoint<T> {
  /** Decides a request from its headers, path and method, before its body is read. */
  decide(h: RequestFacts): Promise<Decision<T>>;
  /**
   * Opens a session for a request without one (its body must be initialize); the transport then
   * handles the request, and the host calls `done` when that exchange has ended.
   */
  open(body: unknown, h: Pick<RequestFacts, 'authorization' | 'remoteAddress'>): Promise<Refused | { kind: 'opened'; transport: T; done: ExchangeDone }>;
  closeAll(): Promise<void>;
}

export function createHttpEndpoint<T extends SessionTransport & { onclose?: () => void }>(
  svc: VerbService,
  o: EndpointOptions,
  machine: MachineNames,
  makeTransport: TransportFactory<T>,
): HttpEndpoint<T> {
  const guard = createRequestGuard(o, machine);
  const sessions = new HttpSessions<T>({ limits: o.sessionLimits });
  const log = o.log ?? (() => {});
  return {
    async decide(h) {
      const refused = await guard(h);
      if (refused) {
        if (refused.log) log(refused.log);
        return { kind: 'refuse', status: refused.status, message: refused.message, headers: refused.headers };
      }
      if (h.path !== MCP_PATH) return { kind: 'refuse', status: 404, message: `not found: the MCP endpoint is ${MCP_PATH}` };
      const route = sessions.route(h.sessionId, h.method);
      return route.kind === 'refuse' ? { kind: 'refuse', ...route.refusal } : route;
    },
    async open(body, h) {
      const token = /^Bearer\s+(.+)$/i.exec(h.authorization ?? '')?.[1]?.trim();
      const admitted = sessions.admit(body, clientKey(h.remoteAddress, token ? await digest(token) : undefined));
      if (admitted.kind === 'refuse') return admitted;
      const server = createMcpServer(svc, o);
      const transport = makeTransport(admitted.onsessioninitialized);
      admitted.attach(transport);
      server.onerror = (e) => log(`protocol: ${e.message}`);
      try {
        await server.connect(transport as unknown as Parameters<typeof server.connect>[0]);
      } catch (e) {
        admitted.done();
        throw e;
      }
      return { kind: 'opened', transport, done: admitted.done };
    },
    closeAll: () => sessions.closeAll(),
  };
}

/** A short digest of a bearer token: clients are told apart by it without keeping the token. */
async function digest(token: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
  return Array.from(d.subarray(0, 6), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Reads a web-standard request body up to MAX_BODY_BYTES: its text, or null when it is larger (a
 * declared Content-Length over the bound is refused before reading anything).
 */
export async function readBoundedText(req: { headers: { get(name: string): string | null }; body: ReadableStream<Uint8Array> | null }): Promise<string | null> {
  if (Number(req.headers.get('content-length')) > MAX_BODY_BYTES) return null;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const decoder = new TextDecoder();
  let n = 0;
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      n += value.byteLength;
      if (n > MAX_BODY_BYTES) {
        void reader.cancel().catch(() => {});
        return null;
      }
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
  return text + decoder.decode();
}
