// Fusion variants replayed on fusion-dump.ts's lists (keyword's finished ranking and the vector
// channel's neighbours by cosine, per golden query, as the search path gave them): the product's
// hybrid fusion (core/search/fuse.ts: min-max over each channel's first 50, file evidence,
// 0.65 / 0.35, keyword's first 3 files kept, routing) rebuilt over those lists, and variants of it,
// each scored at file level against keyword per repository (R@5, MRR@10, rank-1 hits lost). How far
// the rebuild agrees with the product's own hybrid answer is printed first (its top 5 files).
// Seconds per run; what is kept is then measured end to end (`fusion-dump.ts`, `npm run eval -- --semantic`).
//
//   node dist/bench/model/fusion-replay.js --dump /tmp/fusion-dump [--provider pretrained] [--variants default,bounded:2,...] [--record NAME]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseQuery } from '../../core/search/query.ts';
import { fusionType, keywordRoute } from '../../core/search/fuse.ts';
import { roleFactor, rolesNamedBy } from '../../core/search/roles.ts';
import { pathRole } from '../../core/scan/roles.ts';
import { defaultSettings } from '../../core/settings.ts';
import { distinct, scoreQuery } from '../lib/metrics.ts';
import { fmtNum, isMain, markdownTable, mean, optList, optString, parseArgs } from '../lib/util.ts';
import { commitInfo, recordResult } from '../lib/record.ts';

type Row = [string, number, number, number, number | null, (number | null)?];
export interface DumpQuery { id?: string; query: string; kind: string; relevant: string[]; keyword: Row[]; vector: Row[]; hybrid: Row[]; keywordMatch?: string }
interface Dump { set: string; repo: string; provider: string; queries: DumpQuery[] }

export interface FusionVariant {
  weights: [number, number];
  guard: number;
  /** Keyword's file at file rank r (past the guard) ends no lower than r + bound (null: no bound). */
  bound: number | null;
  /** A file only the vector channel found enters only when its cosine reaches this share of the best cosine of a keyword top-`agreeK` file. */
  agree: number | null;
  agreeK: number;
  /** A candidate with no keyword evidence (neither it nor its file in keyword's list) has its fused score times this. */
  solo: number;
  /** Keyword's files keep their own order among themselves: the vector channel only inserts files (at the places fusion gives them). */
  kwOrder: boolean;
  /** The vector value counts only for chunks whose cosine reaches this share of the best cosine of a keyword top-`agreeK` file (none there: no vector value at all). */
  vgate: number | null;
  /** The vector value times the hit's path role factor (test 0.3, docs 0.6 …: keyword's rerank applies them, the hybrid vector list is not reranked). */
  roles: boolean;
  /** Only the vector channel's first `vtop` files may enter the answer on their own (the rest only add evidence to keyword's candidates; null: all). */
  vtop: number | null;
  /** Calibration: 'minmax' (the product's), 'z' (each channel's scores z-scored over its list, a missing value at the list's lowest), or 'rrf' (each channel's file rank r weighs 1/(rrfK + r)). */
  calib: 'minmax' | 'z' | 'rrf';
  rrfK: number;
  /** Keyword's files whose normalised keyword value reaches this are kept in place too (past the guard; null: off). */
  gshare: number | null;
  /** Queries of at least `longTerms` content terms fuse with keyword weight `longWeight` (null: the weights for every query). */
  longTerms: number | null;
  longWeight: number;
  /** The vector channel's first `insertN` files (by cosine) that the answer ranks below `insertAt` move up to stand at `insertAt` (1-based; null: off). */
  insertN: number | null;
  insertAt: number;
  /**
   * The confidence gate (fuse.ts setting fusion_gate): it opens when the vector channel's first file leads its
   * second by at least `cgVgap` cosine, keyword's first file's score is at most `cgKlead` times its second's
   * (Infinity: no keyword condition; `cgAny`: or keyword's match is `any`), and that vector file stands below
   * `cgAt`; open, that file moves up to stand at `cgAt` (1-based) and the guard becomes `cgGuard` (null: off).
   */
  cgVgap: number | null;
  cgKlead: number;
  cgAny: boolean;
  cgAt: number;
  cgGuard: number | null;
  /** The gate reads only queries of this fusion type (fuse.ts fusionType; null: every type). */
  cgType: string | null;
}

