// Test helper for the MCP tests: starts the real server (`node bin/hci.js mcp …`, the built dist/) as
// a child process and talks to it with the MCP SDK's own client over stdio or Streamable HTTP; copies
// the sample workspace; generates larger workspaces; polls for a condition with a deadline.
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { copyWorkspace, tmpDir } from './tmp-workspace.ts';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const HCI_BIN = path.join(REPO, 'bin', 'hci.js');
export const SAMPLE = path.join(REPO, 'test', 'sample-workspace');

export function ensureBuilt(): void {
  if (!existsSync(path.join(REPO, 'dist', 'runtimes', 'mcp', 'server.js'))) {
    throw new Error('dist/ is missing or stale: run `npm run build` (npm test does it) before these tests');
  }
}

/** A fresh copy of the bundled sample workspace, without any index it may carry. */
export function copySample(prefix = 'hci-mcp-'): { root: string; cleanup(): void } {
  const root = copyWorkspace(SAMPLE, prefix);
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const NOUNS = ['Order', 'Invoice', 'Customer', 'Shipment', 'Payment', 'Basket', 'Refund', 'Parcel', 'Voucher', 'Ledger'];

/** A workspace of `n` C# files (~60 lines each) that all mention orders: broad queries match many. */
export function generateWorkspace(n: number, prefix = 'hci-mcp-gen-'): { root: string; cleanup(): void } {
  const root = tmpDir(prefix);
  for (let i = 0; i < n; i++) {
    const noun = NOUNS[i % NOUNS.length];
    const dir = path.join(root, 'src', `Module${i % 20}`);
    if (i < 20) mkdirSync(dir, { recursive: true });
    const body = Array.from({ length: 12 }, (_, k) =>
      `    public decimal Calculate${noun}Total${k}(int orderId, decimal amount)\n    {\n        // order ${noun.toLowerCase()} total for customer batch ${i}-${k}\n        return amount * ${k + 1}m;\n    }`,
    ).join('\n');
    writeFileSync(path.join(dir, `${noun}Service${i}.cs`), `namespace Shop.Module${i % 20};\n\npublic class ${noun}Service${i}\n{\n${body}\n}\n`);
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface ToolAnswer {
  structured: Record<string, any>;
  text: string;
  isError: boolean;
}

export interface McpConn {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  call(name: string, args?: Record<string, unknown>, opts?: { onprogress?: (p: { progress: number; total?: number; message?: string }) => void; timeout?: number }): Promise<ToolAnswer>;
  close(): Promise<void>;
}

function wrap(client: Client, stderr: () => string, close: () => Promise<void>): McpConn {
  return {
    client,
    stderr,
    async call(name, args = {}, opts = {}) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: opts.timeout ?? 60_000, ...(opts.onprogress ? { onprogress: opts.onprogress } : {}) });
      const text = (r.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      return { structured: r.structuredContent as Record<string, any>, text, isError: r.isError === true };
    },
    close,
  };
}

/** Starts `hci mcp <root> [args]` over stdio and connects the SDK client. */
export async function startStdio(root: string, args: string[] = [], env: Record<string, string> = {}): Promise<McpConn & { pid: number }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [HCI_BIN, 'mcp', root, ...args],
    env: { ...(process.env as Record<string, string>), ...env },
    cwd: REPO,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'hci-test', version: '1.0.0' });
  await client.connect(transport);
  return Object.assign(wrap(client, () => err, () => client.close()), { pid: transport.pid ?? -1 });
}

export interface HttpServerProc {
  child: ChildProcess;
  url: string;
  stderr(): string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/** Starts `hci mcp <root> --http --port 0 [args]` and waits for the URL it prints on stderr. */
export async function startHttpServer(root: string, args: string[] = [], env: Record<string, string> = {}): Promise<HttpServerProc> {
  const child = spawn(process.execPath, [HCI_BIN, 'mcp', root, '--http', '--port', '0', ...args], {
    cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL on stderr within 15 s: ${err}`)), 15_000);
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const m = /at (http:\/\/\S+\/mcp)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before listening: ${err}${out}`));
    });
  });
  return {
    child, url, exited, stderr: () => err,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Connects the SDK's Streamable HTTP client to a running server. */
export async function connectHttp(url: string, headers: Record<string, string> = {}): Promise<McpConn> {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  const client = new Client({ name: 'hci-test-http', version: '1.0.0' });
  await client.connect(transport);
  return wrap(client, () => '', async () => {
    await transport.terminateSession().catch(() => {});
    await client.close();
  });
}

/** Polls fn until it returns a truthy value or the deadline passes (then throws with the last value). */
export async function waitFor<T>(fn: () => Promise<T | false | null | undefined>, timeoutMs: number, what: string, everyMs = 25): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  let last: unknown;
  for (;;) {
    const v = await fn();
    if (v) return { value: v as T, ms: Date.now() - t0 };
    last = v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A TCP port free on 127.0.0.1 right now (for servers that must be told their port, like Deno's). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface OutlineNode {
  kind: string;
  member_key?: string;
  start_line: number;
  end_line: number;
  children?: OutlineNode[];
}

/** The first method with a member key in an outline answer's symbols, depth first. */
export function firstMethod<T extends OutlineNode>(symbols: T[]): (T & { member_key: string }) | undefined {
  for (const s of symbols) {
    if (s.member_key && s.kind === 'method') return s as T & { member_key: string };
    const inner = firstMethod((s.children ?? []) as T[]);
    if (inner) return inner;
  }
  return undefined;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
