// Same-machine A/B of a keyword search's CPU cost between two builds, on the bench's own query plan:
// an indexed tree's chunks give the derived query set and its slices exactly as `bench.js` makes them
// (bench/lib/queries.ts deriveQueries, bench/lib/plan.ts sliceQueries with the bench's defaults), and
// each round runs one new process per build, the builds alternated (A B, then B A, …): the process's
// first search (not measured), each `reopen` query right after opening the index again (first after
// open), the warm-up slice, then the measured slice (warm, new query) — the bench's latency kinds,
// timed as the search thread's CPU (process.threadCpuUsage: under load, wall time is the machine's).
// Every answer's hits are compared between the builds (a cost change must answer the same), and the
// rounds' warm CPU is paired (B's process over A's of the same round), and the statements the warm
// queries ran through their search session are counted by shape (those whose count differs are listed). Owns
// that comparison only; the figures of record are bench.js's.
// `--mechanisms`: before the rounds, the steps this comparison was made for, timed where they act over
// every stored file of the tree in this one process (min of 7 passes, the builds alternated): the
// dead shares of every chunk (dead-code.ts deadShare) of each build over the same dead-line maps, the
// maps and the shares compared; declarations' name test (a name in the file's text) line by line as
// before beside one scan of the whole text; and rerank's definition signal (boosts.ts textSignals)
// of each name over every chunk that holds it.
// `--decoded`: before the rounds, one untimed process per build counts what the warm queries decode
// (each file the session's file cache inflates: its text's UTF-8 bytes) beside the bytes of the
// lines a search then reads of it (a file whose whole text is read counts whole), and the bytes a
// text kept in independently deflated blocks of 4, 8 or 16 KB (cut at line ends) would inflate
// for the same reads — what a per-block layout of file_data would spare, measured before building it.
//
// `--set NAME=golden.jsonl@indexed-root` (repeatable): before the rounds, every answer of those sets'
// queries (keyword and hybrid) and of the plan's (keyword), at limits 10 and 50, compared between the builds.
//
// `--root-b TREE` / `--set-roots-b DIR`: build B searches its own copy of the tree (and of each set's
// root, DIR/NAME), indexed by B — when B's index holds a record A's build does not read (or the
// other way round), each build then searches an index its own pass wrote.
//
// `--queries N`: derive N queries instead of the bench's 60 (the warm-up and measured slices grow
// with it): what a long-running host's warm queries cost, where the decoded-file cache and the
// garbage collector's old space fill up as they do not over the bench's 34.
//
//   node dist/bench/search-ab.js --a OLD/dist --b NEW/dist --root INDEXED_TREE [--root-b TREE] [--rounds 4] [--queries 60] [--mechanisms] [--decoded] [--set NAME=GOLDEN@ROOT]… [--set-roots-b DIR] [--md out.md]
//   (each dist/ as `npm run build` writes it; the tree indexed already)
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dumpChunks, openIndex } from './lib/chunks.ts';
import { decodeFileData, type StoredFile } from '../core/index/file-data.ts';
import { zlibCodec } from '../runtimes/node/index.ts';
import { deriveQueries, readGolden } from './lib/queries.ts';
import { sliceQueries } from './lib/plan.ts';
import { markdownTable, median, optInt, optString, parseArgs, percentile, probeSets, runMain } from './lib/util.ts';
import type { QueryPlan } from './worker.ts';

interface Ws { search(req: { query: string; limit: number }): Promise<{ hits?: unknown[]; error?: unknown }>; close(): void }
type Open = (root: string) => Promise<Ws>;
interface Sample { q: string; ms: number }
interface ChildOut { first: number; reopen: Sample[]; warmup: Sample[]; measured: Sample[]; pages: Record<string, string>; statements: Record<string, number> }

/** A statement's SQL as the table of statements shows it: one line, the selected columns of a chunk row collapsed. */
const sqlShape = (sql: string) => sql.replace(/\s+/g, ' ').replace(/c\.id AS chunk_id, .*? AS bm\b/, '<chunk row>, bm').trim().slice(0, 120);

const threadMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

/** One build's pass over the plan, in this (new) process. */
async function child(dist: string, root: string, plan: QueryPlan): Promise<ChildOut> {
  const open = ((await import(pathToFileURL(path.join(dist, 'runtimes/node/index.js')).href)) as { openWorkspace: Open }).openWorkspace;
  const out: ChildOut = { first: 0, reopen: [], warmup: [], measured: [], pages: {}, statements: {} };
  // The statements the warm queries run through their search session (SearchSession.statement: the
  // SQL a search runs every time), by shape: what a cost change saves, counted, beside its CPU.
  const { SearchSession } = (await import(pathToFileURL(path.join(dist, 'core/search/session.js')).href)) as { SearchSession: { prototype: { statement(sql: string): unknown } } };
  let counting = false;
  const statement = SearchSession.prototype.statement;
  SearchSession.prototype.statement = function (this: unknown, sql: string) {
    if (counting) out.statements[sqlShape(sql)] = (out.statements[sqlShape(sql)] ?? 0) + 1;
    return statement.call(this, sql);
  };
  const timed = async (ws: Ws, q: string): Promise<number> => {
    const t = threadMs();
    const a = await ws.search({ query: q, limit: plan.limit });
    const ms = threadMs() - t;
    out.pages[q] = JSON.stringify(a.hits ?? a.error ?? a);
    return ms;
  };
  let ws = await open(root);
  // The process's first search compiles the search path (the bench's new-process row): not a reopen's.
  out.first = await timed(ws, plan.warmup[0]);
  ws.close();
  for (const q of plan.reopen) {
    ws = await open(root);
    out.reopen.push({ q, ms: await timed(ws, q) });
    ws.close();
  }
  ws = await open(root);
  counting = true;
  for (const q of plan.warmup.slice(1)) out.warmup.push({ q, ms: await timed(ws, q) });
  for (const q of plan.measured) out.measured.push({ q, ms: await timed(ws, q) });
  counting = false;
  ws.close();
  return out;
}

/** What one build's warm queries decode (`--decoded`): per query, bytes inflated, read, and per block size. */
interface Decoded { q: string; files: number; inflated: number; read: number; blocks: Record<number, number> }
const BLOCKS = [4096, 8192, 16384];

/** One build's pass over the plan (untimed), counting what the file cache decodes for each warm query (see the header). */
async function decoded(dist: string, root: string, plan: QueryPlan): Promise<Decoded[]> {
  const open = ((await import(pathToFileURL(path.join(dist, 'runtimes/node/index.js')).href)) as { openWorkspace: Open }).openWorkspace;
  type Cache = { has(id: number, hash: string): boolean; get(id: number, hash: string): StoredFile | undefined };
  const { StoredFileCache } = (await import(pathToFileURL(path.join(dist, 'core/search/file-cache.js')).href)) as { StoredFileCache: { prototype: Cache } };
  const bytes = (s: string) => Buffer.byteLength(s, 'utf8');
  let now: Map<number, { file: StoredFile; lines: Set<number>; whole: boolean }> | null = null;
  const get = StoredFileCache.prototype.get;
  StoredFileCache.prototype.get = function (this: Cache, id: number, hash: string) {
    const miss = !this.has(id, hash);
    const file = get.call(this, id, hash);
    if (!now || !file) return file;
    let e = now.get(id);
    if (miss && !e) now.set(id, (e = { file, lines: new Set(), whole: false }));
    if (!e) return file;
    const seen = e;
    // The lines read (by index) and whether the text was read whole.
    const lines = new Proxy(file.lines, { get: (t, k, r) => (typeof k === 'string' && /^\d+$/.test(k) && seen.lines.add(Number(k)), Reflect.get(t, k, r)) });
    return new Proxy(file, { get: (t, k, r) => (k === 'lines' ? lines : (k === 'text' && (seen.whole = true), Reflect.get(t, k, r))) });
  };
  const out: Decoded[] = [];
  const ws = await open(root);
  try {
    await ws.search({ query: plan.warmup[0], limit: plan.limit });
    for (const q of [...plan.warmup.slice(1), ...plan.measured]) {
      now = new Map();
      await ws.search({ query: q, limit: plan.limit });
      const d: Decoded = { q, files: now.size, inflated: 0, read: 0, blocks: Object.fromEntries(BLOCKS.map((b) => [b, 0])) };
      for (const e of now.values()) {
        const sizes = e.file.lines.map((l) => bytes(l) + 1);
        d.inflated += bytes(e.file.text);
        for (const [i, n] of sizes.entries()) if (e.whole || e.lines.has(i)) d.read += n;
        for (const b of BLOCKS) {
          let size = 0;
          let used = false;
          for (const [i, n] of sizes.entries()) {
            size += n;
            used ||= e.whole || e.lines.has(i);
            if (size >= b || i === sizes.length - 1) {
              if (used) d.blocks[b] += size;
              size = 0;
              used = false;
            }
          }
        }
      }
      out.push(d);
    }
  } finally {
    now = null;
    ws.close();
  }
  return out;
}