export const DEFAULT_VARIANT: FusionVariant = { weights: [0.65, 0.35], guard: 3, bound: null, agree: null, agreeK: 10, solo: 1, kwOrder: false, vgate: null, roles: false, vtop: null, calib: 'minmax', rrfK: 10, gshare: null, longTerms: null, longWeight: 0.5, insertN: null, insertAt: 5, cgVgap: null, cgKlead: Infinity, cgAny: false, cgAt: 3, cgGuard: null, cgType: null };

const DEPTH = 50;
const SETTINGS = defaultSettings();
const CAP = 2;

/** A variant from its name: `default`, `bounded:N`, `agree:S[:K]`, `guard:N`, `w:K`, `solo:F`, `kworder`, `vgate:S[:K]`, `roles`, joined with `+`. */
export function parseVariant(name: string): FusionVariant {
  const v: FusionVariant = { ...DEFAULT_VARIANT };
  for (const part of name.split('+')) {
    const [k, a, b] = part.split(':');
    if (k === 'default') continue;
    else if (k === 'bounded') v.bound = Number(a);
    else if (k === 'agree') {
      v.agree = Number(a);
      if (b) v.agreeK = Number(b);
    } else if (k === 'guard') v.guard = Number(a);
    else if (k === 'solo') v.solo = Number(a);
    else if (k === 'kworder') v.kwOrder = true;
    else if (k === 'roles') v.roles = true;
    else if (k === 'vtop') v.vtop = Number(a);
    else if (k === 'gshare') v.gshare = Number(a);
    else if (k === 'insert') {
      v.insertN = Number(a);
      if (b) v.insertAt = Number(b);
    }
    else if (k === 'long') {
      v.longTerms = Number(a);
      v.longWeight = Number(b);
    }
    else if (k === 'z') v.calib = 'z';
    else if (k === 'rrf') {
      v.calib = 'rrf';
      if (a) v.rrfK = Number(a);
    }
    else if (k === 'vgate') {
      v.vgate = Number(a);
      if (b) v.agreeK = Number(b);
    }
    else if (k === 'cgate') {
      v.cgVgap = Number(a);
      if (b) v.cgKlead = Number(b);
      const at = part.split(':')[3];
      if (at) v.cgAt = Number(at);
    } else if (k === 'cgany') v.cgAny = true;
    else if (k === 'cgguard') v.cgGuard = Number(a);
    else if (k === 'cgtype') v.cgType = a;
    else if (k === 'w') v.weights = [Number(a), 1 - Number(a)];
    else throw new Error(`unknown variant part ${part}`);
  }
  return v;
}

/**
 * What the confidence gate reads: the vector list's first file and its cosine lead over the second file
 * (vgap), and keyword's first file's score over its second file's (klead; Infinity with one file).
 */
export function gateSignals(kw: readonly Row[], vec: readonly Row[]): { vfile: string; vgap: number; klead: number } {
  const vbest = new Map<string, number>();
  for (const r of vec) if (!(vbest.get(r[0])! >= (r[4] ?? 0))) vbest.set(r[0], r[4] ?? 0);
  const vs = [...vbest].sort((a, b) => b[1] - a[1]);
  const kbest = new Map<string, number>();
  for (const r of kw) if (!kbest.has(r[0])) kbest.set(r[0], r[3]);
  const ks = [...kbest.values()];
  return { vfile: vs[0]?.[0] ?? '', vgap: vs.length > 1 ? vs[0][1] - vs[1][1] : vs.length ? vs[0][1] : 0, klead: ks.length > 1 && ks[1] > 0 ? ks[0] / ks[1] : Infinity };
}

const keyOf = (r: Row) => `${r[0]}:${r[1]}-${r[2]}`;

