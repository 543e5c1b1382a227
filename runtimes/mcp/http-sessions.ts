// Streamable HTTP sessions of the MCP server (through http-endpoint.ts, for the node:http and
// Deno.serve hosts): which request continues a session, which may open one, and how many live at once —
// a bound in total and per client, room made by evicting the least useful session that is not in
// use, idle expiry, and forgetting a session its client DELETEd or whose transport closed. Owns only
// that bookkeeping (no node:* or Deno APIs); the hosts own sockets, bodies and responses, tell when an
// exchange ends, and create the SDK transport of their platform.
import { isInitializeRequest } from './sdk/server.ts';
import { MCP_PATH } from './http-guard.ts';

/**
 * The bounds. A session costs a protocol server and a transport (a few hundred KB), so 64 is cheap. A
 * client is its address, its token's digest where it sent one, and the name it gives in `initialize`
 * (local processes all share 127.0.0.1: an agent host, an editor and a script are three clients).
 * A session in use — an exchange or a stream open now (the SDK client keeps a GET stream open while
 * it is connected), or a request in the last `activeMs` — is never evicted: a client over its 16
 * (an agent host opens one per conversation) gives up its own oldest idle one, or is refused; over
 * the total, the least useful idle session of any client goes, or the new one is refused. A session
 * that never sent a request after `initialize` (what a flood leaves behind) expires after 30 s idle
 * and is the first evicted; one in use expires after 10 min without a request and without an open
 * stream (so a connected client never expires; one that went away without DELETE does).
 */
export const SESSION_LIMITS = { total: 64, perClient: 16, idleMs: 10 * 60_000, unconfirmedIdleMs: 30_000, activeMs: 5 * 60_000, sweepMs: 10_000 } as const;

export type SessionLimits = { [K in keyof typeof SESSION_LIMITS]: number };

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

/** Call when the HTTP exchange (its response, or its stream) has ended; calling it again does nothing. */
export type ExchangeDone = () => void;

export type Route<T> = { kind: 'continue'; transport: T; done: ExchangeDone } | { kind: 'open' } | { kind: 'refuse'; refusal: Refusal };

/** A session being opened: wire the transport in (see HttpSessions.admit). */
export interface Opening<T> {
  kind: 'opening';
  /** Pass as the transport's `onsessioninitialized` (the SDK assigns the id during the first request). */
  onsessioninitialized: (id: string) => void;
  /** Call once the transport exists, before it handles the initialize request. */
  attach(transport: T): void;
  /** The initialize exchange has ended (a session that got no id by then is dropped). */
  done: ExchangeDone;
}

interface Entry<T> {
  id: string | null;
  client: string;
  transport: T | null;
  lastSeen: number;
  /** A request came after initialize: a real client, not a probe or a flood. */
  confirmed: boolean;
  /** HTTP exchanges (requests, SSE streams) in flight. */
  open: number;
  gone: boolean;
}

export class HttpSessions<T extends SessionTransport> {
  private readonly entries = new Set<Entry<T>>();
  private readonly byId = new Map<string, Entry<T>>();
  private readonly sweep: ReturnType<typeof setInterval>;
  private readonly limits: SessionLimits;
  private readonly now: () => number;

  constructor(opts: { limits?: Partial<SessionLimits>; now?: () => number } = {}) {
    this.limits = { ...SESSION_LIMITS, ...opts.limits };
    this.now = opts.now ?? Date.now;
    this.sweep = setInterval(() => this.expireIdle(), this.limits.sweepMs);
    (this.sweep as { unref?: () => void }).unref?.();
  }

  /** Sessions held now (opened or being opened). */
  get size(): number {
    return this.entries.size;
  }

  /** Decides a request by its session header and method, before its body is read. */
  route(sessionId: string | null | undefined, method: string | undefined): Route<T> {
    if (sessionId) {
      const e = this.byId.get(sessionId);
      if (!e || !e.transport) return refuse(404, 'session not found (the server restarted, or the session expired or was closed): initialize again');
      e.confirmed = true;
      return { kind: 'continue', transport: e.transport, done: this.enter(e) };
    }
    if (method !== 'POST') return refuse(400, 'bad request: no mcp-session-id; start with an initialize POST');
    return { kind: 'open' };
  }