/** `--decoded`'s table: each build's warm queries, summed, and the measured slice's costliest. */
function decodedTable(runs: Record<'A' | 'B', Decoded[]>, measured: readonly string[]): string {
  const kb = (n: number) => (n / 1024).toFixed(0);
  const sum = (ds: Decoded[], f: (d: Decoded) => number) => ds.reduce((n, d) => n + f(d), 0);
  const row = (label: string, ds: Decoded[]) => [label, String(sum(ds, (d) => d.files)), kb(sum(ds, (d) => d.inflated)), kb(sum(ds, (d) => d.read)), ...BLOCKS.map((b) => kb(sum(ds, (d) => d.blocks[b])))];
  const rows = (['A', 'B'] as const).flatMap((s) => [row(`${s}: all ${runs[s].length} warm queries`, runs[s]), row(`${s}: the measured ${measured.length}`, runs[s].filter((d) => measured.includes(d.q)))]);
  const top = runs.A.filter((d) => measured.includes(d.q)).sort((x, y) => y.inflated - x.inflated).slice(0, 6).map((d) => row(`A: ${d.q}`, [d]));
  return markdownTable(['warm queries (files the session cache decodes)', 'files', 'KB inflated', 'KB of lines read', ...BLOCKS.map((b) => `KB in ${b / 1024} KB blocks`)], [...rows, ...top]);
}

/** One set's queries (a golden file's, or the plan's) over an indexed root: what `answers` asks. */
interface AnswerSet { name: string; root: string; queries: string[]; modes: string[] }

/**
 * Every answer of the sets (`--set`: keyword and hybrid; the tree's plan: keyword) at limits 10 and
 * 50 from one build, in this (new) process, by `set|mode|limit|query`: not timed, compared only.
 */
async function answers(dist: string, sets: AnswerSet[]): Promise<Record<string, string>> {
  const open = ((await import(pathToFileURL(path.join(dist, 'runtimes/node/index.js')).href)) as { openWorkspace: (root: string) => Promise<Ws & { search(req: { query: string; limit: number; mode?: string }): Promise<{ hits?: unknown[]; error?: unknown }> }> }).openWorkspace;
  const out: Record<string, string> = {};
  for (const set of sets) {
    const ws = await open(set.root);
    try {
      for (const mode of set.modes) for (const limit of [10, 50]) for (const q of set.queries) {
        const a = await ws.search({ query: q, limit, mode });
        out[`${set.name}|${mode}|${limit}|${q}`] = JSON.stringify(a.hits ?? a.error ?? a);
      }
    } finally {
      ws.close();
    }
  }
  return out;
}

type Boosts = { textSignals(text: string, phrase: string, targets: readonly string[], cache: Map<string, RegExp[]>): { exact: boolean; definition: boolean } };
type DeadCode = { deadLines(lines: readonly string[], lang: string): Uint8Array; deadShare(dead: Uint8Array, lines: readonly string[], start: number, end: number, words?: readonly string[]): number };

