// `hci mcp <url>`: the MCP server over a published index (hci pack) read over HTTP range requests
// from a real server on 127.0.0.1, through the SDK client after listTools: search answers what the
// local index answers and its structured content validates against the tool's output schema (the
// client checks it); freshness says read-only; reindex and watch answer not_available.
// @lane mcp
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/workspace.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { indexAndPack } from './helpers/published-index.ts';
import { copySample, ensureBuilt, startStdio, type McpConn } from './helpers/mcp-harness.ts';

describe('hci mcp <url>: a published index over MCP', () => {
  let sample: { root: string; cleanup(): void };
  let out: string;
  let server: RangeServer;
  let conn: McpConn;

  beforeAll(async () => {
    ensureBuilt();
    sample = copySample('hci-mcp-remote-');
    out = tmpDir('hci-mcp-remote-out-');
    await indexAndPack(sample.root, path.join(out, 'index.sqlite'));
    server = await startRangeServer(out);
    conn = await startStdio(server.url('index.sqlite'));
  }, 120_000);

  afterAll(async () => {
    await conn?.close();
    await server?.close();
    sample?.cleanup();
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('answers search like the local index, read-only', async () => {
    const tools = await conn.client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('search');
    const r = await conn.call('search', { query: 'CatalogService', limit: 5 });
    expect(r.isError, r.text).toBe(false);
    const ws = await openWorkspace(sample.root);
    try {
      const local = await ws.search({ query: 'CatalogService', limit: 5 });
      expect(r.structured.hits.map((h: { hit_id: string }) => h.hit_id)).toEqual(local.hits.map((h) => h.hit_id));
    } finally {
      ws.close();
    }
    expect(r.structured.index).toMatchObject({ read_only: true, files: 79 });
    expect(r.text).toContain('a published, read-only index');
    const o = await conn.call('outline', { path: 'src/Contoso.Shop.Application/Catalog/CatalogService.cs' });
    expect(o.isError, o.text).toBe(false);
    expect(o.structured.symbols.length).toBeGreaterThan(0);
  });

  it('answers reindex and watch with not_available', async () => {
    const re = await conn.call('reindex', {});
    expect(re.structured).toMatchObject({ status: 'error', error: { code: 'not_available' } });
    const w = await conn.call('watch', { enabled: true });
    expect(w.structured).toMatchObject({ status: 'error', error: { code: 'not_available' } });
  });
});