  /**
   * Whether a request without a session may open one, for `address` (the remote address, and the
   * token's digest where one was sent: clientKey) and the client name the initialize request gives.
   * Makes room first: over the client's bound its own least useful idle session goes; over the
   * total, the least useful idle one of any client. A session in use is never evicted: when none is
   * idle the new one is refused.
   */
  admit(body: unknown, address: string): ({ kind: 'refuse' } & Refusal) | Opening<T> {
    if (!isInitializeRequest(body)) return { kind: 'refuse', status: 400, message: 'bad request: no mcp-session-id; the first request must be initialize' };
    const client = `${address} ${clientName(body)}`;
    const idle = (list: Iterable<Entry<T>>) => leastUseful([...list].filter((e) => !this.inUse(e)));
    const mine = [...this.entries].filter((e) => e.client === client);
    if (mine.length >= this.limits.perClient) {
      const own = idle(mine);
      if (!own) return { kind: 'refuse', status: 503, message: `this client has ${mine.length} sessions in use; close one (DELETE ${MCP_PATH}) and retry` };
      this.evict(own);
    }
    if (this.entries.size >= this.limits.total) {
      const any = idle(this.entries);
      if (!any) return { kind: 'refuse', status: 503, message: `too many sessions in use (${this.limits.total}); close one (DELETE ${MCP_PATH}) and retry` };
      this.evict(any);
    }
    const e: Entry<T> = { id: null, client, transport: null, lastSeen: this.now(), confirmed: false, open: 0, gone: false };
    this.entries.add(e);
    const done = this.enter(e);
    return {
      kind: 'opening',
      onsessioninitialized: (id) => {
        if (e.gone) return;
        e.id = id;
        this.byId.set(id, e);
      },
      attach: (t) => {
        e.transport = t;
        const prev = t.onclose;
        t.onclose = () => {
          prev?.();
          this.forget(e);
        };
      },
      done: () => {
        done();
        if (e.id === null) this.evict(e); // initialize failed: no session to keep
      },
    };
  }

  /** Closes sessions idle past their expiry (run every `sweepMs`; tests call it directly). */
  expireIdle(): void {
    const t = this.now();
    for (const e of [...this.entries]) {
      if (e.open > 0) continue;
      const limit = e.confirmed ? this.limits.idleMs : this.limits.unconfirmedIdleMs;
      if (t - e.lastSeen > limit) this.evict(e);
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweep);
    const all = [...this.entries];
    for (const e of all) this.forget(e);
    for (const e of all) await e.transport?.close().catch(() => {});
  }

  /** An exchange or a stream open, or (once confirmed) a request in the last activeMs: never evicted. */
  private inUse(e: Entry<T>): boolean {
    return e.open > 0 || (e.confirmed && this.now() - e.lastSeen < this.limits.activeMs);
  }

  /** Counts an exchange in flight on `e` until the returned callback runs. */
  private enter(e: Entry<T>): ExchangeDone {
    e.open++;
    e.lastSeen = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      e.open--;
      e.lastSeen = this.now();
    };
  }

  private forget(e: Entry<T>): void {
    if (e.gone) return;
    e.gone = true;
    this.entries.delete(e);
    if (e.id !== null && this.byId.get(e.id) === e) this.byId.delete(e.id);
  }

  private evict(e: Entry<T>): void {
    this.forget(e);
    void e.transport?.close().catch(() => {});
  }
}

/**
 * Of sessions not in use, the one to give up first: never used after initialize (a probe, a flood, a
 * client that gave up) before confirmed, then the longest unseen.
 */
function leastUseful<T>(list: Entry<T>[]): Entry<T> | undefined {
  const rank = (e: Entry<T>) => (e.confirmed ? 1 : 0);
  return list.reduce<Entry<T> | undefined>((best, e) => (!best || rank(e) < rank(best) || (rank(e) === rank(best) && e.lastSeen < best.lastSeen) ? e : best), undefined);
}

/** The name an initialize request gives its client (clientInfo.name, which the SDK's isInitializeRequest requires), cut to 64 characters. */
function clientName(body: { params: { clientInfo: { name: string } } }): string {
  return body.params.clientInfo.name.slice(0, 64);
}

/** The address part of a client's key: the remote address (IPv4-mapped IPv6 as IPv4) and, where sent, a digest of the token. */
export function clientKey(address: string | null | undefined, tokenDigest?: string): string {
  const a = (address ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').toLowerCase();
  return tokenDigest ? `${a} ${tokenDigest}` : a;
}

function refuse<T>(status: number, message: string): Route<T> {
  return { kind: 'refuse', refusal: { status, message } };
}
