// A first MCP start from a clone, as an agent host makes it (issue 38's target: ≤ 5 s): the server
// command `hci setup` writes (asked of `hci setup generic --json`: this Node, the absolute path of
// bin/hci.js, `mcp <root>`), started on a fresh copy of the sample workspace with no index and an
// empty compile cache folder (NODE_COMPILE_CACHE: Node's module cache and hci's code cache both
// cold), timed from the spawn to initialize and listTools answered by the SDK Client; beside
// `node -e 0` (a bare Node start), interleaved run by run. Part of `npm run bench` (the `mcp-start`
// engine), or `node dist/bench/mcp-start.js [--runs N] [--out DIR] [--record]`. Owns this timing; what the server
// answers is tested in test/ (cli-setup, mcp-stdio).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { copyTree, fmtMs, fmtRatio, isMain, latencyStats, markdownTable, now, optInt, optString, parseArgs, repoRoot, sampleWorkspaceDir, writeJson, type LatencyStats } from './lib/util.ts';
import { commitInfo, recordResult, type CommitInfo } from './lib/record.ts';

export interface McpStartReport {
  commit: CommitInfo;
  node: string;
  /** os.loadavg() before the first run and after the last. */
  loadAvg: { before: number[]; after: number[] };
  started: string;
  /** The server command as `hci setup` wrote it for the first run's copy (its root differs per run). */
  server: { command: string; args: string[] };
  workspace: string;
  /** Spawn → initialize → listTools answered, compile cache and index cold. */
  firstStart: LatencyStats & { samples: number[] };
  /** `node -e 0`, spawn → exit, interleaved with the starts. */
  nodeStart: LatencyStats & { samples: number[] };
  /** Tools listTools answered (every run the same). */
  tools: number;
  /** Medians: first start over a bare Node start. */
  ratio: number;
  target: { ms: number; met: boolean };
}

const TARGET_MS = 5000;

/** The environment a host gives the server: this one without what would change the start (a cache folder, the arena cap bin/hci.js sets itself). */
function hostEnv(cacheDir: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !['NODE_COMPILE_CACHE', 'NODE_DISABLE_COMPILE_CACHE', 'MALLOC_ARENA_MAX', 'NODE_OPTIONS'].includes(k)) env[k] = v;
  return { ...env, NODE_COMPILE_CACHE: cacheDir };
}

