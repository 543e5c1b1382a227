// What SQLite's own settings do to the memory of loading an index: the bench's chunk dump (`--keep`
// leaves it in the work folder as chunks.jsonl) loaded through hci's WASM build and VFS, or native
// node:sqlite, by bench/baselines/sql-store.ts loadDump (hci's pragmas, schema and transaction size),
// with each variant's statements run after the schema (pragmas, FTS5 options such as automerge). One
// child process per variant and round, alternated (A B A B …), so a WASM heap that never shrinks
// starts each run from nothing. Per run: peak RSS (VmHWM), the largest V8 heap, the WASM heap at the
// end, SQLite allocator's high-water mark (WASM only), CPU time, the file's size, and where the RSS
// peaked (files loaded); medians per variant. The loader's V8 garbage is collected as hci's pass does.
//   node --experimental-transform-types bench/store-memory.ts --dump DIR/chunks.jsonl [--engine wasm|native]
//     [--files-per-txn N] [--rounds 2] --variant base='[]' --variant x='["PRAGMA cache_size = -4000"]' [--md out.md]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadDump, openNative, openWasmOnDisk } from './baselines/sql-store.ts';
import { streamDumpLines } from './lib/chunks.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import { arenaCapEnv } from '../runtimes/node/malloc-arenas.ts';
import { parseArgs } from './lib/util.ts';
import { keepYoungGenerationSmall } from '../runtimes/node/young-generation.ts';
import { createMemoryRelief } from '../runtimes/node/memory-relief.ts';

interface RunResult { variant: string; peakRss: number; peakAtFiles: number; heapMax: number; wasmEnd: number; sqliteHigh: number; cpuMs: number; diskBytes: number; files: number; chunks: number }

const MB = (n: number) => (n / 1048576).toFixed(1);

