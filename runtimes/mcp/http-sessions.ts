// Streamable HTTP sessions of the MCP server (through http-endpoint.ts, for the node:http and
// Deno.serve hosts): which request continues a session, which may open one, and how many live at once —
// a bound in total and per client, room made by evicting the least useful idle session, idle expiry,
// and forgetting a session its client DELETEd or whose transport closed. Owns only that bookkeeping
// (no node:* or Deno APIs); the hosts own sockets, bodies and responses, tell when an exchange ends,
// and create the SDK transport of their platform.
import { isInitializeRequest } from './sdk/server.ts';
import { MCP_PATH } from './http-guard.ts';

/**
 * The bounds. A session costs a protocol server and a transport (a few hundred KB), so 64 is cheap; a
 * client that opens more than 16 (an agent host opens one per conversation) evicts its own oldest. A
 * session that never sent a request after `initialize` (what a flood leaves behind) expires after
 * 30 s idle and is the first evicted; one in use expires after 10 min without a request and without an
 * open stream (the SDK client keeps a GET stream open while it is connected, so a connected client
 * never expires; one that went away without DELETE does).
 */
export const SESSION_LIMITS = { total: 64, perClient: 16, idleMs: 10 * 60_000, unconfirmedIdleMs: 30_000, sweepMs: 10_000 } as const;

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
   * Whether a request without a session may open one, for `client` (its remote address, and its
   * token where it sent one). Makes room first: over the client's bound its own least useful session
   * goes; over the total, the least useful idle one. Refuses only when every session is busy.
   */
  admit(body: unknown, client: string): ({ kind: 'refuse' } & Refusal) | Opening<T> {
    if (!isInitializeRequest(body)) return { kind: 'refuse', status: 400, message: 'bad request: no mcp-session-id; the first request must be initialize' };
    const mine = [...this.entries].filter((e) => e.client === client);
    if (mine.length >= this.limits.perClient) this.evict(leastUseful(mine)!);
    if (this.entries.size >= this.limits.total) {
      const idle = leastUseful([...this.entries].filter((e) => e.open === 0));
      if (!idle) return { kind: 'refuse', status: 503, message: `too many sessions in use (${this.limits.total}); close one (DELETE ${MCP_PATH}) and retry` };
      this.evict(idle);
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
 * The session to give up first: never used after initialize (a probe, a flood, a client that gave up)
 * before confirmed, idle before busy within each, then the longest unseen. A flood's sessions still
 * in their initialize exchange go before a real client's idle one.
 */
function leastUseful<T>(list: Entry<T>[]): Entry<T> | undefined {
  const rank = (e: Entry<T>) => (e.confirmed ? 2 : 0) + (e.open > 0 ? 1 : 0);
  return list.reduce<Entry<T> | undefined>((best, e) => (!best || rank(e) < rank(best) || (rank(e) === rank(best) && e.lastSeen < best.lastSeen) ? e : best), undefined);
}

/** The key a per-client bound counts by: the remote address (IPv4-mapped IPv6 as IPv4) and, where sent, a digest of the token. */
export function clientKey(address: string | null | undefined, tokenDigest?: string): string {
  const a = (address ?? 'unknown').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').toLowerCase();
  return tokenDigest ? `${a} ${tokenDigest}` : a;
}

function refuse<T>(status: number, message: string): Route<T> {
  return { kind: 'refuse', refusal: { status, message } };
}
