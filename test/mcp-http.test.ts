// The MCP server over Streamable HTTP as a real child process (`hci mcp --http`), driven by the SDK's
// own Streamable HTTP client: the basics (tools, search, reindex with progress, path refusal, bad
// arguments), two clients at once, DNS-rebinding protection (Host and Origin; --allow-host and --allow-origin), the bearer token, and
// the refusal to listen beyond loopback without one.
// @lane mcp
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as http from 'node:http';
import { spawn } from 'node:child_process';
import { copySample, connectHttp, ensureBuilt, HCI_BIN, REPO, startHttpServer, waitFor, type HttpServerProc, type McpConn } from './helpers/mcp-harness.ts';

/** A raw POST (node:http, so Host and Origin can be set freely). */
function rawPost(url: string, headers: Record<string, string>, body: unknown = { jsonrpc: '2.0', id: 1, method: 'tools/list' }): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let data = '';
        res.on('data', (d) => (data += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

const TOKEN = 's3cret-token-for-tests';
const AUTH = { authorization: `Bearer ${TOKEN}` };

describe('hci mcp --http (with HCI_MCP_TOKEN set)', () => {
  let ws: { root: string; cleanup(): void };
  let srv: HttpServerProc;
  let mcp: McpConn;

  beforeAll(async () => {
    ensureBuilt();
    ws = copySample();
    srv = await startHttpServer(ws.root, ['--watch', 'off'], { HCI_MCP_TOKEN: TOKEN });
    mcp = await connectHttp(srv.url, { Authorization: `Bearer ${TOKEN}` });
  });
  afterAll(async () => {
    await mcp?.close();
    await srv?.stop();
    ws?.cleanup();
  });

  it('listens on loopback and serves the tools', async () => {
    expect(srv.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['explain_result', 'intercom_message_relate', 'intercom_messages_for_code', 'outline', 'reindex', 'resolve', 'search', 'similar', 'status', 'tree', 'watch']);
    for (const t of tools) expect(t.outputSchema?.type).toBe('object');
  });

  it('searches, reindexes with progress, refuses outside paths, explains bad arguments', async () => {
    const { value: r } = await waitFor(async () => {
      const a = await mcp.call('search', { query: 'MaxItemsPerOrder', exts: 'json' });
      return a.structured.status === 'ok' ? a : null;
    }, 20_000, 'search hits over HTTP');
    expect(r.structured.hits[0].path).toBe('src/Contoso.Shop.Web/appsettings.json');
    expect(r.structured.index.files).toBe(79);

    const t0 = Date.now();
    const re = await mcp.call('reindex', { full: true });
    expect(Date.now() - t0).toBeLessThan(20_000); // a hang, not a slow answer: the latency is a bench figure (bench/latency.ts)
    const progress: number[] = [];
    const st = await mcp.call('status', { task_id: re.structured.task.task_id, wait_ms: 30_000 }, { onprogress: (p) => progress.push(p.progress) });
    expect(st.structured.task.state).toBe('done');
    expect(progress.length).toBeGreaterThan(0);

    const out = await mcp.call('outline', { path: '../../etc/passwd' });
    expect(out.structured.error.code).toBe('path_outside_workspace');
    const bad = await mcp.call('search', { query: 'x', limit: 1000 });
    expect(bad.structured).toMatchObject({ status: 'error', error: { code: 'invalid_arguments' } });
  });

  it('serves two clients at once, each with its own session', async () => {
    const other = await connectHttp(srv.url, { Authorization: `Bearer ${TOKEN}` });
    try {
      const [a, b] = await Promise.all([mcp.call('search', { query: 'catalog' }), other.call('search', { query: 'basket' })]);
      expect(a.structured.status).toBe('ok');
      expect(b.structured.status).toBe('ok');
    } finally {
      await other.close();
    }
  });

  it('refuses a foreign Host or Origin (DNS rebinding), accepts loopback ones', async () => {
    const port = new URL(srv.url).port;
    const evilHost = await rawPost(srv.url, { host: `evil.example:${port}` }, INIT);
    expect(evilHost.status).toBe(403);
    expect(evilHost.body).toMatch(/Host/);
    const evilOrigin = await rawPost(srv.url, { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, INIT);
    expect(evilOrigin.status).toBe(403);
    expect(evilOrigin.body).toMatch(/Origin/);
    const nullOrigin = await rawPost(srv.url, { host: `localhost:${port}`, origin: 'null' }, INIT);
    expect(nullOrigin.status).toBe(403);
    const okOrigin = await rawPost(srv.url, { host: `localhost:${port}`, origin: `http://localhost:${port}`, ...AUTH }, INIT);
    expect(okOrigin.status).toBe(200);
    const noSession = await rawPost(srv.url, { host: `127.0.0.1:${port}`, ...AUTH });
    expect(noSession.status).toBe(400);
    const unknown = await rawPost(srv.url, { host: `127.0.0.1:${port}`, 'mcp-session-id': 'no-such-session', ...AUTH });
    expect(unknown.status).toBe(404);
    const elsewhere = await rawPost(srv.url.replace('/mcp', '/other'), { host: `127.0.0.1:${port}`, ...AUTH }, INIT);
    expect(elsewhere.status).toBe(404);
  });

  it('requires the bearer token on every request', async () => {
    expect(srv.stderr()).toMatch(/bearer token required/);
    const port = new URL(srv.url).port;
    const none = await rawPost(srv.url, { host: `127.0.0.1:${port}` }, INIT);
    expect(none.status).toBe(401);
    expect(none.body).toMatch(/Authorization: Bearer/);
    expect((await rawPost(srv.url, { host: `127.0.0.1:${port}`, authorization: 'Bearer wrong' }, INIT)).status).toBe(401);
    expect((await rawPost(srv.url, { host: `127.0.0.1:${port}`, authorization: TOKEN }, INIT)).status).toBe(401);
    await expect(connectHttp(srv.url)).rejects.toThrow();
  });
});

describe('hci mcp --http: bind address', () => {
  it('refuses to listen beyond loopback without a token (exit 2, before binding)', async () => {
    const env = { ...process.env };
    delete env.HCI_MCP_TOKEN;
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [HCI_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });
    const [any, lan, badRoot] = await Promise.all([
      run(['mcp', REPO, '--http', '--host', '0.0.0.0', '--port', '0']),
      run(['mcp', REPO, '--http', '--host', '192.0.2.10', '--port', '0']),
      run(['mcp', '/no/such/folder/anywhere']),
    ]);
    for (const r of [any, lan]) {
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/refusing to listen on .* without a bearer token/);
      expect(r.stderr).toMatch(/HCI_MCP_TOKEN/);
      expect(r.stdout).toBe('');
    }
    expect(badRoot.code).toBe(2);
    expect(badRoot.stderr).toMatch(/workspace folder not found/);
  });
});

// --allow-host / --allow-origin (documented in the README and `--help`): each flag lets exactly the
// named Host or Origin past the DNS-rebinding guard, is repeatable, and lets nothing else through.
describe('hci mcp --http --allow-host / --allow-origin', () => {
  let ws: { root: string; cleanup(): void };
  let plain: HttpServerProc;
  let allowing: HttpServerProc;

  beforeAll(async () => {
    ensureBuilt();
    ws = copySample('hci-mcp-allow-');
    [plain, allowing] = await Promise.all([
      startHttpServer(ws.root, ['--watch', 'off']),
      startHttpServer(ws.root, ['--watch', 'off', '--allow-host', 'hci.internal', '--allow-host', 'dev-box.lan', '--allow-origin', 'https://app.example.org', '--allow-origin', 'https://docs.example.net']),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([plain?.stop(), allowing?.stop()]);
    ws?.cleanup();
  });

  it('accepts each --allow-host name as Host, and still refuses every other name', async () => {
    const port = new URL(allowing.url).port;
    for (const name of ['hci.internal', 'dev-box.lan', 'HCI.Internal']) {
      const r = await rawPost(allowing.url, { host: `${name}:${port}` }, INIT);
      expect(r.status, `${name}: ${r.body}`).toBe(200);
    }
    const other = await rawPost(allowing.url, { host: `evil.example:${port}` }, INIT);
    expect(other.status).toBe(403);
    expect(other.body).toMatch(/Host/);
    // Without the flag the same name is refused.
    const without = await rawPost(plain.url, { host: `hci.internal:${new URL(plain.url).port}` }, INIT);
    expect(without.status).toBe(403);
    expect(JSON.parse(without.body).error.message).toMatch(/Host "hci\.internal:/);
  });

  it('accepts each --allow-origin origin, and still refuses other origins', async () => {
    const port = new URL(allowing.url).port;
    for (const origin of ['https://app.example.org', 'https://docs.example.net']) {
      const r = await rawPost(allowing.url, { host: `127.0.0.1:${port}`, origin }, INIT);
      expect(r.status, `${origin}: ${r.body}`).toBe(200);
    }
    for (const origin of ['https://other.example.org', 'http://app.example.org', 'https://app.example.org.evil.example']) {
      const r = await rawPost(allowing.url, { host: `127.0.0.1:${port}`, origin }, INIT);
      expect(r.status, origin).toBe(403);
      expect(r.body).toMatch(/Origin/);
    }
    const without = await rawPost(plain.url, { host: `127.0.0.1:${new URL(plain.url).port}`, origin: 'https://app.example.org' }, INIT);
    expect(without.status).toBe(403);
    expect(without.body).toMatch(/Origin/);
  });
});
