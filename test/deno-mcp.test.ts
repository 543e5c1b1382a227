// The MCP server under Deno (runtimes/deno/mcp.ts), as a host runs it: `deno run` with the narrowest
// permissions (read the workspace and hci's node_modules, write only `.hci/`, the host name; the
// network only for --http, on one port), driven from Node by the MCP SDK's own clients over stdio and
// Streamable HTTP: tools, search, a background reindex, path refusal, structured bad-argument answers,
// the watcher's clear "not available", and the HTTP guard (a foreign Origin is refused).
// @lane runtimes
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import * as http from 'node:http';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { copySample, freePort, median, waitFor } from './helpers/mcp-harness.ts';
import { denoFlags, REPO } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';

const ENTRY = path.join(REPO, 'runtimes/deno/mcp.ts');
const TOOLS = ['explain_result', 'intercom_message_relate', 'intercom_messages_for_code', 'outline', 'reindex', 'resolve', 'search', 'similar', 'status', 'tree', 'watch'];

interface Answer {
  structured: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  text: string;
  isError: boolean;
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Answer> {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 30_000 });
  const text = (r.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
  return { structured: r.structuredContent as Record<string, any>, text, isError: r.isError === true }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A raw POST with a chosen Origin (node:http, so the header is ours). */
function post(url: string, headers: Record<string, string>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
      let b = '';
      res.on('data', (d: Buffer) => (b += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const deno = denoBinary();
describe.skipIf(!deno)(titled('MCP server under Deno', { Deno: deno }), () => {
  const ws = copySample('hci-deno-mcp-');
  let client: Client;
  let stderr = '';

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: deno,
      args: ['run', ...denoFlags(ws.root), ENTRY, ws.root],
      env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
      cwd: REPO,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    client = new Client({ name: 'hci-deno-test', version: '1.0.0' });
    await client.connect(transport);
  }, 20_000);

  afterAll(async () => {
    await client?.close().catch(() => {});
    ws.cleanup();
  });

  it('lists the tools over stdio', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
  });

  it('reindexes in the background to done, then searches the workspace', async () => {
    const r = await call(client, 'reindex', { full: true });
    expect(r.structured.status, r.text).toBe('ok');
    const id = r.structured.task.task_id as string;
    const st = await call(client, 'status', { task_id: id, wait_ms: 15_000 });
    expect(st.structured.task, st.text).toMatchObject({ task_id: id, state: 'done', full: true });
    expect(st.structured.task.result.files_indexed).toBeGreaterThan(50);

    const s = await call(client, 'search', { query: 'CatalogService', limit: 5 });
    expect(s.structured.status, s.text).toBe('ok');
    expect(s.structured.hits.length).toBeGreaterThan(0);
    expect(s.structured.hits[0].path).toMatch(/Catalog/);
    expect(s.structured.index.files).toBeGreaterThan(50);

    // Round-trip latency of search over stdio (Node client → Deno server).
    const times: number[] = [];
    for (let i = 0; i < 25; i++) {
      const t0 = performance.now();
      const a = await call(client, 'search', { query: i % 2 ? 'ShoppingCart' : 'discount applied order', limit: 8 });
      times.push(performance.now() - t0);
      expect(a.structured.status).toBe('ok');
    }
    console.log(`deno mcp stdio search round trip: median ${median(times).toFixed(1)} ms over ${times.length} calls`);
  }, 25_000);

  it('refuses a path outside the workspace', async () => {
    const outside = path.resolve(ws.root, '..');
    const s = await call(client, 'search', { query: 'Catalog', paths: [outside] });
    expect(s.isError).toBe(true);
    expect(s.structured).toMatchObject({ status: 'error', hits: [], error: { code: 'path_outside_workspace' } });
    const o = await call(client, 'outline', { path: '../../etc/passwd' });
    expect(o.structured.error.code).toBe('path_outside_workspace');
  });

  it('answers bad arguments with a structured error', async () => {
    const r = await call(client, 'search', { query: 42, limit: 'many' });
    expect(r.isError).toBe(true);
    expect(r.structured.status).toBe('error');
    expect(r.structured.error.code).toBe('invalid_arguments');
    expect(r.structured.error.issues.length).toBeGreaterThan(0);
    expect(r.text).toMatch(/^error invalid_arguments: /);
  });

  it('says clearly that the watcher is not available under Deno', async () => {
    const w = await call(client, 'watch', { enabled: true });
    expect(w.structured).toMatchObject({ status: 'error', error: { code: 'not_available' }, watcher: { state: 'off' } });
    expect(w.structured.hint).toMatch(/reindex/);
    // Nothing but the protocol on stdout: the client would have failed on a stray line.
    expect(stderr).not.toMatch(/unhandled/);
  });

  it('describes only what it does: no watcher promised in the instructions or the tools', async () => {
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/no file watcher: call `reindex` after editing files/);
    expect(instructions).not.toMatch(/a watcher re-indexes/);
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get('watch')!.description).toMatch(/no file watcher.*not_available/);
    expect(byName.get('reindex')!.description).toMatch(/no file watcher/);
    expect(byName.get('reindex')!.description).not.toMatch(/the watcher re-indexes/);
    expect(byName.get('status')!.description).toMatch(/there is none in this server/);
  });

  it('without read access to the workspace, stops with permission_needed naming the flag, not "not found"', async () => {
    const bare = copySample('hci-deno-mcp-noread-ws-');
    try {
      const child = spawn(deno, ['run', '--no-prompt', '--allow-sys=hostname', ENTRY, bare.root], { cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((r) => child.on('close', (c) => r(c)));
      expect(code, err).not.toBe(0);
      expect(err).toMatch(/may not read the workspace/);
      expect(err).toContain(`--allow-read=${bare.root}`);
      expect(err).not.toMatch(/not found|^\s+at /m);
    } finally {
      bare.cleanup();
    }
  }, 25_000);

  it('without read access to its node_modules, answers permission_needed with the flag to add', async () => {
    const bare = copySample('hci-deno-mcp-noread-');
    const nodeModules = path.join(REPO, 'node_modules');
    const c = new Client({ name: 'hci-deno-noread', version: '1.0.0' });
    let err = '';
    const transport = new StdioClientTransport({
      command: deno,
      args: ['run', '--no-prompt', `--allow-read=${bare.root}`, `--allow-write=${path.join(bare.root, '.hci')}`, '--allow-sys=hostname', ENTRY, bare.root],
      env: { ...(process.env as Record<string, string>), NO_COLOR: '1' },
      cwd: REPO,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    try {
      await c.connect(transport);
      await c.listTools();
      const s = await call(c, 'search', { query: 'CatalogService' });
      expect(s.isError, s.text).toBe(true);
      expect(s.structured.error.code, s.text).toBe('permission_needed');
      expect(s.structured.hint ?? s.structured.error.hint, s.text).toContain(`--allow-read=${nodeModules}`);
      expect(err).not.toMatch(/^\s+at /m); // a message, not a stack trace
    } finally {
      await c.close().catch(() => {});
      bare.cleanup();
    }
  }, 25_000);

  it('serves Streamable HTTP with Deno.serve on one granted port; a foreign Origin is refused', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(deno, ['run', ...denoFlags(ws.root, [`--allow-net=127.0.0.1:${port}`]), ENTRY, ws.root, '--http', '--port', String(port)], {
      cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    try {
      const { value: url } = await waitFor(async () => /at (http:\/\/\S+\/mcp)/.exec(err)?.[1] ?? (child.exitCode !== null ? `exit:${err}` : null), 15_000, 'the Deno server URL');
      expect(url).toBe(`http://127.0.0.1:${port}/mcp`);

      const transport = new StreamableHTTPClientTransport(new URL(url));
      const c = new Client({ name: 'hci-deno-http', version: '1.0.0' });
      await c.connect(transport);
      const { tools } = await c.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
      const s = await call(c, 'search', { query: 'CatalogService', limit: 3 });
      expect(s.structured.status, s.text).toBe('ok');
      expect(s.structured.hits.length).toBeGreaterThan(0);
      await transport.terminateSession().catch(() => {});
      await c.close();

      const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
      const evil = await post(url, { origin: 'http://evil.example' }, init);
      expect(evil.status).toBe(403);
      expect(evil.body).toMatch(/Origin/);
      const rebound = await post(url, { host: `evil.example:${port}` }, init);
      expect(rebound.status).toBe(403);
      expect(err).toMatch(/refused Origin/);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  }, 25_000);
});