function status(): { rss: number; hwm: number } {
  const s = fs.readFileSync('/proc/self/status', 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

async function child(dump: string, engine: string, filesPerTxn: number, variant: string, setup: string[], out: string): Promise<void> {
  // The loader's own garbage (a JSON line per file, base64 blobs) kept down the way hci keeps its
  // pass's (bin/hci.js's young generation, the indexer's relief between batches), so the peak is the
  // store's: without it the V8 heap reached 210-250 MB loading 8,000 files, and hid SQLite's 6-18 MB.
  keepYoungGenerationSmall();
  const relief = createMemoryRelief();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-store-mem-'));
  try {
    const { meta, lines } = streamDumpLines(dump);
    const file = engine === 'native' ? path.join(dir, 'native.sqlite') : path.join(dir, '.hci', 'index.sqlite');
    const db = engine === 'native' ? await openNative(file) : await openWasmOnDisk(dir);
    const sqlite3 = engine === 'native' ? null : (await loadEngine()).sqlite3;
    const { capi, wasm } = (sqlite3 ?? {}) as unknown as {
      capi: { sqlite3_status64(op: number, cur: number, hi: number, reset: number): number; SQLITE_STATUS_MEMORY_USED: number };
      wasm: { alloc(n: number): number; peek(p: number, t: string): bigint | number; heap8u(): Uint8Array };
    };
    const cell = wasm ? wasm.alloc(16) : 0;
    const sqliteHigh = () => {
      if (!wasm) return 0;
      capi.sqlite3_status64(capi.SQLITE_STATUS_MEMORY_USED, cell, cell + 8, 0);
      return Number(wasm.peek(cell + 8, 'i64'));
    };
    let lastHwm = 0;
    let peakAtFiles = 0;
    let heapMax = 0;
    const c0 = process.cpuUsage();
    const load = loadDump(db, meta, lines, filesPerTxn, {
      setup,
      onCommit: (files) => {
        relief.relieve();
        const st = status();
        if (st.hwm > lastHwm) (lastHwm = st.hwm), (peakAtFiles = files);
        heapMax = Math.max(heapMax, process.memoryUsage().heapTotal);
      },
    });
    const cpu = process.cpuUsage(c0);
    const res: RunResult = {
      variant, peakRss: status().hwm, peakAtFiles, heapMax, wasmEnd: wasm ? wasm.heap8u().byteLength : 0, sqliteHigh: sqliteHigh(),
      cpuMs: (cpu.user + cpu.system) / 1000, diskBytes: fs.statSync(file).size, files: load.files, chunks: load.chunks,
    };
    db.close();
    fs.writeFileSync(out, JSON.stringify(res));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  const { opts } = parseArgs(process.argv.slice(2), []);
  const dump = String(opts.dump);
  const engine = String(opts.engine ?? 'wasm');
  const filesPerTxn = Number(opts['files-per-txn'] ?? 20);
  if (opts.child) {
    await child(dump, engine, filesPerTxn, String(opts.child), JSON.parse(String(opts.setup)), String(opts.out));
    return;
  }
  const raw = opts.variant;
  const variants = (Array.isArray(raw) ? raw : [raw]).map(String).map((v) => {
    const eq = v.indexOf('=');
    return { name: v.slice(0, eq), setup: JSON.parse(v.slice(eq + 1)) as string[] };
  });
  const rounds = Number(opts.rounds ?? 2);
  const results: RunResult[] = [];
  const load0 = os.loadavg()[0];
  const self = fileURLToPath(import.meta.url);
  for (let r = 0; r < rounds; r++) {
    for (const v of variants) {
      const out = path.join(os.tmpdir(), `hci-store-mem-${process.pid}-${r}-${v.name}.json`);
      const env = arenaCapEnv(['index'], process.env, process.platform) ?? process.env;
      const p = spawnSync(process.execPath, [...process.execArgv, self, '--dump', dump, '--engine', engine, '--files-per-txn', String(filesPerTxn), '--child', v.name, '--setup', JSON.stringify(v.setup), '--out', out], { env, stdio: ['ignore', 'inherit', 'inherit'] });
      if (p.status !== 0 || !fs.existsSync(out)) throw new Error(`variant ${v.name} failed (exit ${p.status})`);
      const res = JSON.parse(fs.readFileSync(out, 'utf8')) as RunResult;
      fs.rmSync(out);
      results.push(res);
      console.log(`round ${r + 1} ${v.name}: peak RSS ${MB(res.peakRss)} MB at ${res.peakAtFiles} files, V8 heap ≤ ${MB(res.heapMax)}, WASM heap ${MB(res.wasmEnd)}, SQLite high-water ${MB(res.sqliteHigh)}, CPU ${(res.cpuMs / 1000).toFixed(1)} s, file ${MB(res.diskBytes)} MB`);
    }
  }
  const load1 = os.loadavg()[0];
  const rows = variants.map((v) => {
    const rs = results.filter((r) => r.variant === v.name);
    const m = (k: keyof RunResult) => median(rs.map((r) => r[k] as number));
    return `| ${v.name} | \`${v.setup.join('; ') || '(hci as is)'}\` | ${MB(m('peakRss'))} | ${MB(m('sqliteHigh'))} | ${MB(m('wasmEnd'))} | ${MB(m('heapMax'))} | ${(m('cpuMs') / 1000).toFixed(1)} | ${MB(m('diskBytes'))} | ${rs.map((r) => r.peakAtFiles).join(', ')} |`;
  });
  const first = results[0]!;
  const md = [
    `### Store memory: ${engine === 'native' ? 'native node:sqlite' : "hci's WASM build and VFS"}, ${first.files} files, ${first.chunks} chunks, ${filesPerTxn} files a transaction`,
    '',
    `Node ${process.version} · ${rounds} round(s) alternated, medians · load average ${load0.toFixed(1)} at start, ${load1.toFixed(1)} at end · dump ${dump}`,
    '',
    '| variant | statements after the schema | peak RSS MB | SQLite high-water MB | WASM heap at end MB | largest V8 heap MB | CPU s | file MB | RSS peaked at file (each run) |',
    '|:--|:--|--:|--:|--:|--:|--:|--:|:--|',
    ...rows,
    '',
  ].join('\n');
  console.log(md);
  if (opts.md) fs.writeFileSync(String(opts.md), md);
}

void main();