/** Min of `n` passes of each of `fs`, the passes alternated (ms, wall: one thread, short passes). */
function minOf(n: number, fs: Array<() => unknown>): number[] {
  const best = fs.map(() => Infinity);
  for (let i = 0; i < n; i++) {
    for (const [k, f] of fs.entries()) {
      const t = performance.now();
      f();
      best[k] = Math.min(best[k], performance.now() - t);
    }
  }
  return best;
}

/** The mechanisms (see the header), as markdown rows. */
async function mechanisms(root: string, builds: Record<'A' | 'B', string>, names: string[]): Promise<string> {
  const db = await openIndex(root);
  let files: Array<{ id: number; lang: string; stored: StoredFile }>;
  let chunks: Array<[number, number, number]>;
  try {
    files = (db.selectArrays('SELECT f.id, f.lang, d.data FROM files f JOIN file_data d ON d.file_id = f.id ORDER BY f.id') as Array<[number, string, Uint8Array]>)
      .map(([id, lang, data]) => ({ id: Number(id), lang: String(lang), stored: decodeFileData(data, zlibCodec) }));
    chunks = db.selectArrays('SELECT file_id, start_line, end_line FROM chunks ORDER BY id') as Array<[number, number, number]>;
  } finally {
    db.close();
  }
  const mod = async (s: 'A' | 'B') => (await import(pathToFileURL(path.join(builds[s], 'core/search/dead-code.js')).href)) as DeadCode;
  const dc = { A: await mod('A'), B: await mod('B') };
  const maps = { A: files.map((f) => dc.A.deadLines(f.stored.lines, f.lang)), B: files.map((f) => dc.B.deadLines(f.stored.lines, f.lang)) };
  const sameMaps = files.filter((_, i) => maps.A[i].join() !== maps.B[i].join()).length;
  const byId = new Map(files.map((f, i) => [f.id, i]));
  const words = ['view', 'model', 'changed'];
  const shares = (s: 'A' | 'B') => chunks.map(([fileId, a, b]) => {
    const i = byId.get(Number(fileId));
    return i === undefined ? 0 : dc[s].deadShare(maps.B[i], files[i].stored.lines, Number(a), Number(b), words);
  });
  const sameShares = shares('A').join() === shares('B').join();
  const [shareA, shareB] = minOf(7, [() => shares('A'), () => shares('B')]);
  // declarations.ts's name test (its nameTest regex, new per name as there): each line, or the text whole.
  const byLine = () => names.map((n) => {
    const re = new RegExp(n, 'iu');
    return files.filter((f) => f.stored.lines.some((l) => re.test(l))).length;
  });
  const whole = () => names.map((n) => {
    const re = new RegExp(n, 'iu');
    return files.filter((f) => re.test(f.stored.text ?? '')).length;
  });
  const sameNames = byLine().join() === whole().join();
  const [nameA, nameB] = minOf(7, [byLine, whole]);
  // Rerank's definition signal (boosts.ts textSignals) of each name over every chunk holding it as a word.
  const bo = async (s: 'A' | 'B') => (await import(pathToFileURL(path.join(builds[s], 'core/search/boosts.js')).href)) as Boosts;
  const boosts = { A: await bo('A'), B: await bo('B') };
  const texts = chunks.map(([fileId, a, b]) => files[byId.get(Number(fileId))!]?.stored.lines.slice(Number(a) - 1, Number(b)).join('\n') ?? '');
  const holders = names.map((n) => ({ n, texts: texts.filter((t) => new RegExp(`(?<!\\w)${n}(?!\\w)`).test(t)) }));
  const signals = (s: 'A' | 'B') => holders.map(({ n, texts: ts }) => {
    const cache = new Map<string, RegExp[]>();
    return ts.filter((t) => boosts[s].textSignals(t, n.toLowerCase(), [n], cache).definition).length;
  });
  const sameSignals = signals('A').join() === signals('B').join();
  const [sigA, sigB] = minOf(7, [() => signals('A'), () => signals('B')]);
  const lineCount = files.reduce((n, f) => n + f.stored.lines.length, 0);
  return markdownTable(['step (all stored files of the tree, min of 7)', 'A ms', 'B ms', 'same output'], [
    [`dead shares: deadShare over ${chunks.length} chunks of ${files.length} files, ${lineCount} lines (words ${words.join(', ')}; the dead-line maps ${sameMaps === 0 ? 'identical' : `differ in ${sameMaps} files`})`, f2(shareA), f2(shareB), sameShares ? 'yes' : 'NO'],
    [`name test: ${names.length} names × ${files.length} files, each line (A) / the whole text (B)`, f2(nameA), f2(nameB), sameNames ? 'yes' : 'NO'],
    [`definition signal: textSignals of each name over the ${holders.reduce((n, h) => n + h.texts.length, 0)} chunks holding it`, f2(sigA), f2(sigB), sameSignals ? 'yes' : 'NO'],
  ]);
}

