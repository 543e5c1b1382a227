// Shared helpers of the benchmark and evaluation scripts: argument parsing, statistics, tables,
// corpus copies and locating the repository. Owns nothing about engines or metrics.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isRestoredNugetPackage } from '../../core/scan/nuget-folders.ts';

/** The repository root (the folder with package.json), from both the source and the dist layout. */
export function repoRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'bench'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error('cannot locate the hci repository root from the bench scripts');
}

export function sampleWorkspaceDir(): string {
  return path.join(repoRoot(), 'test', 'sample-workspace');
}

/** True when this module is the process entry point (so importing a script never runs it). */
export function isMain(metaUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return fs.realpathSync(fileURLToPath(metaUrl)) === fs.realpathSync(path.resolve(entry));
  } catch {
    return false;
  }
}

/**
 * A script's entry: when the module at `metaUrl` is the process entry point, runs `main` on the
 * command line's arguments and exits with its code; a throw prints `name: <stack>` and exits 1.
 */
export async function runMain(metaUrl: string, name: string, main: (argv: string[]) => Promise<number>): Promise<void> {
  if (!isMain(metaUrl)) return;
  try {
    process.exitCode = await main(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${name}: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  }
}

export type ArgValue = string | boolean | string[];

/** Minimal `--key value` / `--flag` / positional parser. Repeated keys collect into arrays. */
export function parseArgs(argv: string[], flags: readonly string[] = []): { opts: Record<string, ArgValue>; positional: string[] } {
  const opts: Record<string, ArgValue> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const key = eq > 0 ? a.slice(2, eq) : a.slice(2);
    let value: string | boolean;
    if (eq > 0) value = a.slice(eq + 1);
    else if (flags.includes(key) || i + 1 >= argv.length || argv[i + 1].startsWith('--')) value = true;
    else value = argv[++i];
    const prev = opts[key];
    if (prev === undefined) opts[key] = value;
    else opts[key] = [...(Array.isArray(prev) ? prev : [String(prev)]), String(value)];
  }
  return { opts, positional };
}

export function optString(opts: Record<string, ArgValue>, key: string): string | undefined {
  const v = opts[key];
  if (v === undefined || typeof v === 'boolean') return undefined;
  return Array.isArray(v) ? v[v.length - 1] : v;
}

/** The `--set NAME=golden.jsonl@indexed-root` options of a probe script (at least one). */
export function probeSets(opts: Record<string, ArgValue>): Array<{ name: string; golden: string; root: string }> {
  const specs = ([] as string[]).concat((opts.set as string | string[] | undefined) ?? []);
  if (!specs.length) throw new Error('give at least one --set NAME=golden.jsonl@root');
  return specs.map((spec) => {
    const m = /^([^=]+)=(.+)@(.+)$/.exec(spec);
    if (!m) throw new Error(`--set NAME=golden.jsonl@root, got ${spec}`);
    return { name: m[1], golden: m[2], root: m[3] };
  });
}

/** Prints a report's markdown, and writes it to `--md` and its rows (JSON) to `--out` when given. */
export function writeReport(opts: Record<string, ArgValue>, md: string, rows: unknown): void {
  process.stdout.write(md);
  const file = optString(opts, 'out');
  if (file) fs.writeFileSync(file, JSON.stringify(rows, null, 1));
  const mdFile = optString(opts, 'md');
  if (mdFile) fs.writeFileSync(mdFile, md);
}

