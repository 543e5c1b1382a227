// `node dist/bench/rank-probe.js`: a ranking change's quick check against indexes already built, for
// trying settings side by side without re-indexing (npm run eval stays the measure of record: it
// indexes a fresh copy). Per golden set: file-level R@1/R@5/MRR@10/nDCG@10 (the eval's metrics, over
// distinct files of a 50-hit answer), nDCG@10 over the first ten hits *as returned* (bench/lib/metrics.ts
// ndcg10Returned: a second chunk of a file takes a slot and earns nothing), identifier queries at rank 1, short pages (a default-limit
// page with fewer hits than its limit while a 50-hit answer has more, or with no next_cursor although
// more exists), and warm search latency p50/p95 of the default-limit searches.
//
// --types NAME=<indexed root>: type names as queries, derived from the index's own outlines (classes,
// interfaces, records, structs, enums declared in C# files outside tests, samples and docs; at most
// 150, in a fixed hash order): the declaring file at rank 1, the rank-1 hit holding a declaration's
// first line, and short pages. --kinds field,constant,property,enum_member takes those outline kinds'
// names instead (not those a type declares too), --max-decl-files N only names declared in at most N
// files (a member name that names one place, not `Value`).
//
//   node dist/bench/rank-probe.js --set Mud=<golden.jsonl>@<indexed root> [--set …] [--types Mud=<root>]
//        [--kinds k1,k2] [--max-decl-files N] [--settings '{"file_chunks_bonus":0}'] [--label NAME] [--out results.json] [--queries]
// The root must hold an index built by this checkout (`hci index <root>`); nothing is written to it.
import * as fs from 'node:fs';
import { openWorkspace } from '../runtimes/node/index.ts';
import { readGolden } from './lib/queries.ts';
import { scoreQuery, type Metrics } from './lib/metrics.ts';
import { hash32, mean, now, parseArgs, optString, runMain } from './lib/util.ts';
import { openIndex } from './lib/chunks.ts';
import type { OutlineSymbol } from '../core/contract/outline.ts';

interface ProbeQuery {
  id: string;
  query: string;
  kind: string;
  rank1: boolean;
  r5: number;
  mrr: number;
  ndcgReturned: number;
  short: boolean;
  top: string[];
  /** Rows with a declaration (type names): the first hit's lines hold it. */
  declAt1?: boolean;
}

interface ProbeSet {
  name: string;
  overall: Metrics;
  byKind: Record<string, Metrics>;
  identifierRank1: { hit: number; total: number };
  declarationAt1: { hit: number; total: number; misses: string[] };
  shortPages: string[];
  p50: number;
  p95: number;
  queries: ProbeQuery[];
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : 0;
}

async function probeSet(name: string, golden: string, root: string, settings: Record<string, unknown>): Promise<ProbeSet> {
  const ws = await openWorkspace(root, { settings });
  try {
    const queries: ProbeQuery[] = [];
    const times: number[] = [];
    const shortPages: string[] = [];
    const metrics = new Map<ProbeQuery, Omit<Metrics, 'n'>>();
    const declMisses: string[] = [];
    const gs = readGolden(golden);
    // One warm-up pass so the latencies are warm ones (the session's caches, compiled code).
    for (const g of gs.slice(0, 10)) await ws.search({ query: g.query, limit: 8 });
    for (const g of gs) {
      const wide = await ws.search({ query: g.query, limit: 50 });
      const t0 = now();
      const page = await ws.search({ query: g.query });
      times.push(now() - t0);
      const ten = await ws.search({ query: g.query, limit: 10 });
      const s = scoreQuery(wide.hits.map((h) => h.path), g.relevant);
      const short = (page.hits.length < 8 && wide.hits.length > page.hits.length) || (!page.next_cursor && wide.hits.length > page.hits.length);
      if (short) shortPages.push(`${g.query} (${page.hits.length} hits${page.next_cursor ? ', cursor' : ', no cursor'}; 50-hit answer has ${wide.hits.length})`);
      const q: ProbeQuery = {
        id: g.id ?? '', query: g.query, kind: g.kind, rank1: s.recall1 === 1, r5: s.recall5, mrr: s.mrr10,
        ndcgReturned: scoreQuery(ten.hits.map((h) => h.path), g.relevant).ndcg10Returned, short, top: [...new Set(wide.hits.map((h) => h.path))].slice(0, 5),
      };
      const d = (g as { declaration?: { path: string; line: number; of: string } }).declaration;
      if (d?.of === 'type') {
        const h = page.hits[0];
        q.declAt1 = !!h && h.path === d.path && h.start_line <= d.line && d.line <= h.end_line;
        if (!q.declAt1) declMisses.push(`${g.query} (want ${d.path.split('/').pop()}:${d.line}, got ${h ? `${h.path.split('/').pop()}:${h.start_line}-${h.end_line}` : 'nothing'})`);
      }
      queries.push(q);
      metrics.set(q, s);
    }
    const agg = (qs: ProbeQuery[]) => {
      const ms = qs.map((q) => metrics.get(q)!);
      return {
        n: qs.length, recall1: mean(ms.map((m) => m.recall1)), recall5: mean(ms.map((m) => m.recall5)), recall10: mean(ms.map((m) => m.recall10)),
        mrr10: mean(ms.map((m) => m.mrr10)), ndcg10: mean(ms.map((m) => m.ndcg10)), ndcg10Returned: mean(qs.map((q) => q.ndcgReturned)),
      };
    };
    const byKind: ProbeSet['byKind'] = {};
    for (const k of [...new Set(queries.map((q) => q.kind))].sort()) byKind[k] = agg(queries.filter((q) => q.kind === k));
    const ids = queries.filter((q) => q.kind === 'identifier' || q.kind === 'symbol');
    const decls = queries.filter((q) => q.declAt1 !== undefined);
    return { name, overall: agg(queries), byKind, identifierRank1: { hit: ids.filter((q) => q.rank1).length, total: ids.length }, declarationAt1: { hit: decls.filter((q) => q.declAt1).length, total: decls.length, misses: declMisses }, shortPages, p50: pct(times, 0.5), p95: pct(times, 0.95), queries };
  } finally {
    ws.close();
  }
}

