// The latencies unit tests used to assert and now only bound generously (so a loaded machine fails
// no test): chunking a 6,000-line C# file and a 500 KiB JSON file, the secret rules over a 500 KiB
// C# file, scanning a 5,000-file tree, the
// watcher's debounce cap, the MCP server's answers over stdio and HTTP (search round trip, a
// reindex's task id, the first search of an unindexed workspace, an edit becoming visible through
// the watcher), and how long readers wait while another process indexes. Part of `npm run bench`
// (the `latency` engine); each figure is a median (and p95) of repeated samples on its own fixture.
// Owns these fixtures and timings; the behaviour they relate to is asserted in test/.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Chunker } from '../core/chunk/chunker.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { extractCSharp } from '../core/chunk/lang/csharp.ts';
import { extractorFor } from '../core/chunk/registry.ts';
import { FreshnessTracker } from '../core/freshness.ts';
import { scanWorkspace } from '../core/scan/walker.ts';
import { findSecretLines } from '../core/scan/secrets.ts';
import { defaultSettings } from '../core/settings.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { generateCorpus } from './corpus-gen.ts';
import { copyTree, fmtMs, latencyStats, markdownTable, now, repoRoot, sampleWorkspaceDir, type LatencyStats } from './lib/util.ts';
import { commitInfo, type CommitInfo } from './lib/record.ts';

export interface LatencyFigure {
  name: string;
  /** What the unit test still checks about it (with a hang-only deadline). */
  test: string;
  stats: LatencyStats;
  unit: 'ms wall' | 'ms CPU';
  note?: string;
}

export interface LatencyReport {
  commit: CommitInfo;
  node: string;
  loadAvg: number[];
  started: string;
  figures: LatencyFigure[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(fn: () => Promise<T | null | false | undefined>, timeoutMs: number, what: string, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`latency bench: ${what} did not happen within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

function bigCSharp(lines: number): string[] {
  const parts: string[] = [];
  for (let t = 0; parts.length < lines; t++) {
    parts.push(`/// <summary>Generated type ${t}.</summary>`, `public sealed partial class Service${t} : IService`, '{', `    private readonly int _seed = ${t}, _copy;`, '');
    for (let m = 0; m < 6; m++) {
      parts.push(`    [HttpGet("items/{id}/${m}")]`, `    public async Task<int> Handle${m}Async(int id, string? filter, CancellationToken ct = default)`, '    {', `        var total = id + ${m};`, '        await Task.Yield();', '        return total;', '    }', '');
    }
    parts.push('}', '');
  }
  return parts.slice(0, lines);
}

async function chunkingFigures(): Promise<LatencyFigure[]> {
  const ts = new TreeSitterHost(createNodeGrammarSource());
  new Chunker(ts); // the grammar source is shared; loading it is not what is timed
  const lines = bigCSharp(6000);
  const input = { path: 'Big.cs', lang: 'csharp', lines, text: lines.join('\n') };
  await extractCSharp(input, ts);
  const cs: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = now();
    await extractCSharp(input, ts);
    cs.push(now() - t);
  }
  const products = Array.from({ length: 4200 }, (_, i) => ({ id: i, sku: `SKU-${i}`, name: `Product ${i}`, price: i * 1.5, tags: ['a', 'b'], stock: { onHand: i % 50, reserved: i % 7 } }));
  const text = JSON.stringify({ meta: { version: 3 }, products }, null, 1);
  const json = { path: 'tools/big-seed.json', lang: 'json', lines: text.split('\n'), text };
  const cpu: number[] = [];
  for (let i = 0; i < 6; i++) {
    const c = process.cpuUsage();
    await (await extractorFor('json'))!(json, ts);
    const u = process.cpuUsage(c);
    if (i > 0) cpu.push((u.user + u.system) / 1000);
  }
  return [
    { name: 'extract the outline of a 6,000-line C# file', test: 'chunk-csharp: the outline and chunks are well formed', stats: latencyStats(cs), unit: 'ms wall', note: 'after one warm-up; was asserted < 1 s' },
    { name: `extract a ${Math.round(text.length / 1024)} KiB JSON data file`, test: 'chunk-docs-config: bounded outline (≤ 2,000 nodes), well formed', stats: latencyStats(cpu), unit: 'ms CPU', note: 'after one warm-up; was asserted < 400 ms CPU' },
  ];
}

