// The stdio MCP server's end of session (runtimes/mcp/stdio-session.ts), under Node and Deno: a client
// that writes its requests and closes its end of the pipe at once — a slow one (a full reindex that
// waits for its task) among them — still gets an answer to every request, and the server then exits
// by itself with code 0. Driven with raw JSON-RPC lines on a real child's stdin, because the SDK
// client cannot close stdin while keeping stdout open.
// @lane mcp
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { copySample, ensureBuilt, HCI_BIN, REPO } from './helpers/mcp-harness.ts';
import { denoFlags } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';
import * as path from 'node:path';

interface Reply {
  id?: number;
  result?: { structuredContent?: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  error?: unknown;
}

const line = (o: object) => JSON.stringify(o) + '\n';
const callTool = (id: number, name: string, args: object) => line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

/** Writes every request, ends stdin, and collects the replies until the server exits by itself. */
function session(command: string, args: string[]): Promise<{ code: number | null; replies: Reply[]; stderr: string }> {
  const child = spawn(command, args, { cwd: REPO, env: { ...process.env, NO_COLOR: '1' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdin.end(
    line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'eof', version: '1' } } }) +
      line({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
      line({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) +
      callTool(3, 'reindex', { full: true, wait_ms: 30_000 }) +
      callTool(4, 'status', {}),
  );
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      const replies = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as Reply);
      resolve({ code, replies, stderr });
    });
  });
}

function expectEveryAnswer(r: { code: number | null; replies: Reply[]; stderr: string }): void {
  expect(r.replies.map((m) => m.id).sort(), r.stderr).toEqual([1, 2, 3, 4]);
  const reindex = r.replies.find((m) => m.id === 3)!;
  expect(reindex.result?.structuredContent, r.stderr).toMatchObject({ status: 'ok', task: { state: 'done', full: true } });
  expect(reindex.result!.structuredContent!.task.result.files_indexed).toBeGreaterThan(50);
  expect(r.code, r.stderr).toBe(0);
}

describe('stdio MCP server: stdin closed right after the last request', () => {
  it('under Node answers every request (a full reindex among them), then exits 0', async () => {
    ensureBuilt();
    const ws = copySample('hci-eof-node-');
    try {
      expectEveryAnswer(await session(process.execPath, [HCI_BIN, 'mcp', ws.root]));
    } finally {
      ws.cleanup();
    }
  }, 90_000);

  const deno = denoBinary();
  it.skipIf(!deno)(titled('under Deno answers every request (a full reindex among them), then exits 0', { Deno: deno }), async () => {
    const ws = copySample('hci-eof-deno-');
    try {
      expectEveryAnswer(await session(deno!, ['run', ...denoFlags(ws.root), path.join(REPO, 'runtimes/deno/mcp.ts'), ws.root]));
    } finally {
      ws.cleanup();
    }
  }, 90_000);
});