const TYPE_KINDS = new Set(['class', 'interface', 'record', 'struct', 'enum']);
const NOT_SOURCE = /(^|\/)(tests?|[^/]*tests?|samples?|demos?|examples?|docs?|benchmarks?)(\/|$)/i;

interface TypeQuery {
  name: string;
  /** Declaring files and the first line of each declaration. */
  decls: Array<{ path: string; line: number }>;
}

/** What --types derives its names from: outline kinds, and at most this many declaring files per name. */
interface NameKinds {
  kinds: ReadonlySet<string>;
  maxFiles: number;
}

/** Names of the given kinds declared in the index's C# source files (see the header), in a fixed hash order. */
async function typeQueries(root: string, ws: Awaited<ReturnType<typeof openWorkspace>>, which: NameKinds, max = 150): Promise<TypeQuery[]> {
  const db = await openIndex(root);
  let paths: string[];
  let allPaths: string[];
  try {
    allPaths = (db.selectArrays("SELECT path FROM files WHERE lang = 'csharp' ORDER BY path") as string[][]).map((r) => r[0]);
    paths = allPaths.filter((p) => !NOT_SOURCE.test(p));
  } finally {
    db.close();
  }
  const byName = new Map<string, TypeQuery>();
  // (A member name that something of another kind declares too — the class `Customer` beside
  // Order.Customer, the method `NotFound` beside the enum member, `Body1` beside `body1` — names no one
  // place: left out when other kinds than types are asked for.)
  const otherKind = new Set<string>();
  const types = which.kinds === TYPE_KINDS;
  const walk = (path: string, syms: readonly OutlineSymbol[], source: boolean) => {
    for (const s of syms) {
      if (!which.kinds.has(s.kind)) otherKind.add(s.name.toLowerCase());
      if (source && which.kinds.has(s.kind) && /^[A-Za-z]\w{3,}$/.test(s.name)) {
        // (Types by their exact name; other kinds' case variants are one name: `body1` and `Body1`.)
        const key = types ? s.name : s.name.toLowerCase();
        let q = byName.get(key);
        if (!q) byName.set(key, (q = { name: s.name, decls: [] }));
        q.decls.push({ path, line: s.start_line });
      }
      if (s.children) walk(path, s.children, source);
    }
  };
  const source = new Set(paths);
  for (const p of types ? paths : allPaths) {
    const o = await ws.outline(p);
    if (o.status === 'ok') walk(p, o.symbols ?? [], source.has(p));
  }
  const named = [...byName.values()].filter((q) => new Set(q.decls.map((d) => d.path)).size <= which.maxFiles && (types || !otherKind.has(q.name.toLowerCase())));
  return named.sort((a, b) => hash32(a.name) - hash32(b.name) || (a.name < b.name ? -1 : 1)).slice(0, max);
}

interface TypeSet {
  name: string;
  queries: number;
  fileAt1: number;
  declAt1: number;
  shortPages: string[];
  misses: string[];
  p50: number;
  p95: number;
}