/** The secret rules over a 500 KiB C# file with one token at its end (test/secrets.test.ts asserted < 50 ms). */
function secretsFigure(): LatencyFigure {
  const block = [
    'public sealed class AccountService(IUserStore store, IPasswordHasher hasher)',
    '{',
    '    public async Task<bool> CheckPasswordAsync(User user, string password)',
    '        => hasher.Verify(user.PasswordHash, password);',
    '    // the secret sauce: https://example.com/docs/task-runner',
    '}',
  ].join('\n') + '\n';
  const input = block.repeat(Math.ceil((500 * 1024) / block.length)) + 'x = "' + 'gh' + 'p_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8' + '"\n';
  findSecretLines(input); // warms the JIT up
  const cpu: number[] = [];
  for (let i = 0; i < 7; i++) {
    const c = process.cpuUsage();
    const found = findSecretLines(input);
    const u = process.cpuUsage(c);
    if (found.length !== 1) throw new Error(`latency bench: the secret scan found ${found.length} secrets, not 1`);
    cpu.push((u.user + u.system) / 1000);
  }
  return { name: 'the secret rules over a 500 KiB C# file', test: 'secrets: finds the one token at the end of a 500 KiB file', stats: latencyStats(cpu), unit: 'ms CPU', note: 'after one warm-up; was asserted < 50 ms' };
}

