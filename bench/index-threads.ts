// A/B of a cold `hci` index pass, builds alternated in one run, with where the CPU went per thread.
// Each run is the bench's own hci-index task (bench/worker.ts: a fresh process, the same malloc
// environment `hci index` gives itself, edits and no-op passes off) from a build's dist/; while it
// runs, this process samples /proc/<pid>/task/*/stat every few ms, so each thread's CPU is known
// (main thread, parse workers, libuv's file-system threads, V8's GC helpers), beside the task's own
// wall, process CPU and peak RSS. Owns only the alternation and the per-thread accounting; the
// pass itself is the indexer's, the figures the bench's worker measures. Linux only (/proc).
//
//   node dist/bench/index-threads.js --root DIR --build A=/path/to/distA --build B=/path/to/distB --runs 2 [--out FILE.md]
//     [--profile DIR]  (V8 CPU profiles of every thread, one folder per run: node dist/bench/lib/cpu-profile.js FILE)
//     [--node-arg ARG]… (passed to each run's node, e.g. --heap-prof --heap-prof-dir=DIR)
//     [--build-node-arg NAME=ARG]… (passed to build NAME's runs only: one dist can run as two builds, e.g. a V8 flag's A/B)
//     [--build-settings NAME=JSON]… (settings build NAME's runs open the workspace with, e.g. '{"worker_rows":"balanced"}')
//     [--keep DIR]     (each run's index.sqlite copied to DIR/<build>-<round>.sqlite, to compare what the builds wrote)
// Each build path is a dist/ folder inside a checkout (its node_modules are found from there). The
// root is indexed in place (its .hci/ is removed before each run): pass a copy, never a shared corpus.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { arenaCapEnv } from '../runtimes/node/malloc-arenas.ts';
import { markdownTable, runMain } from './lib/util.ts';
import type { TaskResult } from './worker.ts';

interface ThreadTicks {
  comm: string;
  ticks: number;
}

/** utime + stime (clock ticks) of each live thread of `pid`, by thread id. */
function sampleThreads(pid: number, into: Map<number, ThreadTicks>): void {
  let tids: string[];
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return;
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const open = stat.indexOf('(');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(open + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      // Fields after the comm: state is [0], utime [11], stime [12] (proc(5): fields 14 and 15).
      const ticks = Number(fields[11]) + Number(fields[12]);
      into.set(Number(tid), { comm, ticks });
    } catch {
      // the thread ended between readdir and read: its last sample stands
    }
  }
}

/** The process's resident set now (VmRSS, bytes), 0 once it is gone. */
function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** A thread's group: the main thread, parse workers, libuv's pool, V8's helpers, the rest by name. */
function groupOf(tid: number, pid: number, comm: string): string {
  if (tid === pid) return 'main thread';
  if (/^libuv-worker/.test(comm)) return 'libuv pool (file reads)';
  if (/^V8Worker|^V8 |DefaultWorke/.test(comm)) return 'V8 helpers (GC, compile)';
  if (/^v8:/.test(comm)) return 'V8 profiler';
  if (comm === 'WorkerThread') return 'worker threads (parse pool)';
  return `other (${comm})`;
}

interface Run {
  build: string;
  round: number;
  load: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  files: number;
  chunks: number;
  threads: Record<string, number>;
  /** When the sampled RSS peaked, as a share of the process's life (open, index, exit). */
  peakAt: number;
  /** The sampled RSS (MB) at each tenth of the process's life. */
  rssTenths: number[];
}

async function runOnce(build: string, dist: string, root: string, round: number, profileDir: string, keepDir: string, nodeArgs: string[], settings?: Record<string, unknown>): Promise<Run> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-threads-'));
  const taskFile = path.join(work, 'task.json');
  const resultFile = path.join(work, 'result.json');
  fs.writeFileSync(taskFile, JSON.stringify({ task: 'hci-index', root, edits: 0, noops: 0, ...(settings ? { settings } : {}) }));
  const env = arenaCapEnv(['index'], process.env, process.platform) ?? process.env;
  const load = os.loadavg()[0];
  const ticks = new Map<number, ThreadTicks>();
  const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=4096', ...nodeArgs, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, `${build}-${round}`)}`] : []), path.join(dist, 'bench', 'worker.js'), taskFile, resultFile], { stdio: ['ignore', 'ignore', 'pipe'], env });
  const stderr: string[] = [];
  child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
  const pid = child.pid!;
  const rss: number[] = [];
  const timer = setInterval(() => {
    sampleThreads(pid, ticks);
    const r = rssOf(pid);
    if (r) rss.push(r);
  }, 20);
  const code = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (c) => resolve(c ?? 1));
  });
  clearInterval(timer);
  const res = fs.existsSync(resultFile) ? (JSON.parse(fs.readFileSync(resultFile, 'utf8')) as TaskResult) : null;
  fs.rmSync(work, { recursive: true, force: true });
  if (!res || res.error || code !== 0 || !res.index) throw new Error(`${build}: worker failed (exit ${code}): ${res?.error ?? stderr.join('').slice(-2000)}`);
  if (keepDir) fs.mkdirSync(keepDir, { recursive: true });
  if (keepDir) fs.copyFileSync(path.join(root, '.hci', 'index.sqlite'), path.join(keepDir, `${build}-${round}.sqlite`));
  const tickMs = 1000 / 100; // USER_HZ is 100 on Linux
  const threads: Record<string, number> = {};
  for (const [tid, t] of ticks) {
    const g = groupOf(tid, pid, t.comm);
    threads[g] = (threads[g] ?? 0) + t.ticks * tickMs;
  }
  const peakIdx = rss.reduce((best, r, i) => (r > rss[best] ? i : best), 0);
  const rssTenths = Array.from({ length: 10 }, (_, k) => Math.round(Math.max(...rss.slice(Math.floor((k * rss.length) / 10), Math.max(Math.floor(((k + 1) * rss.length) / 10), Math.floor((k * rss.length) / 10) + 1))) / 1024 / 1024));
  return { peakAt: rss.length ? peakIdx / rss.length : 0, rssTenths, build, round, load, wallMs: res.index.ms, cpuMs: res.index.cpuMs, peakRssMb: res.memory.peakRss / 1024 / 1024, files: res.index.files, chunks: res.index.chunks, threads };
}

