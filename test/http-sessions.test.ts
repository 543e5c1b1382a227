// MCP HTTP session bookkeeping shared by the Node and Deno servers (runtimes/mcp/http-sessions.ts):
// unknown sessions, requests that may not open one, routing to an open session, forgetting a closed
// (DELETEd) one, the bounds in total and per client with the least useful idle session evicted to
// make room, never one in use (a stream open, or a request in the last minutes) — a refusal instead —
// and idle expiry (never while a stream is open).
// @lane unit
import { describe, it, expect } from 'vitest';
import { clientKey, HttpSessions, SESSION_LIMITS, type Opening, type SessionTransport } from '../runtimes/mcp/http-sessions.ts';

class FakeTransport implements SessionTransport {
  sessionId?: string;
  onclose?: () => void;
  closed = false;
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

/** Opens a session as a host does: admit, attach the transport, the SDK names it, the initialize exchange ends. */
function open(sessions: HttpSessions<FakeTransport>, id: string, client = '127.0.0.1'): FakeTransport {
  const o = sessions.admit(initialize, client);
  if (o.kind !== 'opening') throw new Error(`refused: ${o.message}`);
  const t = new FakeTransport();
  (o as Opening<FakeTransport>).attach(t);
  t.sessionId = id;
  o.onsessioninitialized(id);
  o.done();
  return t;
}

/** A request in a session (confirming it); returns the exchange's done. */
function use(sessions: HttpSessions<FakeTransport>, id: string): () => void {
  const r = sessions.route(id, 'POST');
  if (r.kind !== 'continue') throw new Error(`session ${id} not found`);
  return r.done;
}

const clock = () => {
  let t = 1_000_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
};

describe('HTTP sessions', () => {
  it('routes, refuses and forgets sessions (a DELETE closes the transport, which forgets it)', async () => {
    const sessions = new HttpSessions<FakeTransport>();
    try {
      expect(sessions.route('nope', 'POST')).toMatchObject({ kind: 'refuse', refusal: { status: 404 } });
      expect(sessions.route(undefined, 'GET')).toMatchObject({ kind: 'refuse', refusal: { status: 400 } });
      expect(sessions.route(undefined, 'POST')).toEqual({ kind: 'open' });
      expect(sessions.admit({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'a')).toMatchObject({ kind: 'refuse', status: 400 });

      const a = open(sessions, 'a');
      expect(sessions.route('a', 'POST')).toMatchObject({ kind: 'continue', transport: a });
      await a.close();
      expect(sessions.route('a', 'POST')).toMatchObject({ kind: 'refuse', refusal: { status: 404 } });
      expect(sessions.size).toBe(0);
    } finally {
      await sessions.closeAll();
    }
  });

  it('drops a session whose initialize never got an id', async () => {
    const sessions = new HttpSessions<FakeTransport>();
    const o = sessions.admit(initialize, 'c') as Opening<FakeTransport>;
    const t = new FakeTransport();
    o.attach(t);
    expect(sessions.size).toBe(1);
    o.done();
    expect(sessions.size).toBe(0);
    expect(t.closed).toBe(true);
    await sessions.closeAll();
  });

  it('a flood from one client evicts its own never-used sessions, never a confirmed one in use', async () => {
    const sessions = new HttpSessions<FakeTransport>();
    try {
      const real = open(sessions, 'real');
      const stream = use(sessions, 'real'); // the client's GET stream stays open
      const flood = Array.from({ length: 500 }, (_, i) => open(sessions, `f${i}`));
      expect(sessions.size).toBe(SESSION_LIMITS.perClient);
      expect(real.closed).toBe(false);
      expect(sessions.route('real', 'POST').kind).toBe('continue');
      expect(flood.filter((t) => !t.closed).length).toBe(SESSION_LIMITS.perClient - 1);
      // The newest flood sessions survive; the oldest went first.
      expect(flood.at(-1)!.closed).toBe(false);
      expect(flood[0].closed).toBe(true);
      stream();
    } finally {
      await sessions.closeAll();
    }
  });

  it('per client: only a session idle past activeMs goes, the oldest first; none in use, then a refusal', async () => {
    const c = clock();
    const sessions = new HttpSessions<FakeTransport>({ limits: { perClient: 3 }, now: c.now });
    try {
      const a = open(sessions, 'a');
      use(sessions, 'a')();
      c.advance(10);
      const b = open(sessions, 'b');
      const bStream = use(sessions, 'b');
      c.advance(10);
      const cc = open(sessions, 'c');
      use(sessions, 'c')();
      c.advance(10);
      // All three were used in the last minutes (or stream now): the client's fourth is refused.
      expect(sessions.admit(initialize, '127.0.0.1')).toMatchObject({ kind: 'refuse', status: 503, message: expect.stringMatching(/this client has 3 sessions in use/) });
      expect([a.closed, b.closed, cc.closed]).toEqual([false, false, false]);
      c.advance(SESSION_LIMITS.activeMs);
      open(sessions, 'd');
      expect([a.closed, b.closed, cc.closed]).toEqual([true, false, false]);
      bStream();
    } finally {
      await sessions.closeAll();
    }
  });

  it('a flood of sessions that look real (used, a stream open) never evicts an active client: the flood is refused', async () => {
    const c = clock();
    const sessions = new HttpSessions<FakeTransport>({ now: c.now });
    const realLooking = (name: string) => ({ ...initialize, params: { ...initialize.params, clientInfo: { name, version: '1' } } });
    try {
      const victim = open(sessions, 'victim');
      use(sessions, 'victim')(); // a request now, then quiet for a while: no stream open
      c.advance(SESSION_LIMITS.activeMs - 1_000);
      const streams: Array<() => void> = [];
      let refused = 0;
      for (let i = 0; i < 40; i++) {
        const o = sessions.admit(realLooking('t'), '127.0.0.1');
        if (o.kind === 'refuse') {
          refused++;
          continue;
        }
        const t = new FakeTransport();
        o.attach(t);
        o.onsessioninitialized(`f${i}`);
        o.done();
        streams.push(use(sessions, `f${i}`));
      }
      expect(victim.closed).toBe(false);
      expect(refused).toBe(40 - (SESSION_LIMITS.perClient - 1));
      // Another client (another name, same address) still gets in.
      expect(sessions.admit(realLooking('editor'), '127.0.0.1').kind).toBe('opening');
      streams.forEach((s) => s());
    } finally {
      await sessions.closeAll();
    }
  });

  it('in total: makes room from the least useful idle session of any client; refuses only when all are in use', async () => {
    const c = clock();
    const sessions = new HttpSessions<FakeTransport>({ limits: { total: 4, perClient: 4 }, now: c.now });
    try {
      const streams = ['a', 'b', 'c'].map((id, i) => {
        open(sessions, id, `10.0.0.${i + 1}`);
        return use(sessions, id);
      });
      const idle = open(sessions, 'd', '10.0.0.4');
      const e = open(sessions, 'e', '10.0.0.5');
      expect(idle.closed).toBe(true);
      const busy = use(sessions, 'e');
      const refused = sessions.admit(initialize, '10.0.0.6');
      expect(refused).toMatchObject({ kind: 'refuse', status: 503, message: expect.stringMatching(/too many sessions in use/) });
      busy();
      // Used a moment ago: still in use.
      expect(sessions.admit(initialize, '10.0.0.6').kind).toBe('refuse');
      c.advance(SESSION_LIMITS.activeMs);
      expect(sessions.admit(initialize, '10.0.0.6').kind).toBe('opening');
      expect(e.closed).toBe(true);
      streams.forEach((s) => s());
    } finally {
      await sessions.closeAll();
    }
  });

  it('expires idle sessions: never-used ones after 30 s, used ones after 10 min, none with a stream open', async () => {
    const c = clock();
    const sessions = new HttpSessions<FakeTransport>({ now: c.now });
    try {
      const probe = open(sessions, 'probe');
      const used = open(sessions, 'used');
      use(sessions, 'used')();
      const streaming = open(sessions, 'streaming');
      const stream = use(sessions, 'streaming');
      c.advance(SESSION_LIMITS.unconfirmedIdleMs + 1);
      sessions.expireIdle();
      expect([probe.closed, used.closed, streaming.closed]).toEqual([true, false, false]);
      c.advance(SESSION_LIMITS.idleMs);
      sessions.expireIdle();
      expect([used.closed, streaming.closed]).toEqual([true, false]);
      stream(); // the client went away: its stream closed
      c.advance(SESSION_LIMITS.idleMs + 1);
      sessions.expireIdle();
      expect(streaming.closed).toBe(true);
      expect(sessions.size).toBe(0);
    } finally {
      await sessions.closeAll();
    }
  });

  it('closeAll closes every transport', async () => {
    const sessions = new HttpSessions<FakeTransport>();
    const many = Array.from({ length: 10 }, (_, i) => open(sessions, `s${i}`, `10.1.0.${i}`));
    await sessions.closeAll();
    expect(many.every((t) => t.closed)).toBe(true);
    expect(sessions.size).toBe(0);
  });

  it('tells clients apart by address and token digest', () => {
    expect(clientKey('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(clientKey('::1')).toBe('::1');
    expect(clientKey('10.0.0.1', 'abc')).not.toBe(clientKey('10.0.0.1'));
  });
});