async function scanFigure(tmp: string): Promise<LatencyFigure> {
  const root = path.join(tmp, 'scan');
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, '.gitignore'), '*.skip.cs\n');
  for (let p = 0; p < 25; p++) {
    for (let d = 0; d < 10; d++) {
      const dir = path.join(root, 'src', `P${p}`, `D${d}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < 20; f++) fs.writeFileSync(path.join(dir, `F${f}${f % 10 === 9 ? '.skip' : ''}.cs`), 'class X {}');
    }
  }
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = now();
    await scanWorkspace(createNodeWorkspaceFs(root), defaultSettings());
    samples.push(now() - t);
  }
  return { name: 'scan a 5,000-file tree (ignore rules, denied folders)', test: 'scan: counts and samples of what was skipped', stats: latencyStats(samples), unit: 'ms wall', note: 'was asserted < 5 s' };
}

async function trackerFigure(): Promise<LatencyFigure> {
  const samples: number[] = [];
  for (let i = 0; i < 5; i++) {
    let runs = 0;
    const tracker = new FreshnessTracker({ debounceMs: 50, maxWaitMs: 150, run: async () => (runs++, { ok: true }) });
    const t0 = now();
    while (runs === 0 && now() - t0 < 5000) {
      tracker.notify({ path: `src/S${now()}.cs`, kind: 'change' });
      await sleep(10);
    }
    samples.push(now() - t0);
    tracker.stop();
  }
  return { name: 'watcher debounce under a steady stream of changes (debounce 50 ms, maxWait 150 ms): time to the first run', test: 'watcher: exactly one run, not starved', stats: latencyStats(samples), unit: 'ms wall', note: 'was asserted < 600 ms' };
}

interface Mcp {
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

async function connect(transport: StdioClientTransport | StreamableHTTPClientTransport): Promise<Mcp> {
  const client = new Client({ name: 'hci-latency-bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  return {
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
      return r.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    },
    close: () => client.close(),
  };
}

const HCI_BIN = () => path.join(repoRoot(), 'bin', 'hci.js');

function stdio(root: string, args: string[], env: Record<string, string> = {}): StdioClientTransport {
  return new StdioClientTransport({ command: process.execPath, args: [HCI_BIN(), 'mcp', root, ...args], env: { ...(process.env as Record<string, string>), ...env }, stderr: 'ignore' });
}

const timed = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
  const t = now();
  const v = await fn();
  return [now() - t, v];
};

/** How long a full `reindex` takes to answer (with its task id; the run goes on in the background), 3 times. */
async function reindexAnswers(mcp: Mcp): Promise<LatencyStats> {
  const re: number[] = [];
  for (let i = 0; i < 3; i++) {
    const [ms, r] = await timed(() => mcp.call('reindex', { full: true }));
    re.push(ms);
    await mcp.call('status', { task_id: r.task.task_id, wait_ms: 60_000 });
  }
  return latencyStats(re);
}

async function mcpFigures(tmp: string): Promise<LatencyFigure[]> {
  const out: LatencyFigure[] = [];
  const queries = ['GetCatalogItemsAsync', 'basket total', 'ProductDetails', 'MaxItemsPerOrder', 'order confirmation email', 'CatalogService', 'discount rules', 'appsettings', 'checkout page', 'Avalonia view model'];
  // stdio, watcher on: search round trips, a reindex's task id, edits becoming visible.
  const ws = path.join(tmp, 'mcp-sample');
  copyTree(sampleWorkspaceDir(), ws);
  const mcp = await connect(stdio(ws, []));
  try {
    await until(async () => (await mcp.call('search', { query: 'catalog' })).status === 'ok', 60_000, 'the first index');
    await until(async () => {
      const w = (await mcp.call('status', {})).watcher;
      return w.state === 'on' && w.pending === 0;
    }, 30_000, 'the watcher to be idle');
    const rt: number[] = [];
    for (let r = 0; r < 3; r++) for (const q of queries) rt.push((await timed(() => mcp.call('search', { query: `${q}${r ? ` v${r}` : ''}` })))[0]);
    out.push({ name: 'MCP stdio: search round trip (sample workspace, SDK client)', test: 'mcp-stdio: contract hits, compact text', stats: latencyStats(rt), unit: 'ms wall' });
    const visible: number[] = [];
    const file = path.join(ws, 'src', 'Contoso.Shop.Application', 'Catalog', 'CatalogService.cs');
    for (let i = 0; i < 5; i++) {
      const marker = `EditedMarkerLatency${String.fromCharCode(65 + i)}q`;
      fs.appendFileSync(file, `\n// ${marker}\n`);
      const t = now();
      await until(async () => ((await mcp.call('search', { query: marker })).hits ?? []).length > 0, 20_000, `edit ${marker} visible`, 25);
      visible.push(now() - t);
    }
    out.push({ name: 'MCP stdio + watcher: an edit visible in search', test: 'watcher: edit, new file, rename and deletion each become visible (hang-only deadline)', stats: latencyStats(visible), unit: 'ms wall', note: 'debounce 300 ms included; was asserted within 2 s' });
    out.push({ name: 'MCP stdio: reindex answers with a task id (background run)', test: 'mcp-stdio: a task id at once, progress, done', stats: await reindexAnswers(mcp), unit: 'ms wall', note: 'was asserted < 2 s' });
  } finally {
    await mcp.close();
  }
  // stdio, no index yet: the first search answers `indexing` at once.
  const first: number[] = [];
  for (let i = 0; i < 3; i++) {
    const gen = path.join(tmp, `mcp-gen-${i}`);
    generateCorpus(gen, { files: 200, seed: 11 + i });
    const m = await connect(stdio(gen, ['--watch', 'off'], { HCI_MCP_FIRST_INDEX_WAIT_MS: '0' }));
    try {
      const [ms, r] = await timed(() => m.call('search', { query: 'order total' }));
      first.push(ms);
      if (r.task) await m.call('status', { task_id: r.task.task_id, wait_ms: 60_000 });
    } finally {
      await m.close();
    }
  }
  out.push({ name: 'MCP stdio: first search of an unindexed 200-file workspace (answers `indexing`)', test: 'mcp-stdio: status indexing with the task; a second search joins it', stats: latencyStats(first), unit: 'ms wall', note: 'was asserted < 3 s' });
  // HTTP: search round trip and a reindex's task id.
  const token = 'latency-bench-token';
  const child = spawn(process.execPath, [HCI_BIN(), 'mcp', ws, '--http', '--port', '0', '--watch', 'off'], { env: { ...process.env, HCI_MCP_TOKEN: token }, stdio: ['ignore', 'ignore', 'pipe'] });
  try {
    let err = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`hci mcp --http printed no URL: ${err}`)), 30_000);
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /at (http:\/\/\S+\/mcp)/.exec(err);
        if (m) (clearTimeout(timer), resolve(m[1]));
      });
    });
    const http = await connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    try {
      await until(async () => (await http.call('search', { query: 'catalog' })).status === 'ok', 60_000, 'HTTP search');
      const rt: number[] = [];
      for (const q of queries) rt.push((await timed(() => http.call('search', { query: q })))[0]);
      out.push({ name: 'MCP HTTP: search round trip (Streamable HTTP, SDK client)', test: 'mcp-http: search, reindex, guards', stats: latencyStats(rt), unit: 'ms wall' });
      out.push({ name: 'MCP HTTP: reindex answers with a task id', test: 'mcp-http: the run completes with progress', stats: await reindexAnswers(http), unit: 'ms wall', note: 'was asserted < 2 s' });
    } finally {
      await http.close();
    }
  } finally {
    child.kill('SIGTERM');
  }
  return out;
}