async function probeTypes(name: string, root: string, settings: Record<string, unknown>, which: NameKinds): Promise<TypeSet> {
  const ws = await openWorkspace(root, { settings });
  try {
    const qs = await typeQueries(root, ws, which);
    const out: TypeSet = { name, queries: qs.length, fileAt1: 0, declAt1: 0, shortPages: [], misses: [], p50: 0, p95: 0 };
    const times: number[] = [];
    for (const q of qs.slice(0, 5)) await ws.search({ query: q.name });
    for (const q of qs) {
      const t0 = now();
      const page = await ws.search({ query: q.name });
      times.push(now() - t0);
      const top = page.hits[0];
      const files = new Set(q.decls.map((d) => d.path));
      if (top && files.has(top.path)) out.fileAt1++;
      const decl = top && q.decls.some((d) => d.path === top.path && d.line >= top.start_line && d.line <= top.end_line);
      if (decl) out.declAt1++;
      else out.misses.push(`${q.name} → ${top ? `${top.path.split('/').pop()}:${top.start_line}-${top.end_line} ${top.symbol?.kind ?? ''} ${top.symbol?.name ?? ''}` : 'nothing'} (decl ${q.decls.map((d) => `${d.path.split('/').pop()}:${d.line}`).join(', ')})`);
      if (page.hits.length < 8 || !page.next_cursor) {
        const wide = await ws.search({ query: q.name, limit: 50 });
        if (wide.hits.length > page.hits.length) out.shortPages.push(`${q.name} (${page.hits.length} hits${page.next_cursor ? ', cursor' : ', no cursor'}; 50-hit answer has ${wide.hits.length})`);
      }
    }
    out.p50 = pct(times, 0.5);
    out.p95 = pct(times, 0.95);
    return out;
  } finally {
    ws.close();
  }
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['queries']);
  const sets = ([] as string[]).concat((opts.set as string | string[] | undefined) ?? []);
  const settings = JSON.parse(optString(opts, 'settings') ?? '{}') as Record<string, unknown>;
  const out: ProbeSet[] = [];
  const f = (x: number) => x.toFixed(3);
  for (const spec of sets) {
    const m = /^([^=]+)=(.+)@(.+)$/.exec(spec);
    if (!m) throw new Error(`--set NAME=golden.jsonl@root, got ${spec}`);
    const r = await probeSet(m[1], m[2], m[3], settings);
    out.push(r);
    const o = r.overall;
    process.stdout.write(`${r.name.padEnd(16)} R@1 ${f(o.recall1)} R@5 ${f(o.recall5)} MRR ${f(o.mrr10)} nDCG ${f(o.ndcg10)} nDCGret ${f(o.ndcg10Returned)} id@1 ${r.identifierRank1.hit}/${r.identifierRank1.total} decl@1 ${r.declarationAt1.hit}/${r.declarationAt1.total} short ${r.shortPages.length} p50 ${r.p50.toFixed(1)} p95 ${r.p95.toFixed(1)} ms\n`);
    for (const [k, v] of Object.entries(r.byKind)) process.stdout.write(`   ${k.padEnd(18)} n=${String(v.n).padStart(3)} R@1 ${f(v.recall1)} R@5 ${f(v.recall5)} MRR ${f(v.mrr10)} nDCGret ${f(v.ndcg10Returned)}\n`);
    if (opts.queries) {
      for (const s of r.shortPages) process.stdout.write(`   short: ${s}\n`);
      for (const s of r.declarationAt1.misses) process.stdout.write(`   decl miss: ${s}\n`);
    }
  }
  const typeSets: TypeSet[] = [];
  const kinds = optString(opts, 'kinds');
  const which: NameKinds = { kinds: kinds ? new Set(kinds.split(',')) : TYPE_KINDS, maxFiles: Number(optString(opts, 'max-decl-files') ?? Infinity) };
  for (const spec of ([] as string[]).concat((opts.types as string | string[] | undefined) ?? [])) {
    const m = /^([^=]+)=(.+)$/.exec(spec);
    if (!m) throw new Error(`--types NAME=root, got ${spec}`);
    const t = await probeTypes(m[1], m[2], settings, which);
    typeSets.push(t);
    process.stdout.write(`${(t.name + ' types').padEnd(16)} n=${t.queries} file@1 ${f(t.fileAt1 / t.queries)} decl@1 ${f(t.declAt1 / t.queries)} short ${t.shortPages.length} p50 ${t.p50.toFixed(1)} p95 ${t.p95.toFixed(1)} ms\n`);
    if (opts.queries) {
      for (const s of t.shortPages) process.stdout.write(`   short: ${s}\n`);
      for (const s of t.misses) process.stdout.write(`   miss: ${s}\n`);
    }
  }
  const file = optString(opts, 'out');
  if (file) fs.writeFileSync(file, JSON.stringify({ label: optString(opts, 'label') ?? '', settings, sets: out, types: typeSets }, null, 1));
  return 0;
}

await runMain(import.meta.url, 'rank-probe', main);