/** The files of a fused answer, best first. */
export function replay(q: DumpQuery, v0: FusionVariant): string[] {
  let v = v0;
  const kw = q.keyword;
  const parsed = parseQuery(q.query);
  if (keywordRoute(parsed) || q.vector.length === 0) return distinct(kw.map((r) => r[0]));
  if (v0.longTerms !== null) v = { ...v0, weights: parsed.clauses.length >= v0.longTerms ? [v0.longWeight, 1 - v0.longWeight] : v0.weights };
  // The vector channel's list as the product caps it (2 chunks a file), its first DEPTH.
  const perFile = new Map<string, number>();
  const vec: Row[] = [];
  for (const r of q.vector) {
    const n = (perFile.get(r[0]) ?? 0) + 1;
    perFile.set(r[0], n);
    if (n <= CAP) vec.push(r);
    if (vec.length >= DEPTH) break;
  }
  const kwList = kw.slice(0, DEPTH);
  const norm = (rows: Row[], s: (r: Row) => number) => {
    let xs = rows.map(s);
    if (v.calib === 'z') {
      const mu = mean(xs);
      const sd = Math.sqrt(mean(xs.map((x) => (x - mu) ** 2))) || 1;
      xs = xs.map((x) => (x - mu) / sd);
    } else if (v.calib === 'rrf') {
      const fr = new Map<string, number>();
      for (const r of rows) if (!fr.has(r[0])) fr.set(r[0], fr.size + 1);
      xs = rows.map((r) => 1 / (v.rrfK + fr.get(r[0])!));
    }
    const lo = v.calib === 'minmax' ? Math.min(...xs) : v.calib === 'z' ? Math.min(...xs) : 0;
    const hi = v.calib === 'minmax' ? Math.max(...xs) : v.calib === 'z' ? lo + 1 : 1;
    const byChunk = new Map<string, number>();
    const byFile = new Map<string, number>();
    rows.forEach((r, i) => {
      const x = hi > lo ? (xs[i] - lo) / (hi - lo) : 1;
      byChunk.set(keyOf(r), x);
      if (!(byFile.get(r[0])! >= x)) byFile.set(r[0], x);
    });
    return { byChunk, byFile };
  };
  const nk = norm(kwList, (r) => r[3]);
  const named = rolesNamedBy(parsed);
  const roleOf = (p: string) => (v.roles ? roleFactor(pathRole(p)?.role ?? 'source', SETTINGS, named) : 1);
  const nv0 = norm(vec, (r) => r[4] ?? 0);
  const nv = { byChunk: new Map([...nv0.byChunk].map(([k, x]) => [k, x * roleOf(k.slice(0, k.lastIndexOf(':')))])), byFile: new Map([...nv0.byFile].map(([f, x]) => [f, x * roleOf(f)])) };
  const kwFiles = distinct(kw.map((r) => r[0]));
  const sig = gateSignals(kw, vec);
  const open = v.cgVgap !== null && (v.cgType === null || fusionType(parsed) === v.cgType) && sig.vgap >= v.cgVgap && (sig.klead <= v.cgKlead || (v.cgAny && q.keywordMatch === 'any')) && !kwFiles.slice(0, v.cgAt - 1).includes(sig.vfile);
  const guardFiles = new Set(kwFiles.slice(0, open && v.cgGuard !== null ? v.cgGuard : v.guard));
  if (v.gshare !== null) for (const f of kwFiles) if ((nk.byFile.get(f) ?? 0) >= v.gshare) guardFiles.add(f);
  // Agreement gate: the best cosine among keyword's first agreeK files' chunks in the vector list.
  let gate = -Infinity;
  let vgate = -Infinity;
  if (v.agree !== null || v.vgate !== null) {
    const top = new Set(kwFiles.slice(0, v.agreeK));
    const cos = vec.filter((r) => top.has(r[0])).map((r) => r[4] ?? 0);
    const best = cos.length ? Math.max(...cos) : Infinity;
    if (v.agree !== null) gate = best * v.agree;
    if (v.vgate !== null) vgate = best * v.vgate;
  }
  const kwRank = new Map(kw.map((r, i) => [keyOf(r), i]));
  const cands = new Map<string, Row>();
  for (const r of kwList) cands.set(keyOf(r), r);
  const vecFiles = distinct(vec.map((r) => r[0]));
  const vtopFiles = new Set(v.vtop === null ? vecFiles : vecFiles.slice(0, v.vtop));
  for (const r of vec) {
    if (cands.has(keyOf(r))) continue;
    if (!nk.byFile.has(r[0]) && (r[4] ?? 0) < gate) continue;
    if (!nk.byFile.has(r[0]) && !vtopFiles.has(r[0])) continue;
    cands.set(keyOf(r), r);
  }
  const val = (n: ReturnType<typeof norm>, r: Row) => n.byChunk.get(keyOf(r)) ?? n.byFile.get(r[0]) ?? 0;
  // The vector gate: files whose best cosine is below it get no vector value.
  const fileCos = new Map<string, number>();
  for (const r of vec) if (!(fileCos.get(r[0])! >= (r[4] ?? 0))) fileCos.set(r[0], r[4] ?? 0);
  const vval = (r: Row) => ((fileCos.get(r[0]) ?? -Infinity) >= vgate || vgate === -Infinity ? val(nv, r) : 0);
  const held = kw.filter((r) => guardFiles.has(r[0]));
  const heldKeys = new Set(held.map(keyOf));
  const rest = [...cands.values()].filter((r) => !heldKeys.has(keyOf(r))).map((r) => ({ r, s: (v.weights[0] * val(nk, r) + v.weights[1] * vval(r)) * (nk.byFile.has(r[0]) ? 1 : v.solo) }));
  rest.sort((a, b) => b.s - a.s || (kwRank.get(keyOf(a.r)) ?? Infinity) - (kwRank.get(keyOf(b.r)) ?? Infinity) || (a.r[0] < b.r[0] ? -1 : a.r[0] > b.r[0] ? 1 : 0) || a.r[1] - b.r[1]);
  let files = distinct([...held, ...rest.map((x) => x.r)].map((r) => r[0]));
  if (v.kwOrder) {
    const kwSet = new Set(kwFiles);
    const order = files.filter((f) => kwSet.has(f)).sort((a, b) => kwFiles.indexOf(a) - kwFiles.indexOf(b));
    let i = 0;
    files = files.map((f) => (kwSet.has(f) ? order[i++] : f));
  }
  if (open) {
    // The gate opened: the vector channel's first file stands at cgAt at least.
    const at = files.indexOf(sig.vfile);
    if (at < 0 || at > v.cgAt - 1) files = [...files.slice(0, v.cgAt - 1).filter((f) => f !== sig.vfile), sig.vfile, ...files.slice(v.cgAt - 1).filter((f) => f !== sig.vfile)];
  }
  if (v.insertN !== null) {
    const top = distinct(vec.map((r) => r[0])).slice(0, v.insertN).filter((f) => files.indexOf(f) >= v.insertAt - 1);
    const restF = files.filter((f) => !top.includes(f));
    files = [...restF.slice(0, v.insertAt - 1), ...top, ...restF.slice(v.insertAt - 1)];
  }
  if (v.bound !== null) {
    // Keyword's file at file rank i (0-based) must stand at i + bound or higher.
    const due = new Map(kwFiles.map((f, i) => [f, i + v.bound!]));
    const out: string[] = [];
    const placed = new Set<string>();
    const queue = files.slice();
    while (out.length < files.length) {
      const pos = out.length;
      const late = kwFiles.find((f) => !placed.has(f) && due.get(f)! <= pos);
      const next = late ?? queue.find((f) => !placed.has(f))!;
      out.push(next);
      placed.add(next);
    }
    files = out;
  }
  return files;
}