/** Readers (search, in this process) while another process (`hci index --full`) rebuilds the index. */
async function readerWaitFigure(tmp: string): Promise<LatencyFigure> {
  const root = path.join(tmp, 'readers');
  generateCorpus(root, { files: 600, seed: 77 });
  const w = await openWorkspace(root);
  try {
    await w.index();
    const waits: number[] = [];
    const qs = ['order', 'customer service', 'invoice total', 'catalog', 'validator'];
    for (let run = 0; run < 2; run++) {
      const child = spawn(process.execPath, [HCI_BIN(), 'index', root, '--full', '--quiet'], { stdio: 'ignore' });
      let done = false;
      child.on('exit', () => (done = true));
      for (let i = 0; !done; i++) {
        await new Promise((r) => setImmediate(r)); // let the child's exit event in
        const t = now();
        const r = await w.search({ query: qs[i % qs.length], limit: 8 });
        if (!done && r.status !== 'error') waits.push(now() - t);
      }
    }
    return { name: 'search while another process re-indexes (600 files, 2 full runs)', test: 'concurrency: every answer a committed state; a live lock holder gives index_busy after lock_timeout_ms', stats: latencyStats(waits), unit: 'ms wall', note: 'the design target per wait is < 250 ms; the test was asserting < 2 s' };
  } finally {
    w.close();
  }
}

export async function runLatency(o: { log?: (s: string) => void } = {}): Promise<LatencyReport> {
  const log = o.log ?? (() => {});
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-latency-'));
  const started = new Date().toISOString();
  try {
    const figures: LatencyFigure[] = [];
    log('latency: chunking…');
    figures.push(...(await chunkingFigures()));
    figures.push(secretsFigure());
    log('latency: scan…');
    figures.push(await scanFigure(tmp));
    log('latency: watcher debounce…');
    figures.push(await trackerFigure());
    log('latency: MCP servers…');
    figures.push(...(await mcpFigures(tmp)));
    log('latency: readers during a re-index…');
    figures.push(await readerWaitFigure(tmp));
    return { commit: commitInfo(), node: process.version, loadAvg: os.loadavg(), started, figures };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function formatLatency(r: LatencyReport): string {
  const head = `### Latencies the unit tests no longer time (Node ${r.node}, commit ${r.commit.sha?.slice(0, 10) ?? '?'}${r.commit.dirty ? ' + changes' : ''}, load ${r.loadAvg.map((x) => x.toFixed(1)).join('/')})`;
  return [head, '', markdownTable(
    ['what', 'median', 'p95', 'max', 'n', 'unit', 'the test keeps'],
    r.figures.map((f) => [f.name + (f.note ? ` (${f.note})` : ''), fmtMs(f.stats.p50), fmtMs(f.stats.p95), fmtMs(f.stats.max), String(f.stats.n), f.unit, f.test]),
    ['l', 'r', 'r', 'r', 'r', 'l', 'l'],
  )].join('\n');
}