const f2 = (x: number) => x.toFixed(2);
const f3 = (x: number) => x.toFixed(3);
const p50p95 = (xs: number[]) => `${f2(percentile(xs, 50))} / ${f2(percentile(xs, 95))}`;

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['mechanisms', 'decoded']);
  const root = optString(opts, 'root');
  if (optString(opts, 'answers-child')) {
    const sets = JSON.parse(fs.readFileSync(optString(opts, 'sets')!, 'utf8')) as AnswerSet[];
    process.stdout.write(JSON.stringify(await answers(path.resolve(optString(opts, 'answers-child')!), sets)));
    return 0;
  }
  if (optString(opts, 'decoded-child')) {
    const plan = JSON.parse(fs.readFileSync(optString(opts, 'plan')!, 'utf8')) as QueryPlan;
    process.stdout.write(JSON.stringify(await decoded(path.resolve(optString(opts, 'decoded-child')!), root!, plan)));
    return 0;
  }
  if (optString(opts, 'child')) {
    const plan = JSON.parse(fs.readFileSync(optString(opts, 'plan')!, 'utf8')) as QueryPlan;
    process.stdout.write(JSON.stringify(await child(path.resolve(optString(opts, 'child')!), root!, plan)));
    return 0;
  }
  const [a, b] = [optString(opts, 'a'), optString(opts, 'b')];
  if (!a || !b || !root) throw new Error('usage: search-ab --a DIST --b DIST --root INDEXED_TREE [--root-b TREE] [--rounds 4] [--md out.md]');
  const roots = { A: root, B: optString(opts, 'root-b') ?? root } as const;
  const setRootsB = optString(opts, 'set-roots-b');
  const rounds = optInt(opts, 'rounds', 4);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-search-ab-'));
  try {
    const dump = path.join(tmp, 'chunks.jsonl');
    await dumpChunks(root, dump);
    // The bench's defaults (bench.ts DEFAULT_BENCH): the same reopen, warm-up and measured slices.
    // `--queries N`: a larger derived set (the bench's is 60), its slices as long: a long-running host's warm queries.
    const { plan } = sliceQueries(deriveQueries(dump, optInt(opts, 'queries', 60)), { repeat: 3, coldQueries: 5, reopenQueries: 10, queryRepeat: 5, limit: 10 });
    const planFile = path.join(tmp, 'plan.json');
    fs.writeFileSync(planFile, JSON.stringify(plan));
    const builds = { A: path.resolve(a), B: path.resolve(b) } as const;
    // The identifiers of the plan's queries (declarations look each up).
    const names = [...new Set([...plan.reopen, ...plan.warmup, ...plan.measured].flatMap((q) => q.split(' ')).filter((w) => /^[A-Z]\w{3,}$/.test(w)))];
    const mech = opts.mechanisms === true ? await mechanisms(root, builds, names) : '';
    let decodedMd = '';
    if (opts.decoded === true) {
      const got = (['A', 'B'] as const).map((s) => {
        const p = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--decoded-child', builds[s], '--root', roots[s], '--plan', planFile], { encoding: 'utf8', maxBuffer: 256 << 20 });
        if (p.status !== 0) throw new Error(`build ${s}: ${p.stderr}`);
        return JSON.parse(p.stdout) as Decoded[];
      });
      decodedMd = decodedTable({ A: got[0], B: got[1] }, plan.measured);
    }
    const runs: Record<'A' | 'B', ChildOut[]> = { A: [], B: [] };
    const loads: number[] = [os.loadavg()[0]];
    const self = fileURLToPath(import.meta.url);
    // `--set NAME=golden.jsonl@indexed-root`: every answer of those sets and of the plan, compared between the builds.
    let compared = '';
    let setDiffs = 0;
    if (opts.set !== undefined) {
      const sets: AnswerSet[] = [
        ...probeSets(opts).map((x) => ({ name: x.name, root: x.root, queries: readGolden(x.golden).map((g) => g.query), modes: ['keyword', 'hybrid'] })),
        { name: path.basename(root), root, queries: [...new Set([...plan.reopen, ...plan.warmup, ...plan.measured])], modes: ['keyword'] },
      ];
      const setsFile = (s: 'A' | 'B') => {
        const file = path.join(tmp, `sets-${s}.json`);
        const own = s === 'A' ? sets : sets.map((x, i) => (i === sets.length - 1 ? { ...x, root: roots.B } : setRootsB ? { ...x, root: path.join(setRootsB, x.name) } : x));
        fs.writeFileSync(file, JSON.stringify(own));
        return file;
      };
      const got = (['A', 'B'] as const).map((s) => {
        const p = spawnSync(process.execPath, [...process.execArgv, self, '--answers-child', builds[s], '--sets', setsFile(s)], { encoding: 'utf8', maxBuffer: 1 << 30 });
        if (p.status !== 0) throw new Error(`build ${s}: ${p.stderr}`);
        return JSON.parse(p.stdout) as Record<string, string>;
      });
      const keys = Object.keys(got[0]);
      const differ = keys.filter((k) => got[0][k] !== got[1][k]);
      setDiffs = differ.length;
      compared = `Answers of the sets (${sets.map((x) => `${x.name} ${x.queries.length} × ${x.modes.join('+')}`).join(', ')}; limits 10 and 50): ${keys.length} answers, ${differ.length ? `${differ.length} differ: ${differ.slice(0, 10).join('; ')}` : 'all identical between the builds (hits as JSON, scores included)'}.`;
    }
    for (let r = 0; r < rounds; r++) {
      for (const s of r % 2 ? (['B', 'A'] as const) : (['A', 'B'] as const)) {
        const p = spawnSync(process.execPath, [...process.execArgv, self, '--child', builds[s], '--root', roots[s], '--plan', planFile], { encoding: 'utf8', maxBuffer: 256 << 20 });
        if (p.status !== 0) throw new Error(`build ${s}: ${p.stderr}`);
        runs[s].push(JSON.parse(p.stdout) as ChildOut);
        loads.push(os.loadavg()[0]);
      }
    }
    if (!rounds) {
      console.log([mech, decodedMd].filter(Boolean).join('\n\n'));
      return 0;
    }
    // Same answers: every query's hits, build A's first run against every run of both.
    const ref = runs.A[0].pages;
    const differ = Object.keys(ref).filter((q) => [...runs.A, ...runs.B].some((o) => o.pages[q] !== ref[q]));
    const rows: string[][] = [];
    for (const s of ['A', 'B'] as const) {
      const pool = (k: 'reopen' | 'warmup' | 'measured') => runs[s].flatMap((o) => o[k].map((x) => x.ms));
      rows.push([`${s}`, p50p95(pool('reopen')), p50p95(pool('measured')), p50p95(pool('warmup')), f2(median(runs[s].map((o) => o.first)))]);
    }
    // Paired by round (the two processes of a round ran next to each other): each process's CPU over its
    // warm queries (warm-up slice and measured), B's over A's — under load a pair shares the machine's state.
    const warmSum = (o: ChildOut) => [...o.warmup, ...o.measured].reduce((n, x) => n + x.ms, 0);
    const ratios = runs.A.map((a, r) => warmSum(runs.B[r]) / warmSum(a));
    const paired = `Paired by round (each process's thread CPU over its ${plan.warmup.length - 1 + plan.measured.length} warm queries, warm-up and measured slices): B/A ${ratios.map(f3).join(', ')}; median ${f3(median(ratios))}, B lower in ${ratios.filter((x) => x < 1).length} of ${ratios.length} rounds; sums A ${f2(median(runs.A.map(warmSum)))} / B ${f2(median(runs.B.map(warmSum)))} ms (medians).`;
    // The slowest measured queries, by each build's median over the rounds.
    const per = (s: 'A' | 'B', q: string) => median(runs[s].map((o) => o.measured.find((x) => x.q === q)!.ms));
    const slow = plan.measured.map((q) => ({ q, a: per('A', q), b: per('B', q) })).sort((x, y) => y.a - x.a).slice(0, 8);
    // Statements whose count differs between the builds (each process's warm queries; medians over the rounds).
    const count = (s: 'A' | 'B', k: string) => median(runs[s].map((o) => o.statements[k] ?? 0));
    const shapes = [...new Set([...runs.A, ...runs.B].flatMap((o) => Object.keys(o.statements)))];
    const counted = shapes.map((k) => ({ k, a: count('A', k), b: count('B', k) })).filter((x) => x.a !== x.b).sort((x, y) => y.a - x.a);
    const total = (s: 'A' | 'B') => median(runs[s].map((o) => Object.values(o.statements).reduce((n, x) => n + x, 0)));
    const md = [
      `Builds: A = ${builds.A}, B = ${builds.B}; tree ${root}${roots.B !== root ? ` (B: its own copy ${roots.B}${setRootsB ? `, the sets' under ${setRootsB}` : ''})` : ''}; ${rounds} rounds, one new process per build and round, alternated (A B, B A, …).`,
      `Node ${process.version}, ${os.cpus().length} cores, load average (1 min) ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} over the run.`,
      `Queries: the bench's derived set and slices — ${plan.reopen.length} reopen, ${plan.warmup.length - 1} warm-up (+1: each process's first search), ${plan.measured.length} measured; percentiles pool every round's samples.`,
      ...(compared ? [compared] : []),
      `Answers: ${differ.length ? `${differ.length} queries answered differently: ${differ.join(', ')}` : `all ${Object.keys(ref).length} queries' hits identical between the builds and across the rounds`}.`,
      '',
      markdownTable(['build', 'first after open (thread CPU ms, p50 / p95)', 'warm, new query (p50 / p95)', 'warm-up slice (p50 / p95)', "process's first search (median)"], rows),
      '',
      paired,
      '',
      markdownTable(['slowest measured query (A)', 'A median ms', 'B median ms'], slow.map((x) => [x.q, f2(x.a), f2(x.b)])),
      '',
      `Statements the warm queries ran through their search session (SearchSession.statement), per process: A ${total('A')}, B ${total('B')}${counted.length ? '; those whose count differs:' : ' (no shape differs).'}`,
      '',
      ...(counted.length ? [markdownTable(['statement (shape)', 'A', 'B'], counted.map((x) => [`\`${x.k.replace(/\|/g, '\\|')}\``, String(x.a), String(x.b)])), ''] : []),
      ...(mech ? [mech, ''] : []),
      ...(decodedMd ? ['What the warm queries decode (`--decoded`: one untimed process per build; bytes of stored text, UTF-8):', '', decodedMd, ''] : []),
    ].join('\n');
    console.log(md);
    const out = optString(opts, 'md');
    if (out) fs.writeFileSync(out, md);
    return differ.length || setDiffs ? 1 : 0;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await runMain(import.meta.url, 'search-ab', main);