export async function main(argv: string[]): Promise<number> {
  const builds: Array<[string, string]> = [];
  let root = '';
  let runs = 2;
  let out = '';
  let profileDir = '';
  let keepDir = '';
  const nodeArgs: string[] = [];
  const buildArgs = new Map<string, string[]>();
  const buildSettings = new Map<string, Record<string, unknown>>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root') root = path.resolve(argv[++i]);
    else if (a === '--runs') runs = Number(argv[++i]);
    else if (a === '--out') out = argv[++i];
    else if (a === '--profile') profileDir = path.resolve(argv[++i]);
    else if (a === '--keep') keepDir = path.resolve(argv[++i]);
    else if (a === '--node-arg') nodeArgs.push(argv[++i]);
    else if (a === '--build-node-arg') {
      const arg = argv[++i];
      const name = arg.slice(0, arg.indexOf('='));
      buildArgs.set(name, [...(buildArgs.get(name) ?? []), arg.slice(name.length + 1)]);
    }
    else if (a === '--build-settings') {
      const arg = argv[++i];
      const name = arg.slice(0, arg.indexOf('='));
      buildSettings.set(name, JSON.parse(arg.slice(name.length + 1)) as Record<string, unknown>);
    }
    else if (a === '--build') {
      const [name, dir] = argv[++i].split('=');
      builds.push([name, path.resolve(dir)]);
    } else throw new Error(`unknown option ${a}`);
  }
  if (!root || !builds.length) throw new Error('usage: --root DIR --build NAME=DIST [--build NAME=DIST …] [--runs N] [--out FILE.md]');
  const all: Run[] = [];
  for (let round = 1; round <= runs; round++) {
    for (const [name, dist] of builds) {
      const r = await runOnce(name, dist, root, round, profileDir, keepDir, [...nodeArgs, ...(buildArgs.get(name) ?? [])], buildSettings.get(name));
      all.push(r);
      console.error(`${name} #${round}: ${(r.wallMs / 1000).toFixed(1)} s wall, ${(r.cpuMs / 1000).toFixed(1)} s CPU, ${r.peakRssMb.toFixed(0)} MB, load ${r.load.toFixed(1)} ${JSON.stringify(r.threads)}`);
    }
  }
  const groups = [...new Set(all.flatMap((r) => Object.keys(r.threads)))].sort();
  const s = (ms: number) => (ms / 1000).toFixed(1);
  const table = markdownTable(
    ['build', 'run', 'load (1 min)', 'wall', 'process CPU', 'peak RSS', 'peak at', 'files', 'chunks', ...groups.map((g) => `${g} CPU`)],
    all.map((r) => [r.build, String(r.round), r.load.toFixed(1), `${s(r.wallMs)} s`, `${s(r.cpuMs)} s`, `${r.peakRssMb.toFixed(0)} MB`, `${Math.round(r.peakAt * 100)}%`, String(r.files), String(r.chunks), ...groups.map((g) => (r.threads[g] === undefined ? '–' : `${s(r.threads[g])} s`))]),
  );
  const curves = markdownTable(['build', 'run', ...Array.from({ length: 10 }, (_, k) => `${k * 10}–${k * 10 + 10}%`)], all.map((r) => [r.build, String(r.round), ...r.rssTenths.map(String)]));
  const argsLine = [...[...buildArgs].map(([name, args]) => `${name}: node ${args.join(' ')}`), ...[...buildSettings].map(([name, st]) => `${name}: settings ${JSON.stringify(st)}`)].join('; ');
  const text = `Cold index of ${root}, builds alternated (${runs} rounds), ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores.${argsLine ? ` Build arguments: ${argsLine}.` : ''}\n` +
    'Thread CPU from /proc/<pid>/task/*/stat sampled every 20 ms over the whole worker process (open + index); wall, process CPU and peak RSS (VmHWM) as the bench worker measures the index pass; "peak at": when the sampled VmRSS peaked, as a share of the process\'s life.\n\n' + table +
    '\nSampled RSS (MB), highest in each tenth of the process\'s life:\n\n' + curves + '\n';
  console.log(text);
  if (out) fs.writeFileSync(out, text);
  return 0;
}

await runMain(import.meta.url, 'index-threads', main);
