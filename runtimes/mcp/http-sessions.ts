// Streamable HTTP sessions of the MCP server (through http-endpoint.ts, for the node:http and
// Deno.serve hosts): which request continues a session, which may open one, the session limit and idle expiry.
// Owns only that bookkeeping (no node:* or Deno APIs); the hosts own sockets, bodies and responses,
// and create the SDK transport of their platform.
import { isInitializeRequest } from './sdk/server.ts';
import { MCP_PATH } from './http-guard.ts';

const MAX_SESSIONS = 64;
const SESSION_IDLE_MS = 30 * 60_000;

/** What the sessions need of an SDK transport (Node's or the web-standard one). */
export interface SessionTransport {
  readonly sessionId?: string;
  onclose?: () => void;
  close(): Promise<void>;
}

export interface Refusal {
  status: number;
  message: string;
}

export type Route<T> = { kind: 'continue'; transport: T } | { kind: 'open' } | { kind: 'refuse'; refusal: Refusal };

export class HttpSessions<T extends SessionTransport> {
  private readonly sessions = new Map<string, { transport: T; server: unknown; lastSeen: number }>();
  private readonly sweep: ReturnType<typeof setInterval>;

  constructor() {
    this.sweep = setInterval(() => this.expireIdle(), 60_000);
    (this.sweep as { unref?: () => void }).unref?.();
  }

  /** Decides a request by its session header and method, before its body is read. */
  route(sessionId: string | null | undefined, method: string | undefined): Route<T> {
    if (sessionId) {
      const s = this.sessions.get(sessionId);
      if (!s) return refuse(404, 'session not found (the server restarted or the session expired): initialize again');
      s.lastSeen = Date.now();
      return { kind: 'continue', transport: s.transport };
    }
    if (method !== 'POST') return refuse(400, 'bad request: no mcp-session-id; start with an initialize POST');
    return { kind: 'open' };
  }

  /** Whether a request without a session may open one (null: yes). */
  admit(body: unknown): Refusal | null {
    if (!isInitializeRequest(body)) return { status: 400, message: 'bad request: no mcp-session-id; the first request must be initialize' };
    if (this.sessions.size >= MAX_SESSIONS) return { status: 503, message: `too many sessions (${MAX_SESSIONS}); close one (DELETE ${MCP_PATH}) and retry` };
    return null;
  }

  /**
   * Wires a new transport in: pass the returned callback as the transport's `onsessioninitialized`,
   * then call `attach` once the transport exists (the SDK assigns the id during the first request).
   */
  opener(server: unknown): { onsessioninitialized: (id: string) => void; attach: (transport: T) => void } {
    let transport: T | null = null;
    return {
      onsessioninitialized: (id) => {
        if (transport) this.sessions.set(id, { transport, server, lastSeen: Date.now() });
      },
      attach: (t) => {
        transport = t;
        t.onclose = () => {
          if (t.sessionId) this.sessions.delete(t.sessionId);
        };
      },
    };
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweep);
    for (const s of this.sessions.values()) await s.transport.close().catch(() => {});
    this.sessions.clear();
  }

  private expireIdle(): void {
    const cutoff = Date.now() - SESSION_IDLE_MS;
    for (const [id, s] of this.sessions) {
      if (s.lastSeen < cutoff) {
        this.sessions.delete(id);
        void s.transport.close().catch(() => {});
      }
    }
  }
}

function refuse<T>(status: number, message: string): Route<T> {
  return { kind: 'refuse', refusal: { status, message } };
}