export function optInt(opts: Record<string, ArgValue>, key: string, fallback: number): number {
  const s = optString(opts, key);
  if (s === undefined) return fallback;
  const n = Number(s);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${key} expects a non-negative integer, got "${s}"`);
  return n;
}

export function optList(opts: Record<string, ArgValue>, key: string): string[] {
  const v = opts[key];
  if (v === undefined || typeof v === 'boolean') return [];
  return (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).map((s) => s.trim()).filter(Boolean);
}

// ---------------------------------------------------------------------------------------------
// Statistics

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN for none. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

export function median(samples: readonly number[]): number {
  if (samples.length === 0) return Number.NaN;
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function mean(samples: readonly number[]): number {
  return samples.length ? samples.reduce((a, b) => a + b, 0) / samples.length : Number.NaN;
}

export interface LatencyStats {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

export function latencyStats(samples: readonly number[]): LatencyStats {
  return {
    n: samples.length,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    mean: mean(samples),
    max: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

// ---------------------------------------------------------------------------------------------
// Formatting

export const MB = 1024 * 1024;

export function fmtNum(x: number | null | undefined, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US');
  return x.toFixed(digits);
}

export function fmtMs(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  if (x >= 10_000) return `${(x / 1000).toFixed(1)} s`;
  if (x >= 100) return `${Math.round(x)} ms`;
  if (x >= 10) return `${x.toFixed(1)} ms`;
  return `${x.toFixed(2)} ms`;
}

export function fmtMB(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return '–';
  const mb = bytes / MB;
  return mb >= 100 ? `${Math.round(mb)} MB` : `${mb.toFixed(1)} MB`;
}

export function fmtRatio(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '–';
  return `${x >= 10 ? x.toFixed(0) : x.toFixed(2)}x`;
}

/** A Markdown table (also readable as plain text in a terminal). */
export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align?: readonly ('l' | 'r')[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const pad = (s: string, i: number) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'l' ? s.padEnd(widths[i]) : s.padStart(widths[i]));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => pad(c ?? '', i)).join(' | ')} |`;
  const sep = `|${widths.map((w, i) => ((align?.[i] ?? (i === 0 ? 'l' : 'r')) === 'l' ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`;
  return [line(header), sep, ...rows.map(line)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Files

/**
 * Folders a corpus copy never needs (build output, VCS, caches, an existing hci index). `packages`
 * is not one of them (a JS/TS monorepo's source): folders NuGet restored a package into are left out
 * by what they hold, as the walk does (core/scan/nuget-folders.ts).
 */
export const COPY_SKIP_SEGMENTS = new Set(['.git', '.hci', 'node_modules', 'bin', 'obj', '.vs', '.idea', 'TestResults']);

/** Copies a source tree (without VCS folders, build output, restored NuGet packages or an index) into `dest`. */
export function copyTree(src: string, dest: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  // `segs`: the folder's path below `src`, to name it and its parent as the walk does.
  const walk = (from: string, to: string, segs: string[]) => {
    const entries = fs.readdirSync(from, { withFileTypes: true });
    if (segs.length && isRestoredNugetPackage(segs[segs.length - 1], segs[segs.length - 2] ?? '', entries.map((e) => e.name))) return;
    fs.mkdirSync(to, { recursive: true });
    for (const e of entries) {
      if (COPY_SKIP_SEGMENTS.has(e.name)) continue;
      const a = path.join(from, e.name);
      const b = path.join(to, e.name);
      if (e.isDirectory()) walk(a, b, [...segs, e.name]);
      else if (e.isFile()) {
        fs.copyFileSync(a, b);
        files++;
        bytes += fs.statSync(b).size;
      }
    }
  };
  walk(src, dest, []);
  return { files, bytes };
}

export function fileSize(p: string): number {
  try {
    return fs.statSync(p).size;
  } catch {
    return 0;
  }
}

export function writeJson(p: string, value: unknown): void {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, `${JSON.stringify(value, null, 2)}\n`);
}

export function readJsonl<T>(p: string): T[] {
  return fs
    .readFileSync(p, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('//'))
    .map((l, i) => {
      try {
        return JSON.parse(l) as T;
      } catch (e) {
        throw new Error(`${p}:${i + 1}: not valid JSON (${(e as Error).message})`);
      }
    });
}

/** A file-system-safe label for a corpus (used in result file names). */
export function slug(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'corpus';
}

/** Small deterministic string hash (FNV-1a), for stable sampling. */
export function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function now(): number {
  return performance.now();
}

/** Peak resident set size of this process so far, in bytes. */
export function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

export function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) {
    g();
    g();
  }
}
