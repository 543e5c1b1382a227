// The MCP HTTP servers' session limits and body bound as an attacker or an unlucky client meets them,
// under Node (`hci mcp --http`, node:http) and Deno (runtimes/deno/mcp.ts, Deno.serve) — both go
// through runtimes/mcp/http-sessions.ts: 500 unauthenticated initialize requests on loopback must not
// lock a real client out (the SDK's own Streamable HTTP client connects, lists the tools and searches
// afterwards); a session the client DELETEs is gone; an oversize body inside an existing session
// gets 413 (not 500) and the session keeps working.
// @lane mcp
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { copySample, ensureBuilt, freePort, startHttpServer, waitFor, type HttpServerProc } from './helpers/mcp-harness.ts';
import { denoFlags, REPO } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } } };
const FLOOD = 500;
const MAX_BODY = 4 * 1024 * 1024;

interface Reply {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

/** One raw request on its own connection (no keep-alive: every flood request is a new client socket). */
function request(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method, agent: false,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    }, (res) => {
      let data = '';
      res.on('data', (d: Buffer) => (data += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** `n` initialize POSTs, `concurrency` at a time; returns how many got each status. */
async function flood(url: string, n: number, concurrency = 25): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const r = await request(url, 'POST', {}, JSON.stringify(INIT));
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

/** A real client: the SDK's Streamable HTTP client, as hosts connect. */
async function realClient(url: string, name = 'after-the-flood'): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** Sessions opened by a local process that behave like connected clients: initialize, the initialized notification, a GET stream kept open, a tool call. */
const FLOOD_REAL = 24;
async function realLookingSessions(url: string, n: number, streams: http.ClientRequest[], name: string): Promise<{ sessions: string[]; refused: number }> {
  const sessions: string[] = [];
  let refused = 0;
  const init = JSON.stringify({ ...INIT, params: { ...INIT.params, clientInfo: { name, version: '1' } } });
  const v = { 'mcp-protocol-version': '2025-06-18' };
  for (let i = 0; i < n; i++) {
    const r = await request(url, 'POST', {}, init);
    if (r.status !== 200) {
      refused++;
      continue;
    }
    const sid = r.headers['mcp-session-id'] as string;
    sessions.push(sid);
    expect((await request(url, 'POST', { 'mcp-session-id': sid, ...v }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
    await new Promise<void>((resolve, reject) => {
      const req = http.request(url, { method: 'GET', agent: false, headers: { accept: 'text/event-stream', 'mcp-session-id': sid, ...v } }, (res) => {
        expect(res.statusCode).toBe(200);
        resolve();
      });
      req.on('error', (e) => (req.destroyed ? undefined : reject(e)));
      req.end();
      streams.push(req);
    });
    const list = await request(url, 'POST', { 'mcp-session-id': sid, ...v }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(list.status).toBe(200);
  }
  return { sessions, refused };
}

/** The checks every runtime must pass, given a running server's URL. */
function limitsSuite(server: () => string) {
  it(`a flood of ${FLOOD} initialize requests does not lock a real client out`, async () => {
    const url = server();
    const statuses = await flood(url, FLOOD);
    expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(FLOOD);
    const { client, transport } = await realClient(url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('search');
      const r = await client.callTool({ name: 'search', arguments: { query: 'CatalogService', limit: 2 } }, undefined, { timeout: 30_000 });
      expect((r.structuredContent as { status: string }).status).toMatch(/^(ok|indexing)$/);
      // A second flood while this client is connected does not take its session away.
      await flood(url, 200);
      const again = await client.listTools();
      expect(again.tools.length).toBe(tools.length);
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  }, 120_000);

  it('a flood of sessions that look real (initialized, a stream open, a tool call) never evicts an active client', async () => {
    const url = server();
    const victim = await realClient(url);
    const streams: http.ClientRequest[] = [];
    let opened: { sessions: string[]; refused: number } = { sessions: [], refused: 0 };
    try {
      await victim.client.listTools();
      opened = await realLookingSessions(url, FLOOD_REAL, streams, 'look-alike');
      // The flood's own sessions beyond its budget are refused, not the victim's taken.
      expect(opened.refused, `${opened.sessions.length} opened`).toBeGreaterThan(0);
      expect(opened.sessions.length).toBeGreaterThanOrEqual(8);
      const { tools } = await victim.client.listTools();
      expect(tools.map((t) => t.name)).toContain('search');
      const r = await victim.client.callTool({ name: 'search', arguments: { query: 'CatalogService', limit: 1 } }, undefined, { timeout: 30_000 });
      expect((r.structuredContent as { status: string }).status).toMatch(/^(ok|indexing)$/);
      // A second client (another name) still gets in beside the flood.
      const other = await realClient(url, 'second-host');
      try {
        expect((await other.client.listTools()).tools.length).toBe(tools.length);
      } finally {
        await other.transport.terminateSession().catch(() => {});
        await other.client.close();
      }
    } finally {
      for (const s of streams) s.destroy();
      for (const sid of opened.sessions) await request(url, 'DELETE', { 'mcp-session-id': sid }).catch(() => {});
      await victim.transport.terminateSession().catch(() => {});
      await victim.client.close();
    }
  }, 120_000);

  it('frees a session the client DELETEs', async () => {
    const url = server();
    const init = await request(url, 'POST', {}, JSON.stringify(INIT));
    expect(init.status).toBe(200);
    const sid = init.headers['mcp-session-id'] as string;
    expect(sid).toBeTruthy();
    const del = await request(url, 'DELETE', { 'mcp-session-id': sid });
    expect(del.status).toBe(200);
    const after = await request(url, 'POST', { 'mcp-session-id': sid }, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    expect(after.status).toBe(404);
  });

  it('answers an oversize body inside a session with 413, and the session keeps working', async () => {
    const url = server();
    const { client, transport } = await realClient(url);
    try {
      const sid = transport.sessionId!;
      const big = Buffer.alloc(MAX_BODY + 1024, 0x20);
      big.write(JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }));
      const r = await request(url, 'POST', { 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, big);
      expect(r.status, r.body).toBe(413);
      expect(JSON.parse(r.body).error.message).toMatch(/too large/i);
      // Without a declared length (chunked), the bound still holds.
      const chunked = await new Promise<Reply>((resolve, reject) => {
        const req = http.request(url, {
          method: 'POST', agent: false,
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'transfer-encoding': 'chunked' },
        }, (res) => {
          let data = '';
          res.on('data', (d: Buffer) => (data += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
        });
        req.on('error', reject);
        for (let i = 0; i < 5; i++) req.write(Buffer.alloc(1024 * 1024, 0x20));
        req.end();
      });
      expect(chunked.status, chunked.body).toBe(413);
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      // An oversize first request (no session yet) gets the same answer.
      const first = Buffer.alloc(MAX_BODY + 1024, 0x20);
      first.write(JSON.stringify(INIT));
      const r0 = await request(url, 'POST', {}, first);
      expect(r0.status, r0.body).toBe(413);
    } finally {
      await transport.terminateSession().catch(() => {});
      await client.close();
    }
  }, 60_000);
}

describe('hci mcp --http (Node): session flood and body bound', () => {
  let ws: { root: string; cleanup(): void };
  let srv: HttpServerProc;
  beforeAll(async () => {
    ensureBuilt();
    ws = copySample('hci-mcp-limits-');
    srv = await startHttpServer(ws.root, ['--watch', 'off']);
  }, 30_000);
  afterAll(async () => {
    expect(await srv?.stop()).toBe(0);
    ws?.cleanup();
  });
  limitsSuite(() => srv.url);

  it('keeps an idle client connection past the 5 s node:http default, so a host pausing between calls does not send one into a closing socket', async () => {
    // node:http's default keepAliveTimeout (5 s) closed the SDK client's connection while a tool call went
    // out after a pause ("other side closed"). One pooled connection, a 7 s pause, a second request on it.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = (headers: Record<string, string>, body: string) =>
      new Promise<{ status: number; reused: boolean; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
        const req = http.request(srv.url, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, headers: res.headers }));
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const first = await post({}, JSON.stringify(INIT));
      expect(first.status).toBe(200);
      const sid = first.headers['mcp-session-id'] as string;
      await new Promise((r) => setTimeout(r, 7_000));
      const second = await post({ 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      expect(second.status).toBe(202);
      expect(second.reused, 'the idle connection was still open and carried the second request').toBe(true);
    } finally {
      agent.destroy();
    }
  }, 30_000);
});

const deno = denoBinary();
describe.skipIf(!deno)(titled('MCP server under Deno: session flood and body bound', { Deno: deno }), () => {
  const ws = copySample('hci-deno-limits-');
  let child: ChildProcess;
  let url = '';
  let err = '';
  let exited: Promise<number | null>;
  beforeAll(async () => {
    const port = await freePort();
    child = spawn(deno, ['run', ...denoFlags(ws.root, [`--allow-net=127.0.0.1:${port}`]), path.join(REPO, 'runtimes/deno/mcp.ts'), ws.root, '--http', '--port', String(port)], {
      cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    exited = new Promise((r) => child.on('close', (code) => r(code)));
    ({ value: url } = await waitFor(async () => /at (http:\/\/\S+\/mcp)/.exec(err)?.[1] ?? (child.exitCode !== null ? `exit:${err}` : null), 20_000, 'the Deno server URL'));
    expect(url).toMatch(/^http:/);
  }, 30_000);
  afterAll(async () => {
    if (child?.exitCode === null) child.kill('SIGTERM');
    expect(await exited).toBe(0);
    ws.cleanup();
  });
  limitsSuite(() => url);
});
