// Two clients on one index at once, through the foundation's lock protocol: the MCP server indexing
// while `hci search` child processes search, and `hci index` running while the MCP server searches
// (and is told, as a structured answer, that another process is indexing).
// @lane mcp
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { ensureBuilt, generateWorkspace, HCI_BIN, REPO, startStdio, waitFor, type McpConn } from './helpers/mcp-harness.ts';

const FILES = 1000;

interface Run { code: number | null; stdout: string; stderr: string; endedAt: number }

function cli(args: string[]): { done: Promise<Run> } {
  const child = spawn(process.execPath, [HCI_BIN, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return { done: new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr, endedAt: Date.now() }))) };
}

describe('MCP server and CLI on one index', () => {
  let ws: { root: string; cleanup(): void };
  let mcp: McpConn;

  beforeAll(async () => {
    ensureBuilt();
    // Big enough that a full rebuild clearly outlasts a CLI search's process start (~0.4 s): they must overlap.
    ws = generateWorkspace(FILES, 'hci-mcp-conc-');
    mcp = await startStdio(ws.root, ['--watch', 'off']);
    const first = await mcp.call('reindex', { wait_ms: 50_000 });
    expect(first.structured.task.state).toBe('done');
  });
  afterAll(async () => {
    await mcp?.close();
    ws?.cleanup();
  });

  it('the CLI searches while the MCP server rebuilds the index', async () => {
    const r = await mcp.call('reindex', { full: true });
    const id = r.structured.task.task_id;
    expect(r.structured.task.state).toBe('running');
    const searches = [0, 1].map(() => cli(['search', 'order', 'total', '--json', '--root', ws.root]).done);
    // The MCP server answers searches during its own run, too.
    const own = await mcp.call('search', { query: 'customer batch' });
    expect(['ok', 'indexing']).toContain(own.structured.status);
    expect(own.structured.hits.length).toBeGreaterThan(0);
    const results = await Promise.all(searches);
    const final = await mcp.call('status', { task_id: id, wait_ms: 50_000 });
    expect(final.structured.task.state).toBe('done');
    const finishedAt = Date.parse(final.structured.task.finished_at);
    for (const res of results) {
      expect(res.code, res.stderr).toBe(0);
      const j = JSON.parse(res.stdout);
      expect(['ok', 'indexing']).toContain(j.status);
      expect(j.hits.length).toBeGreaterThan(0);
      expect(j.error).toBeUndefined();
    }
    // They really overlapped: at least one CLI search ended while the rebuild was still running.
    expect(Math.min(...results.map((x) => x.endedAt))).toBeLessThan(finishedAt);
  });

  it('the MCP server searches while the CLI indexes, and reports the busy indexer as an answer', async () => {
    const indexing = cli(['index', ws.root, '--full', '--json']).done;
    const lock = path.join(ws.root, '.hci', 'indexer.lock');
    await waitFor(async () => existsSync(lock), 10_000, 'the CLI indexer to start', 10);

    const busy = await mcp.call('reindex', { wait_ms: 10_000 });
    expect(busy.isError).toBe(true);
    expect(busy.structured).toMatchObject({ status: 'error', error: { code: 'index_busy' }, task: { state: 'failed' } });
    expect(busy.structured.hint).toBeTruthy();
    expect(busy.text).toMatch(/^error index_busy: /);

    const s = await mcp.call('search', { query: 'invoice total' });
    expect(['ok', 'indexing']).toContain(s.structured.status);
    expect(s.structured.hits.length).toBeGreaterThan(0);
    const st = await mcp.call('status', {});
    expect(['ok', 'indexing']).toContain(st.structured.status);

    const done = await indexing;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout).files_indexed).toBe(FILES);
    const after = await mcp.call('search', { query: 'invoice total' });
    expect(after.structured.status).toBe('ok');
    expect(after.structured.index.indexer_running).toBe(false);
  });
});
