// Remote search bench (issue 36): a workspace's index packed at each page size (hci pack), served
// from a local HTTP server that answers range requests (test/helpers/range-server-thread.mjs, in a
// worker thread), and searched over HTTP — per query kind, the first query after opening (range
// requests, bytes, wall ms), the same query warm, and the local index's warm time beside it; plus
// the packed size against the live index. Run: `npm run build && node dist/bench/remote.js --root
// <indexed workspace> [--page-sizes 4096,16384] [--gap BYTES] [--by-table] [--one-range] [--runs N] [--record]` (writes bench/results/remote-<name>.{md,json}).
// --one-range: the server answers one range per request (a multi-range request gets the whole file, HTTP
// 200), as S3 and many CDNs do. --runs N: each query asked on N fresh readers (and N times warm, and
// locally): the ms columns are medians over those runs too (bytes and requests do not vary). The warm
// searches' CPU time on the calling thread is tabled beside their wall time (under load, compare those).
// --by-table: where each kind's first-query bytes go — every page a reply brought attributed to its
// B-tree (table or index: SQLite's dbstat over the packed file, through node:sqlite).
// Owns these measurements; what they measure is runtimes/shared/{remote-file,http-vfs}.ts and core/index/pack.ts.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openRemoteIndex, openWorkspace } from '../runtimes/node/workspace.ts';
import { nodePackTarget } from '../runtimes/node/pack-target.ts';
import type { HttpIndexStorage } from '../runtimes/shared/http-vfs.ts';
import type { RemoteFileOptions } from '../runtimes/shared/remote-file.ts';
import { fmtMB, isMain, markdownTable, median, now, optString, parseArgs } from './lib/util.ts';
import { commitInfo, recordResult } from './lib/record.ts';
import { startRangeServerThread } from './lib/range-server.ts';

/** Queries by kind (general code-search shapes; none tuned to a repository). */
export const QUERIES: Record<string, string[]> = {
  symbol: ['TextBox', 'AvaloniaProperty', 'Dispatcher'],
  words: ['render loop timer', 'keyboard focus navigation', 'layout measure arrange'],
  phrase: ['"public static readonly"', '"protected override void"'],
  filtered: ['ext:axaml Button', 'path:src Window'],
};

interface KindFigures {
  kind: string;
  queries: number;
  /** Medians over the kind's queries. */
  firstRequests: number;
  firstBytes: number;
  firstMs: number;
  warmRemoteMs: number;
  warmLocalMs: number;
  /** The same warm searches' CPU time on the calling thread (process.threadCpuUsage): what load does not inflate as much as the wall clock. */
  warmRemoteCpuMs: number;
  warmLocalCpuMs: number;
  /** With --by-table: mean bytes per query of the first search, per B-tree, largest first. */
  byTable?: Array<[string, number]>;
}

interface PageSizeReport {
  pageSize: number;
  packedBytes: number;
  /** Opening (the probe and the schema): requests and bytes. */
  openRequests: number;
  openBytes: number;
  kinds: KindFigures[];
}

/** The calling thread's CPU time in ms (process.threadCpuUsage where Node has it, else the process's). */
function cpuMs(): number {
  const u = (process as unknown as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ?? process.cpuUsage();
  return (u.user + u.system) / 1000;
}

/** Page index (0-based) → the B-tree it belongs to, from SQLite's dbstat (node:sqlite: Node 22.5 and later). */
async function pageOwners(file: string): Promise<Map<number, string>> {
  const { DatabaseSync } = await import('node:sqlite');
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare('SELECT pageno, name FROM dbstat').all() as Array<{ pageno: number; name: string }>;
    return new Map(rows.map((r) => [Number(r.pageno) - 1, r.name]));
  } finally {
    db.close();
  }
}

/** How the bench serves and asks: one range per request (S3, many CDNs), runs per query. */
export interface RemoteBenchOptions {
  oneRange?: boolean;
  runs?: number;
}

