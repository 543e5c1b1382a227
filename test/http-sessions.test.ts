// MCP HTTP session bookkeeping shared by the Node and Deno servers: unknown sessions, requests that
// may not open one, the session limit, routing to an open session, closing and forgetting.
import { describe, it, expect } from 'vitest';
import { HttpSessions, type SessionTransport } from '../runtimes/mcp/http-sessions.ts';

class FakeTransport implements SessionTransport {
  sessionId?: string;
  onclose?: () => void;
  closed = false;
  async close(): Promise<void> {
    this.closed = true;
    this.onclose?.();
  }
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

function open(sessions: HttpSessions<FakeTransport>, id: string): FakeTransport {
  const t = new FakeTransport();
  const opener = sessions.opener({});
  opener.attach(t);
  t.sessionId = id;
  opener.onsessioninitialized(id);
  return t;
}

describe('HTTP sessions', () => {
  it('routes, refuses and forgets sessions', async () => {
    const sessions = new HttpSessions<FakeTransport>();
    try {
      expect(sessions.route('nope', 'POST')).toMatchObject({ kind: 'refuse', refusal: { status: 404 } });
      expect(sessions.route(undefined, 'GET')).toMatchObject({ kind: 'refuse', refusal: { status: 400 } });
      expect(sessions.route(undefined, 'POST')).toEqual({ kind: 'open' });
      expect(sessions.admit({ jsonrpc: '2.0', id: 1, method: 'tools/list' })?.status).toBe(400);
      expect(sessions.admit(initialize)).toBeNull();

      const a = open(sessions, 'a');
      expect(sessions.route('a', 'POST')).toEqual({ kind: 'continue', transport: a });
      await a.close();
      expect(sessions.route('a', 'POST')).toMatchObject({ kind: 'refuse', refusal: { status: 404 } });

      const many = Array.from({ length: 64 }, (_, i) => open(sessions, `s${i}`));
      expect(sessions.admit(initialize)).toMatchObject({ status: 503, message: expect.stringMatching(/too many sessions/) });
      await sessions.closeAll();
      expect(many.every((t) => t.closed)).toBe(true);
      expect(sessions.admit(initialize)).toBeNull();
    } finally {
      await sessions.closeAll();
    }
  });
});
