// `hci mcp --http --allow-host NAME --allow-origin ORIGIN` (documented in the README and `--help`):
// each flag lets exactly the named Host or Origin past the DNS-rebinding guard, is repeatable, and
// lets nothing else through. Real server process, raw requests (node:http, so Host and Origin are ours).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as http from 'node:http';
import { copySample, ensureBuilt, startHttpServer, type HttpServerProc } from './helpers/mcp-harness.ts';

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

function post(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
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
    req.end(JSON.stringify(INIT));
  });
}

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
      const r = await post(allowing.url, { host: `${name}:${port}` });
      expect(r.status, `${name}: ${r.body}`).toBe(200);
    }
    const other = await post(allowing.url, { host: `evil.example:${port}` });
    expect(other.status).toBe(403);
    expect(other.body).toMatch(/Host/);
    // Without the flag the same name is refused.
    const without = await post(plain.url, { host: `hci.internal:${new URL(plain.url).port}` });
    expect(without.status).toBe(403);
    expect(JSON.parse(without.body).error.message).toMatch(/Host "hci\.internal:/);
  });

  it('accepts each --allow-origin origin, and still refuses other origins', async () => {
    const port = new URL(allowing.url).port;
    for (const origin of ['https://app.example.org', 'https://docs.example.net']) {
      const r = await post(allowing.url, { host: `127.0.0.1:${port}`, origin });
      expect(r.status, `${origin}: ${r.body}`).toBe(200);
    }
    for (const origin of ['https://other.example.org', 'http://app.example.org', 'https://app.example.org.evil.example']) {
      const r = await post(allowing.url, { host: `127.0.0.1:${port}`, origin });
      expect(r.status, origin).toBe(403);
      expect(r.body).toMatch(/Origin/);
    }
    const without = await post(plain.url, { host: `127.0.0.1:${new URL(plain.url).port}`, origin: 'https://app.example.org' });
    expect(without.status).toBe(403);
    expect(without.body).toMatch(/Origin/);
  });
});
