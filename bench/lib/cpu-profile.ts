// Reads a V8 .cpuprofile (from `node --cpu-prof`) and says where the time went: self time by
// category (WASM SQLite, hci's indexer, scanning, chunking, analysis, GC, node internals …) and the
// top functions. Used by `npm run bench -- --profile`; also runnable on any profile:
//   node dist/bench/lib/cpu-profile.js <file.cpuprofile> [--parse-worker]
import * as fs from 'node:fs';
import { isMain, markdownTable } from './util.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface ProfileSummary {
  totalMs: number;
  categories: Array<{ category: string; ms: number; share: number }>;
  functions: Array<{ fn: string; where: string; category: string; ms: number; share: number }>;
}

const FS_CALLS = new Set(['fdatasync', 'fsync', 'open', 'openFileHandle', 'close', 'read', 'readFileUtf8', 'writeBuffer', 'writeString', 'stat', 'lstat', 'fstat', 'unlink', 'link', 'rename', 'readdir', 'realpath', 'ftruncate', 'mkdir', 'rmdir', 'internalModuleStat', 'access', 'existsSync']);

/**
 * Groups a frame's location into a category that maps to a part of hci or of the runtime. `thread`:
 * 'parse-worker' for a parse worker's profile, where every WebAssembly module is tree-sitter's (its
 * grammars' lexers are anonymous wasm://wasm/<hash> modules, which on the main thread means SQLite).
 */
export function categoryOf(url: string, fn: string, thread: 'main' | 'parse-worker' = 'main'): string {
  if (fn === '(garbage collector)') return 'GC';
  if (fn === '(idle)') return 'idle (waiting for I/O)';
  if (fn === '(program)') return 'V8/native (program)';
  if (url.includes('tree-sitter')) return 'tree-sitter (parsing, WASM)';
  if (url.startsWith('wasm://')) return thread === 'parse-worker' ? 'tree-sitter grammars (lexers, WASM)' : 'SQLite (WASM code)';
  if (!url && FS_CALLS.has(fn)) return 'file system calls (VFS, locks, reads, fsync)';
  if (url === 'node:internal/encoding' || url.startsWith('node:internal/encoding')) return 'string encode/decode (TextEncoder/Decoder)';
  if (url.includes('@sqlite.org/sqlite-wasm')) return 'SQLite WASM JS glue (oo1/capi)';
  if (url.includes('/runtimes/node/node-vfs')) return 'hci VFS (node:fs)';
  if (url.includes('/runtimes/node/dot-lock')) return 'hci dot-file locks';
  if (url.includes('/runtimes/node/')) return 'hci node runtime';
  if (url.includes('/core/index/fts-row') || url.includes('/core/text/analyzer')) return 'hci identifier splitting (ftsValues)';
  if (url.includes('/core/index/')) return 'hci index writer/indexer';
  if (url.includes('/core/scan/')) return 'hci scan/classify/secrets';
  if (url.includes('/core/chunk/')) return 'hci chunking';
  if (url.includes('/core/search/')) return 'hci search/ranking';
  if (url.includes('/core/')) return 'hci core (other)';
  if (url.includes('/bench/')) return 'benchmark harness';
  if (url.includes('node_modules/')) return `dependency: ${url.split('node_modules/')[1]?.split('/').slice(0, url.includes('node_modules/@') ? 2 : 1).join('/')}`;
  if (url.startsWith('node:') || url === '') return fn.startsWith('(') ? fn : 'node internals / builtins';
  return 'other';
}

export function summarizeProfile(file: string, top = 20, thread: 'main' | 'parse-worker' = 'main'): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  if (p.samples && p.timeDeltas) {
    for (let i = 0; i < p.samples.length; i++) self.set(p.samples[i], (self.get(p.samples[i]) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
  } else {
    const interval = (p.endTime - p.startTime) / 1000 / Math.max(1, p.nodes.reduce((s, n) => s + (n.hitCount ?? 0), 0));
    for (const n of p.nodes) self.set(n.id, (n.hitCount ?? 0) * interval);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const cats = new Map<string, number>();
  const fns = new Map<string, { fn: string; where: string; category: string; ms: number }>();
  for (const [id, ms] of self) {
    const n = byId.get(id);
    if (!n) continue;
    const { functionName, url, lineNumber } = n.callFrame;
    const fn = functionName || '(anonymous)';
    const category = categoryOf(url, fn, thread);
    cats.set(category, (cats.get(category) ?? 0) + ms);
    const where = url ? `${url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}` : '';
    const key = `${fn}@${where}`;
    const cur = fns.get(key) ?? { fn, where, category, ms: 0 };
    cur.ms += ms;
    fns.set(key, cur);
  }
  const share = (ms: number) => (total ? ms / total : 0);
  return {
    totalMs: total,
    categories: [...cats.entries()].sort((a, b) => b[1] - a[1]).map(([category, ms]) => ({ category, ms, share: share(ms) })),
    functions: [...fns.values()].sort((a, b) => b.ms - a.ms).slice(0, top).map((f) => ({ ...f, share: share(f.ms) })),
  };
}

export function formatProfile(s: ProfileSummary): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const cat = markdownTable(['where the time went (self time)', 'ms', 'share'], s.categories.filter((c) => c.share >= 0.005).map((c) => [c.category, c.ms.toFixed(0), pct(c.share)]));
  const fns = markdownTable(['top functions (self time)', 'location', 'ms', 'share'], s.functions.map((f) => [f.fn, f.where, f.ms.toFixed(0), pct(f.share)]), ['l', 'l', 'r', 'r']);
  return `${cat}\n\n${fns}`;
}

if (isMain(import.meta.url)) {
  const file = process.argv[2];
  if (!file) {
    process.stderr.write('usage: node dist/bench/lib/cpu-profile.js <file.cpuprofile> [--parse-worker]\n');
    process.exitCode = 2;
  } else process.stdout.write(`${formatProfile(summarizeProfile(file, 20, process.argv.includes('--parse-worker') ? 'parse-worker' : 'main'))}\n`);
}