/** The MCP server command `hci setup` writes for `root` (the generic host prints the entry every host gets). */
export function setupServerCommand(root: string): { command: string; args: string[] } {
  const bin = path.join(repoRoot(), 'bin', 'hci.js');
  const r = spawnSync(process.execPath, [bin, 'setup', 'generic', root, '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`hci setup generic --json failed (${r.status}): ${r.stderr}`);
  const server = (JSON.parse(r.stdout) as { server: { command: string; args: string[] } }).server;
  return { command: server.command, args: server.args };
}

/** One start: spawn → initialize → listTools; the milliseconds and how many tools it listed. */
async function timeStart(server: { command: string; args: string[] }, env: Record<string, string>): Promise<{ ms: number; tools: number }> {
  const client = new Client({ name: 'hci-mcp-start-bench', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: server.command, args: server.args, env, stderr: 'ignore' });
  const t0 = now();
  try {
    await client.connect(transport, { timeout: 120_000 });
    const { tools } = await client.listTools(undefined, { timeout: 120_000 });
    return { ms: now() - t0, tools: tools.length };
  } finally {
    await client.close();
  }
}

function nodeStart(): number {
  const t0 = now();
  const r = spawnSync(process.execPath, ['-e', '0']);
  const ms = now() - t0;
  if (r.status !== 0) throw new Error('node -e 0 failed');
  return ms;
}

export async function runMcpStart(o: { runs?: number; log?: (s: string) => void } = {}): Promise<McpStartReport> {
  const runs = Math.max(1, o.runs ?? 10);
  const log = o.log ?? (() => {});
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-mcp-start-'));
  const started = new Date().toISOString();
  const before = os.loadavg();
  const first: number[] = [];
  const bare: number[] = [];
  let server: { command: string; args: string[] } | null = null;
  let tools = -1;
  try {
    for (let i = 0; i < runs; i++) {
      const root = path.join(tmp, `clone-${i}`, 'sample-workspace');
      copyTree(sampleWorkspaceDir(), root);
      const cache = path.join(tmp, `compile-cache-${i}`);
      fs.mkdirSync(cache);
      const cmd = setupServerCommand(root);
      server ??= cmd;
      bare.push(nodeStart());
      const r = await timeStart(cmd, hostEnv(cache));
      if (tools >= 0 && r.tools !== tools) throw new Error(`mcp start: listTools answered ${r.tools} tools, an earlier run ${tools}`);
      tools = r.tools;
      first.push(r.ms);
      log(`mcp start ${i + 1}/${runs}: ${fmtMs(r.ms)} (node -e 0: ${fmtMs(bare[i])})`);
      fs.rmSync(path.join(tmp, `clone-${i}`), { recursive: true, force: true, maxRetries: 5 });
      fs.rmSync(cache, { recursive: true, force: true, maxRetries: 5 });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
  }
  const firstStart = { ...latencyStats(first), samples: first };
  const nodeStartStats = { ...latencyStats(bare), samples: bare };
  // The first run's root, named as a reader's own clone would be.
  const shown = { command: server!.command, args: server!.args.map((a) => (a.startsWith(tmp) ? `<copy>${a.slice(path.join(tmp, 'clone-0').length)}` : a)) };
  return {
    commit: commitInfo(), node: process.version, loadAvg: { before, after: os.loadavg() }, started,
    server: shown, workspace: 'test/sample-workspace (a fresh copy per run, no .hci index)',
    firstStart, nodeStart: nodeStartStats, tools, ratio: firstStart.p50 / nodeStartStats.p50,
    target: { ms: TARGET_MS, met: firstStart.p95 <= TARGET_MS },
  };
}

export function formatMcpStart(r: McpStartReport): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(1)).join('/');
  const head = `### First MCP start from a clone (Node ${r.node}, commit ${r.commit.sha?.slice(0, 10) ?? '?'}${r.commit.dirty ? ' + changes' : ''}, load ${load(r.loadAvg.before)} before, ${load(r.loadAvg.after)} after)`;
  const row = (what: string, s: LatencyStats) => [what, fmtMs(s.p50), fmtMs(s.p95), fmtMs(s.max), String(s.n)];
  return [
    head, '',
    `Server as \`hci setup\` writes it: \`${[r.server.command, ...r.server.args].join(' ')}\`; ${r.workspace}; an empty compile cache folder per run (NODE_COMPILE_CACHE); SDK Client, spawn → initialize → listTools (${r.tools} tools).`, '',
    markdownTable(['what', 'median', 'p95', 'max', 'n'], [
      row('first MCP start: spawn → initialize → listTools answered', r.firstStart),
      row('`node -e 0` (bare Node start, same runs)', r.nodeStart),
    ], ['l', 'r', 'r', 'r', 'r']), '',
    `First start over a bare Node start (medians): ${fmtRatio(r.ratio)}. Target: p95 ≤ ${fmtMs(r.target.ms)}: ${r.target.met ? 'met' : 'NOT met'}.`,
  ].join('\n');
}

/** `npm run bench -- --engines mcp-start` and `node dist/bench/mcp-start.js`: runs, prints, writes bench-mcp-start.{json,md} (and with --record the committed copy). */
export async function runMcpStartBench(argv: string[]): Promise<{ report: McpStartReport; markdown: string }> {
  const { opts } = parseArgs(argv, ['record']);
  const report = await runMcpStart({ runs: optInt(opts, 'runs', 10), log: (s) => process.stderr.write(`${s}\n`) });
  const markdown = formatMcpStart(report);
  const out = path.resolve(optString(opts, 'out') ?? path.join(repoRoot(), 'bench-results'));
  writeJson(path.join(out, 'bench-mcp-start.json'), report);
  fs.writeFileSync(path.join(out, 'bench-mcp-start.md'), `${markdown}\n`);
  if (opts.record === true) recordResult('bench-mcp-start', report, markdown);
  return { report, markdown };
}

if (isMain(import.meta.url)) {
  runMcpStartBench(process.argv.slice(2)).then(({ markdown }) => process.stdout.write(`${markdown}\n`), (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
}