interface Score { r5: number; mrr: number; r1: boolean }
const score = (files: readonly string[], rel: readonly string[]): Score => {
  const s = scoreQuery(files, rel);
  return { r5: s.recall5, mrr: s.mrr10, r1: s.recall1 > 0 };
};

export function main(argv: string[]): number {
  const { opts } = parseArgs(argv);
  const dir = path.resolve(optString(opts, 'dump') ?? 'bench-results/fusion-dump');
  const provider = optString(opts, 'provider');
  const variants = optList(opts, 'variants');
  const dumps = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Dump)
    .filter((d) => !provider || d.provider === provider);
  const f3 = (x: number) => fmtNum(x, 3);
  const sgn = (x: number) => `${x >= 0 ? '+' : ''}${f3(x)}`;
  // How close the rebuild is to the product's own answer (top 5 files).
  let same = 0;
  let all = 0;
  for (const d of dumps) for (const q of d.queries) {
    all++;
    if (JSON.stringify(replay(q, DEFAULT_VARIANT).slice(0, 5)) === JSON.stringify(distinct(q.hybrid.map((r) => r[0])).slice(0, 5))) same++;
  }
  const out: string[] = [`### Fusion variants replayed on fusion-dump's lists${provider ? ` (provider ${provider})` : ''}, file level, R@5 / MRR@10 against keyword`, '',
    `The rebuilt default fusion gives the product's own top 5 files on ${same} of ${all} queries ('product' is the product's answer, 'default' the rebuild).`, ''];
  const summary: string[][] = [];
  const json: Record<string, unknown[]> = {};
  // Per repository, each variant's R@5 and MRR (the keep rule compares them with the default's).
  const perRepo = new Map<string, Map<string, { r5: number; mrr: number }>>();
  for (const name of ['product', ...(variants.length ? variants : ['default'])]) {
    const rows: string[][] = [];
    let gain = 0;
    let loss = 0;
    let lostAll = 0;
    for (const d of dumps) {
      const kw = d.queries.map((q) => score(distinct(q.keyword.map((r) => r[0])), q.relevant));
      const hy = d.queries.map((q) => score(name === 'product' ? distinct(q.hybrid.map((r) => r[0])) : replay(q, parseVariant(name)), q.relevant));
      const k = { r5: mean(kw.map((x) => x.r5)), mrr: mean(kw.map((x) => x.mrr)) };
      const h = { r5: mean(hy.map((x) => x.r5)), mrr: mean(hy.map((x) => x.mrr)) };
      const lost = kw.filter((x, i) => x.r1 && !hy[i].r1).length;
      lostAll += lost;
      const dr = h.r5 - k.r5;
      const dm = h.mrr - k.mrr;
      if (dr < -1e-9 || dm < -1e-9) loss++;
      else if (dr > 1e-9 || dm > 1e-9) gain++;
      if (!perRepo.has(name)) perRepo.set(name, new Map());
      perRepo.get(name)!.set(d.repo, h);
      rows.push([d.repo, `${f3(k.r5)} / ${f3(k.mrr)}`, `${f3(h.r5)} / ${f3(h.mrr)}`, sgn(dr), sgn(dm), String(lost)]);
    }
    out.push(`#### ${name}`, '', markdownTable(['repository', 'keyword', 'hybrid', 'Δ R@5', 'Δ MRR', 'rank-1 lost'], rows), '');
    json[name] = rows;
    // Against the default rebuilt here: repositories where the variant gains (R@5 or MRR up, neither down), loses, or changes nothing.
    const base = perRepo.get('default');
    let up = 0;
    let down = 0;
    if (base && name !== 'default' && name !== 'product') {
      for (const [repo, h] of perRepo.get(name)!) {
        const b = base.get(repo)!;
        if (h.r5 < b.r5 - 1e-9 || h.mrr < b.mrr - 1e-9) down++;
        else if (h.r5 > b.r5 + 1e-9 || h.mrr > b.mrr + 1e-9) up++;
      }
    }
    const vsDefault = base && name !== 'default' && name !== 'product' ? `${up} / ${down} / ${dumps.length - up - down}` : '–';
    summary.push([name, String(gain), String(loss), String(dumps.length - gain - loss), String(lostAll), vsDefault]);
  }
  out.push(markdownTable(['variant', 'repositories ahead of keyword', 'behind (R@5 or MRR)', 'level', 'rank-1 lost', 'against the default: better / worse / level'], summary), '');
  const text = out.join('\n');
  const name = optString(opts, 'record');
  if (name) recordResult(name, { commit: commitInfo(), provider: provider ?? null, rebuilt: { same, all }, variants: json, summary }, text);
  process.stdout.write(`${text}\n`);
  return 0;
}

if (isMain(import.meta.url)) process.exitCode = main(process.argv.slice(2));