export async function runRemoteBench(root: string, pageSizes: number[], remote: RemoteFileOptions = {}, byTable = false, bench: RemoteBenchOptions = {}): Promise<{ name: string; liveBytes: number; gapBytes: number | null; oneRange: boolean; runs: number; sizes: PageSizeReport[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-remote-bench-'));
  const local = await openWorkspace(root);
  const liveBytes = fs.statSync(path.join(root, '.hci', 'index.sqlite')).size;
  const runs = Math.max(1, bench.runs ?? 1);
  const server = await startRangeServerThread(dir, bench.oneRange ? { multiRange: false } : {});
  const sizes: PageSizeReport[] = [];
  try {
    const localMs = new Map<string, number>();
    const localCpu = new Map<string, number>();
    for (const qs of Object.values(QUERIES)) {
      for (const q of qs) {
        await local.search({ query: q, limit: 10 });
        const times: number[] = [];
        const cpu: number[] = [];
        for (let r = 0; r < runs; r++) {
          const t = now();
          const c = cpuMs();
          await local.search({ query: q, limit: 10 });
          cpu.push(cpuMs() - c);
          times.push(now() - t);
        }
        localMs.set(q, median(times));
        localCpu.set(q, median(cpu));
      }
    }
    for (const pageSize of pageSizes) {
      const file = `index-${pageSize}.sqlite`;
      const m = await local.pack(nodePackTarget(path.join(dir, file)), { fileName: file, pageSize });
      const url = `${server.origin}/${file}`;
      const owners = byTable ? await pageOwners(path.join(dir, file)) : null;
      /** Bytes per B-tree of the replies since the last reset (--by-table). */
      let tally = new Map<string, number>();
      const observed: RemoteFileOptions = owners ? {
        ...remote,
        onPages: (first, count) => {
          for (let p = first; p < first + count; p++) {
            const name = owners.get(p) ?? '(free or header)';
            tally.set(name, (tally.get(name) ?? 0) + pageSize);
          }
        },
      } : remote;
      let openRequests = 0;
      let openBytes = 0;
      const kinds: KindFigures[] = [];
      for (const [kind, qs] of Object.entries(QUERIES)) {
        const first: Array<{ requests: number; bytes: number; ms: number }> = [];
        const warm: number[] = [];
        const warmCpu: number[] = [];
        const tables = new Map<string, number>();
        for (let run = 0; run < runs; run++) for (const q of qs) {
          // Each query on a fresh reader: nothing cached but what opening read (the probe: the
          // file's first range). The first query pays for all the rest — the schema, the B-tree
          // roots, every per-generation read — as a first `hci search --index <url>` does.
          const ws = await openRemoteIndex(url, { remote: observed });
          const storage = ws.host.storage as HttpIndexStorage;
          const opened = storage.stats();
          tally = new Map();
          openRequests = opened.requests;
          openBytes = opened.bytes;
          let t = now();
          const answer = await ws.search({ query: q, limit: 10 });
          const ms = now() - t;
          // A failed search reads little: its figures would look like a gain.
          if (answer.status !== 'ok') throw new Error(`${q}: ${JSON.stringify(answer.error)}`);
          const s = storage.stats();
          for (const [name, bytes] of tally) tables.set(name, (tables.get(name) ?? 0) + bytes / qs.length / runs);
          first.push({ requests: s.requests - opened.requests, bytes: s.bytes - opened.bytes, ms });
          process.stderr.write(`${pageSize} ${kind} ${q}: open ${opened.requests} req ${opened.bytes} B; first ${s.requests - opened.requests} req ${s.bytes - opened.bytes} B ${ms.toFixed(0)} ms\n`);
          t = now();
          const c = cpuMs();
          await ws.search({ query: q, limit: 10 });
          warmCpu.push(cpuMs() - c);
          warm.push(now() - t);
          ws.close();
        }
        kinds.push({
          kind,
          queries: qs.length,
          firstRequests: median(first.map((f) => f.requests)),
          firstBytes: median(first.map((f) => f.bytes)),
          firstMs: median(first.map((f) => f.ms)),
          warmRemoteMs: median(warm),
          warmLocalMs: median(qs.map((q) => localMs.get(q)!)),
          warmRemoteCpuMs: median(warmCpu),
          warmLocalCpuMs: median(qs.map((q) => localCpu.get(q)!)),
          ...(owners ? { byTable: [...tables].sort((a, b) => b[1] - a[1]) } : {}),
        });
      }
      sizes.push({ pageSize, packedBytes: m.bytes, openRequests, openBytes, kinds });
      fs.rmSync(path.join(dir, file), { force: true });
    }
  } finally {
    local.close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return { name: path.basename(root), liveBytes, gapBytes: remote.prefetchGapBytes ?? null, oneRange: Boolean(bench.oneRange), runs, sizes };
}

function render(r: Awaited<ReturnType<typeof runRemoteBench>>, commit: ReturnType<typeof commitInfo>): string {
  const lines = [
    `# Remote search over HTTP ranges: ${r.name}`,
    '',
    `Commit ${commit.sha?.slice(0, 12) ?? '?'}${commit.dirty ? ' (uncommitted changes)' : ''}; ${os.cpus().length} cores, load ${os.loadavg()[0].toFixed(1)} at the end. Live index ${fmtMB(r.liveBytes)}. Reader: prefetch gap ${r.gapBytes ?? 'default (32768)'} bytes. Server: ${r.oneRange ? 'one range per request (a multi-range request answered with the whole file, HTTP 200)' : 'several ranges per request (multipart/byteranges)'}; ${r.runs} run${r.runs > 1 ? 's' : ''} per query (ms: medians over the kind's queries and runs).`,
    'Loopback HTTP server (a worker thread), one fresh reader per query: opening = the probe (the file\'s first range); first = everything the first search after it read (the schema, the B-tree roots, its per-generation reads, its pages); medians over the kind\'s queries.',
    '',
  ];
  for (const s of r.sizes) {
    lines.push(`## Page size ${s.pageSize}: packed ${fmtMB(s.packedBytes)} (${(s.packedBytes / r.liveBytes).toFixed(3)}x the live index); opening: ${s.openRequests} requests, ${fmtMB(s.openBytes)}`, '');
    lines.push(markdownTable(
      ['kind', 'queries', 'first: requests', 'first: bytes', 'first: ms', 'warm remote ms', 'warm local ms', 'warm remote / local CPU ms'],
      s.kinds.map((k) => [k.kind, String(k.queries), String(k.firstRequests), fmtMB(k.firstBytes), k.firstMs.toFixed(0), k.warmRemoteMs.toFixed(1), k.warmLocalMs.toFixed(1), `${k.warmRemoteCpuMs.toFixed(1)} / ${k.warmLocalCpuMs.toFixed(1)}`]),
      ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r'],
    ), '');
    if (s.kinds.some((k) => k.byTable)) {
      // Where the first query's bytes go: the B-trees that took most, per kind (mean per query).
      const names = [...new Set(s.kinds.flatMap((k) => (k.byTable ?? []).slice(0, 7).map(([n]) => n)))];
      const of = (k: KindFigures, n: string) => k.byTable?.find(([m]) => m === n)?.[1] ?? 0;
      const rest = (k: KindFigures) => (k.byTable ?? []).filter(([n]) => !names.includes(n)).reduce((a, [, b]) => a + b, 0);
      lines.push(`First query's bytes per B-tree (MB, mean per query; "others": every other B-tree, mostly their root pages):`, '');
      lines.push(markdownTable(
        ['kind', ...names, 'others'],
        s.kinds.map((k) => [k.kind, ...names.map((n) => (of(k, n) / 1e6).toFixed(2)), (rest(k) / 1e6).toFixed(2)]),
        ['l', ...names.map(() => 'r' as const), 'r'],
      ), '');
    }
  }
  return lines.join('\n');
}

if (isMain(import.meta.url)) {
  const { opts } = parseArgs(process.argv.slice(2), ['record', 'by-table', 'one-range']);
  const root = path.resolve(optString(opts, 'root') ?? '.');
  const pageSizes = (optString(opts, 'page-sizes') ?? '4096,8192,16384,32768,65536').split(',').map(Number);
  const commit = commitInfo();
  // --gap BYTES: the reader's prefetchGapBytes (pages between two wanted ones read through in one request).
  const gap = optString(opts, 'gap');
  const report = await runRemoteBench(root, pageSizes, gap ? { prefetchGapBytes: Number(gap) } : {}, Boolean(opts['by-table']), { oneRange: Boolean(opts['one-range']), runs: Number(optString(opts, 'runs') ?? 1) });
  const md = render(report, commit);
  console.log(md);
  if (opts.record) console.log(`recorded ${recordResult(`remote-${report.name}`, { commit, ...report }, md)}`);
}
