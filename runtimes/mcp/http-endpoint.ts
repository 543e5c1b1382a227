// The Streamable HTTP endpoint's decisions, for both HTTP hosts (node:http in runtimes/node/mcp/http.ts,
// Deno.serve in runtimes/deno/mcp-http.ts): the guard (Host, Origin, bearer token), the one path, which
// session a request continues, and opening a session — a protocol server over the shared service on a
// new SDK transport. Owns that order of checks; the hosts own sockets, bodies, responses and which SDK
// transport their platform takes.
import type { HciService } from '../../core/service/index.ts';
import { createMcpServer, type McpServerOptions } from './server.ts';
import { createRequestGuard, MCP_PATH, type GuardOptions, type MachineNames, type RequestHeaders } from './http-guard.ts';
import { HttpSessions, type SessionTransport } from './http-sessions.ts';

export interface EndpointOptions extends McpServerOptions, GuardOptions {}

export interface Refused {
  kind: 'refuse';
  status: number;
  message: string;
  headers?: Record<string, string>;
}

export type Decision<T> = Refused | { kind: 'continue'; transport: T } | { kind: 'open' };

/** What a host needs to make its SDK transport for a new session. */
export type TransportFactory<T> = (onsessioninitialized: (id: string) => void) => T;

export interface HttpEndpoint<T> {
  /** Decides a request from its headers, path and method, before its body is read. */
  decide(h: RequestHeaders & { path: string; sessionId: string | null | undefined; method: string | undefined }): Promise<Decision<T>>;
  /** Opens a session for a request without one (its body must be initialize); the transport then handles the request. */
  open(body: unknown): Promise<Refused | { kind: 'opened'; transport: T }>;
  closeAll(): Promise<void>;
}

export function createHttpEndpoint<T extends SessionTransport & { onclose?: () => void }>(
  svc: HciService,
  o: EndpointOptions,
  machine: MachineNames,
  makeTransport: TransportFactory<T>,
): HttpEndpoint<T> {
  const guard = createRequestGuard(o, machine);
  const sessions = new HttpSessions<T>();
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
    async open(body) {
      const refusal = sessions.admit(body);
      if (refusal) return { kind: 'refuse', ...refusal };
      const server = createMcpServer(svc, o);
      const opener = sessions.opener(server);
      const transport = makeTransport(opener.onsessioninitialized);
      opener.attach(transport);
      server.onerror = (e) => log(`protocol: ${e.message}`);
      await server.connect(transport as unknown as Parameters<typeof server.connect>[0]);
      return { kind: 'opened', transport };
    },
    closeAll: () => sessions.closeAll(),
  };
}
