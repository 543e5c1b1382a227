// A discriminatively trained token table for the pretrained code model (issue 33): a bag-of-tokens
// dual encoder over the text ↔ code pairs the repositories hold (extract.ts: a doc comment and the
// code it documents, a commit subject and the lines the commit changed). Both sides embed exactly
// as core's learned model does (model.ts: SIF-weighted mean of unit token rows, minus the common
// component, unit length); the loss is InfoNCE over the batch in both directions (softmax of
// cosines / temperature, the pair's own code against the batch's other codes and back), batches
// drawn from one repository at a time (the negatives a search meets: the same code base's other
// members). The table starts from the PPMI + SVD model (so tokens no pair holds keep their
// co-occurrence geometry), moves by Adagrad on the rows a batch touches, each row renormalized
// to unit length after its step; `side: 'query'` trains a query-side copy only (the chunk side
// stays the PPMI table). A held-out slice of pairs (a hash of the pair's text) picks the epoch:
// the table of the epoch with the best held-out MRR (the own code's rank among its repository's
// held-out codes) is kept, the initial one included. Single-threaded, seeded, fixed loop orders:
// the same pairs and initial model give the same bytes. Owns the pairs' ids, the training loop and
// the model it writes (train.ts's `dual` stage and the `--init` experiments below); extraction is
// extract.ts's, the model arithmetic core's.
//
//   node --experimental-transform-types bench/model/dual.ts --mirrors DIR [--work DIR] [--init models/code-model.bin]
//        [--out FILE] [--set key=value …] [--extract-only] [--repos N]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha256Hex } from '../../core/index/sha256.ts';
import { LearnedModel } from '../../core/vector/learned/model.ts';
import { int8Rows } from '../../core/vector/learned/train.ts';
import { TokenIds } from '../../core/vector/learned/token-ids.ts';
import { mulberry32 } from '../../core/vector/learned/numeric.ts';

/** Uniform doubles in [0, 1) from mulberry32's 32-bit integers. */
function unit(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
}
import { int8ScaleSampler } from '../../core/vector/quantize.ts';
import { optString, parseArgs, repoRoot, runMain } from '../lib/util.ts';
import { checkLicence, hasCommit, mirrorDir } from './mirror.ts';
import { ensureExtract, forbiddenRepos, readExtract, readManifest, type ManifestRepo } from './train.ts';
import { ensureNamePairs, readNamePairs, type NamePairs } from './names.ts';
import { unitRows } from './xal.ts';

export interface DualParams {
  epochs: number;
  batch: number;
  temperature: number;
  /** Adagrad's learning rate. */
  lr: number;
  /** Share of pairs held out to pick the epoch (by a hash of the pair's doc text). */
  heldOut: number;
  /** Which pairs (bits): 1 doc comments, 2 commit subjects ↔ changed lines, 4 commit subjects ↔ the names of the declarations changed, 8 docs sections ↔ the code they name (names.ts). */
  sources: number;
  /** 1: a query side's ids that its own code side also holds are dropped (the pair teaches only the words the code lacks). */
  maskShared: number;
  /** 0: one shared table; 1: a query-side table (the chunk side stays the initial one). */
  queryOnly: number;
  /** Ids kept per side of a pair (0: all): the largest factors (ties: smaller id) — a commit's changed lines hold hundreds. */
  maxIds: number;
  seed: number;
}

export const DEFAULT_DUAL: DualParams = { epochs: 3, batch: 128, temperature: 0.05, lr: 0.05, heldOut: 0.03, sources: 3, maskShared: 0, queryOnly: 0, maxIds: 64, seed: 0x6475_616c };

/** One side of every pair: distinct ids with their factors (count × SIF weight / tokens), CSR-like. */
interface Side { ids: Int32Array; f: Float64Array; start: Int32Array }

export interface DualPairs {
  q: Side;
  c: Side;
  /** Per pair: its repository's index, and whether it is held out. */
  repo: Int32Array;
  held: Uint8Array;
  count: number;
  repos: string[];
}

/** The pairs of the extract files as model ids (pairs whose doc text repeats in its repository, or with a side of < 2 known tokens, left out). */
export function dualPairs(files: readonly string[], model: LearnedModel, p: DualParams, log: (s: string) => void = () => {}, nameFiles: readonly string[] = []): DualPairs {
  const qIds: number[] = [], qF: number[] = [], qStart = [0];
  const cIds: number[] = [], cF: number[] = [], cStart = [0];
  const repo: number[] = [], held: number[] = [];
  const repos: string[] = [];
  const texts = (x: ReturnType<typeof readExtract>, nx: NamePairs | null) => [
    ...(p.sources & 1 ? x.docPairs : []), ...(p.sources & 2 ? x.commitPairs : []),
    ...(nx && p.sources & 4 ? nx.commitNamePairs : []), ...(nx && p.sources & 8 ? nx.sectionPairs : []),
  ];
  const tokenIds = new TokenIds((t) => model.idOf(t));
  // A text's bag as model.meanOf sums it: distinct ids in order of first appearance, factor count × SIF weight / ids.
  const bagOf = (text: string) => {
    const run = tokenIds.ids(text);
    const bag = new Map<number, number>();
    for (let i = 0; i < run.n; i++) bag.set(run.ids[i], (bag.get(run.ids[i]) ?? 0) + 1);
    return { bag, n: run.n };
  };
  const side = (text: string, ids: number[], f: number[], drop?: ReadonlyMap<number, number>): boolean => {
    const run = bagOf(text);
    const bag = run.bag;
    if (drop) for (const id of drop.keys()) bag.delete(id);
    if (bag.size < 2) return false;
    let kept = [...bag].map(([id, count]) => [id, (count * model.weights[id]) / run.n] as const);
    if (p.maxIds > 0 && kept.length > p.maxIds) kept = kept.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, p.maxIds);
    for (const [id, factor] of kept) {
      ids.push(id);
      f.push(factor);
    }
    return true;
  };
  files.forEach((file, fi) => {
    const x = readExtract(file);
    const nx = nameFiles[fi] ? readNamePairs(nameFiles[fi]) : null;
    const r = repos.length;
    repos.push(x.repo);
    const seen = new Set<string>();
    let n = 0;
    for (const [doc, code] of texts(x, nx)) {
      const key = doc.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      const q0 = qIds.length, c0 = cIds.length;
      if (!side(doc, qIds, qF, p.maskShared ? bagOf(code).bag : undefined) || !side(code, cIds, cF)) {
        qIds.length = qF.length = q0;
        cIds.length = cF.length = c0;
        continue;
      }
      qStart.push(qIds.length);
      cStart.push(cIds.length);
      repo.push(r);
      held.push(parseInt(sha256Hex(new TextEncoder().encode(`${p.seed}:${x.repo}:${doc}`)).slice(0, 8), 16) / 0x1_0000_0000 < p.heldOut ? 1 : 0);
      n++;
    }
    log(`pairs ${x.repo}: ${n}`);
  });
  return {
    q: { ids: Int32Array.from(qIds), f: Float64Array.from(qF), start: Int32Array.from(qStart) },
    c: { ids: Int32Array.from(cIds), f: Float64Array.from(cF), start: Int32Array.from(cStart) },
    repo: Int32Array.from(repo), held: Uint8Array.from(held), count: repo.length, repos,
  };
}

/**
 * Embeds pair k of a side with table t into z (unit, after removing the common component);
 * returns the norm of the projected mean (0: nothing known) and leaves the projected mean's scale in z.
 */
function embedPair(s: Side, k: number, t: Float64Array, common: Float64Array, D: number, z: Float64Array, at: number): number {
  z.fill(0, at, at + D);
  for (let b = s.start[k]; b < s.start[k + 1]; b++) {
    const f = s.f[b];
    const o = s.ids[b] * D;
    for (let j = 0; j < D; j++) z[at + j] += f * t[o + j];
  }
  let d = 0;
  for (let j = 0; j < D; j++) d += z[at + j] * common[j];
  let n = 0;
  for (let j = 0; j < D; j++) {
    z[at + j] -= d * common[j];
    n += z[at + j] * z[at + j];
  }
  if (!(n > 0)) return 0;
  const norm = Math.sqrt(n);
  for (let j = 0; j < D; j++) z[at + j] /= norm;
  return norm;
}

/** Held-out MRR: each held-out doc's own code ranked among its repository's held-out codes (by cosine). */
export function heldOutMrr(p: DualPairs, tq: Float64Array, tc: Float64Array, common: Float64Array, D: number): number {
  const byRepo = new Map<number, number[]>();
  for (let k = 0; k < p.count; k++) if (p.held[k]) (byRepo.get(p.repo[k]) ?? byRepo.set(p.repo[k], []).get(p.repo[k])!).push(k);
  let sum = 0, n = 0;
  for (const ks of byRepo.values()) {
    if (ks.length < 2) continue;
    const zq = new Float64Array(ks.length * D), zc = new Float64Array(ks.length * D);
    ks.forEach((k, i) => {
      embedPair(p.q, k, tq, common, D, zq, i * D);
      embedPair(p.c, k, tc, common, D, zc, i * D);
    });
    for (let i = 0; i < ks.length; i++) {
      const own = dot(zq, i * D, zc, i * D, D);
      let rank = 1;
      for (let j = 0; j < ks.length; j++) if (j !== i && dot(zq, i * D, zc, j * D, D) > own) rank++;
      sum += 1 / rank;
      n++;
    }
  }
  return n ? sum / n : 0;
}

function dot(a: Float64Array, ao: number, b: Float64Array, bo: number, D: number): number {
  let s = 0;
  for (let j = 0; j < D; j++) s += a[ao + j] * b[bo + j];
  return s;
}

/** Batches of one epoch: each repository's training pairs in a seeded shuffle, cut into batches, the batches shuffled. */
function epochBatches(p: DualPairs, batch: number, rnd: () => number): Int32Array[] {
  const byRepo: number[][] = p.repos.map(() => []);
  for (let k = 0; k < p.count; k++) if (!p.held[k]) byRepo[p.repo[k]].push(k);
  const out: Int32Array[] = [];
  for (const ks of byRepo) {
    shuffle(ks, rnd);
    for (let i = 0; i + 8 <= ks.length; i += batch) out.push(Int32Array.from(ks.slice(i, i + batch)));
  }
  shuffle(out, rnd);
  return out;
}

function shuffle<T>(a: T[], rnd: () => number): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
}

/** Row gradients of one batch: a slot per touched row, in order of first touch. */
class RowGrads {
  slot: Int32Array;
  rows: number[] = [];
  g: Float64Array;
  constructor(V: number, private readonly D: number) {
    this.slot = new Int32Array(V).fill(-1);
    this.g = new Float64Array(1024 * D);
  }
  add(row: number, f: number, v: Float64Array, at: number): void {
    const { D } = this;
    let s = this.slot[row];
    if (s < 0) {
      s = this.slot[row] = this.rows.length;
      this.rows.push(row);
      if ((s + 1) * D > this.g.length) {
        const g = new Float64Array(this.g.length * 2);
        g.set(this.g);
        this.g = g;
      }
      this.g.fill(0, s * D, (s + 1) * D);
    }
    for (let j = 0; j < D; j++) this.g[s * D + j] += f * v[at + j];
  }
  clear(): void {
    for (const r of this.rows) this.slot[r] = -1;
    this.rows.length = 0;
  }
}

export interface DualResult { tq: Float64Array; tc: Float64Array; epoch: number; mrr: number[] }

/** Trains the table(s) from `init` (V × D unit rows); returns the best epoch's (0: the initial table). */
export function trainDual(p: DualPairs, init: Float64Array, common: Float64Array, D: number, o: DualParams, log: (s: string) => void = () => {}): DualResult {
  const V = init.length / D;
  const tq = init.slice();
  const tc = o.queryOnly ? init : tq;
  const accQ = new Float64Array(V * D);
  const accC = o.queryOnly ? null : accQ;
  const rnd = unit(o.seed);
  const mrr = [heldOutMrr(p, tq, tc, common, D)];
  log(`dual: ${p.count} pairs (${p.held.reduce((a, b) => a + b, 0)} held out), epoch 0 held-out MRR ${mrr[0].toFixed(4)}`);
  let best = { tq: tq.slice(), tc: o.queryOnly ? init : null as Float64Array | null, epoch: 0, mrr: mrr[0] };
  const B = o.batch;
  const zq = new Float64Array(B * D), zc = new Float64Array(B * D);
  const nq = new Float64Array(B), nc = new Float64Array(B);
  const S = new Float64Array(B * B);
  const gq = new Float64Array(B * D), gc = new Float64Array(B * D);
  const gradQ = new RowGrads(V, D);
  const gradC = o.queryOnly ? null : gradQ;
  const inv = 1 / o.temperature;
  for (let epoch = 1; epoch <= o.epochs; epoch++) {
    let loss = 0, batches = 0;
    for (const ks of epochBatches(p, B, rnd)) {
      const n = ks.length;
      for (let i = 0; i < n; i++) {
        nq[i] = embedPair(p.q, ks[i], tq, common, D, zq, i * D);
        nc[i] = embedPair(p.c, ks[i], tc, common, D, zc, i * D);
      }
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) S[i * n + j] = dot(zq, i * D, zc, j * D, D) * inv;
      // dL/dS = ½(softmax over rows − I)/n + ½(softmax over columns − I)/n.
      const dS = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        let m = -Infinity;
        for (let j = 0; j < n; j++) m = Math.max(m, S[i * n + j]);
        let z = 0;
        for (let j = 0; j < n; j++) z += Math.exp(S[i * n + j] - m);
        loss += 0.5 * (m + Math.log(z) - S[i * n + i]) / n;
        for (let j = 0; j < n; j++) dS[i * n + j] += (0.5 * (Math.exp(S[i * n + j] - m) / z - (i === j ? 1 : 0))) / n;
      }
      for (let j = 0; j < n; j++) {
        let m = -Infinity;
        for (let i = 0; i < n; i++) m = Math.max(m, S[i * n + j]);
        let z = 0;
        for (let i = 0; i < n; i++) z += Math.exp(S[i * n + j] - m);
        loss += 0.5 * (m + Math.log(z) - S[j * n + j]) / n;
        for (let i = 0; i < n; i++) dS[i * n + j] += (0.5 * (Math.exp(S[i * n + j] - m) / z - (i === j ? 1 : 0))) / n;
      }
      // dL/dzq = dS · zc / τ, dL/dzc = dSᵀ · zq / τ; then back through the unit length and the common component's removal.
      gq.fill(0, 0, n * D);
      gc.fill(0, 0, n * D);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const d = dS[i * n + j] * inv;
          if (d === 0) continue;
          for (let k = 0; k < D; k++) {
            gq[i * D + k] += d * zc[j * D + k];
            gc[j * D + k] += d * zq[i * D + k];
          }
        }
      }
      for (let i = 0; i < n; i++) {
        backToMean(gq, zq, i * D, nq[i], common, D);
        backToMean(gc, zc, i * D, nc[i], common, D);
        const k = ks[i];
        for (let b = p.q.start[k]; b < p.q.start[k + 1]; b++) gradQ.add(p.q.ids[b], p.q.f[b], gq, i * D);
        if (gradC) for (let b = p.c.start[k]; b < p.c.start[k + 1]; b++) gradC.add(p.c.ids[b], p.c.f[b], gc, i * D);
      }
      step(tq, accQ, gradQ, D, o.lr);
      if (gradC && accC && gradC !== gradQ) step(tc, accC, gradC, D, o.lr);
      batches++;
      if (batches % 50 === 0) log(`dual: epoch ${epoch}, batch ${batches}, loss ${(loss / batches).toFixed(4)}, ${Math.round(process.cpuUsage().user / 1e6)} s CPU`);
    }
    const m = heldOutMrr(p, tq, tc, common, D);
    mrr.push(m);
    log(`dual: epoch ${epoch}: train loss ${(loss / Math.max(1, batches)).toFixed(4)}, held-out MRR ${m.toFixed(4)}`);
    if (m > best.mrr) best = { tq: tq.slice(), tc: o.queryOnly ? init : null, epoch, mrr: m };
  }
  return { tq: best.tq, tc: best.tc ?? best.tq, epoch: best.epoch, mrr };
}

/** In place at g[at …]: dL/dz of a unit vector z = p/|p| → dL/dmean (through p = mean − (mean·c)c). */
function backToMean(g: Float64Array, z: Float64Array, at: number, norm: number, common: Float64Array, D: number): void {
  if (!(norm > 0)) {
    g.fill(0, at, at + D);
    return;
  }
  const gz = dot(g, at, z, at, D);
  let gc = 0;
  for (let j = 0; j < D; j++) {
    g[at + j] = (g[at + j] - gz * z[at + j]) / norm;
    gc += g[at + j] * common[j];
  }
  for (let j = 0; j < D; j++) g[at + j] -= gc * common[j];
}

/** Adagrad on the touched rows, each renormalized to unit length; clears the gradients. */
function step(t: Float64Array, acc: Float64Array, grads: RowGrads, D: number, lr: number): void {
  grads.rows.forEach((row, s) => {
    const o = row * D;
    let n = 0;
    for (let j = 0; j < D; j++) {
      const g = grads.g[s * D + j];
      acc[o + j] += g * g;
      t[o + j] -= (lr * g) / (Math.sqrt(acc[o + j]) + 1e-10);
      n += t[o + j] * t[o + j];
    }
    if (n > 0) for (let j = 0, inv = 1 / Math.sqrt(n); j < D; j++) t[o + j] *= inv;
  });
  grads.clear();
}

/** A model like `init` with the table's rows (int8, per-row scale) and the int8 chunk scale refitted on the pairs' code sides. */
export function modelWithTable(init: LearnedModel, table: Float64Array, p: DualPairs, tag: Record<string, unknown>): LearnedModel {
  const D = init.dims;
  const { vectors, rowScale } = int8Rows(table, D, init.vocab.length, D);
  const header = { ...init.header, params: { ...init.header.params, ...tag } as typeof init.header.params };
  const draft = new LearnedModel(header, init.vocab, init.weights, rowScale, init.common, vectors, 'draft');
  // Chunk vectors' int8 scale: fitted on (at most 8,000) code sides, every k-th pair, as core fits it on chunks.
  const step = Math.max(1, Math.ceil(p.count / 8000));
  const rows = Math.ceil(p.count / step);
  const sample = new Float32Array(rows * D);
  const buf = new Float64Array(D);
  const common = Float64Array.from(init.common);
  for (let r = 0; r < rows; r++) {
    const k = r * step;
    // The code side through the quantized table, as the index would embed it.
    const ids = p.c.ids.subarray(p.c.start[k], p.c.start[k + 1]);
    buf.fill(0);
    for (let b = 0; b < ids.length; b++) {
      const f = p.c.f[p.c.start[k] + b] * rowScale[ids[b]];
      for (let j = 0; j < D; j++) buf[j] += f * vectors[ids[b] * D + j];
    }
    for (let j = 0; j < D; j++) sample[r * D + j] = buf[j];
    draft.project(sample, r * D);
  }
  void common;
  const fit = int8ScaleSampler(sample.length);
  fit.add(sample, 0);
  header.vectorScale = fit.scale();
  return new LearnedModel(header, init.vocab, init.weights, rowScale, init.common, vectors);
}

/** The pairs as bytes (a cache: the work folder's dual-pairs-<key>.bin). */
export function savePairs(file: string, p: DualPairs): void {
  const parts: ArrayBufferView[] = [p.q.ids, p.q.f, p.q.start, p.c.ids, p.c.f, p.c.start, p.repo, p.held];
  const head = new TextEncoder().encode(JSON.stringify({ repos: p.repos, count: p.count, lengths: parts.map((a) => (a as Int32Array).length) }));
  const chunks: Uint8Array[] = [new Uint8Array(new Uint32Array([head.length]).buffer), head];
  for (const a of parts) {
    const pad = (8 - (chunks.reduce((s, c) => s + c.length, 0) % 8)) % 8;
    chunks.push(new Uint8Array(pad), new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  const tmp = `${file}.tmp-${process.pid}`;
  fs.writeFileSync(tmp, Buffer.concat(chunks));
  fs.renameSync(tmp, file);
}

export function loadPairs(file: string): DualPairs {
  const b = new Uint8Array(fs.readFileSync(file));
  const hl = new DataView(b.buffer).getUint32(0, true);
  const head = JSON.parse(new TextDecoder().decode(b.subarray(4, 4 + hl))) as { repos: string[]; count: number; lengths: number[] };
  let o = 4 + hl;
  const kinds = [Int32Array, Float64Array, Int32Array, Int32Array, Float64Array, Int32Array, Int32Array, Uint8Array] as const;
  const arrs = kinds.map((K, i) => {
    o += (8 - (o % 8)) % 8;
    const n = head.lengths[i] * K.BYTES_PER_ELEMENT;
    const a = new K(b.slice(o, o + n).buffer);
    o += n;
    return a;
  });
  const [qi, qf, qs, ci, cf, cs, repo, held] = arrs as [Int32Array, Float64Array, Int32Array, Int32Array, Float64Array, Int32Array, Int32Array, Uint8Array];
  return { q: { ids: qi, f: qf, start: qs }, c: { ids: ci, f: cf, start: cs }, repo, held, count: head.count, repos: head.repos };
}

/**
 * The dual stage (this command's and train.ts's when the recipe asks): the name pairs when the
 * sources take them (names.ts), the pairs as ids of `init`'s vocabulary (cached in the work folder),
 * training, and the model of the best epoch's table.
 */
export function dualStage(work: string, repos: readonly ManifestRepo[], mirrors: string, files: readonly string[], init: LearnedModel, o: DualParams, log: (s: string) => void): { model: LearnedModel; epoch: number; mrr: number[]; pairs: number } {
  const nameFiles = o.sources & 12 ? repos.map((r) => ensureNamePairs(work, r, mirrorDir(mirrors, r.repo), log)) : [];
  const c0 = process.cpuUsage();
  const pairsFile = path.join(work, `dual-pairs-${sha256Hex(new TextEncoder().encode(JSON.stringify({ files: files.map((f) => path.basename(f)), names: nameFiles.map((f) => path.basename(f)), model: init.fingerprint, sources: o.sources, maskShared: o.maskShared, heldOut: o.heldOut, maxIds: o.maxIds, seed: o.seed })), 12)}.bin`);
  let pairs: DualPairs;
  if (fs.existsSync(pairsFile)) pairs = loadPairs(pairsFile);
  else {
    pairs = dualPairs(files, init, o, log, nameFiles);
    savePairs(pairsFile, pairs);
  }
  log(`pairs: ${pairs.count} (${Math.round((process.cpuUsage(c0).user + process.cpuUsage(c0).system) / 1e6)} s CPU)`);
  const r = trainDual(pairs, unitRows(init), Float64Array.from(init.common), init.dims, o, log);
  const model = modelWithTable(init, r.tq, pairs, { dual: { ...o, epoch: r.epoch, repos: repos.length } });
  return { model, epoch: r.epoch, mrr: r.mrr, pairs: pairs.count };
}

// ── the experiment command ─────────────────────────────────────────────────────────────────────

/** The manifest's repositories whose mirrors hold their commit (a subset while mirrors arrive), forbidden ones refused. */
export function usableRepos(manifestFile: string, mirrors: string, log: (s: string) => void): ManifestRepo[] {
  const m = readManifest(manifestFile);
  const forbidden = forbiddenRepos(m);
  const out: ManifestRepo[] = [];
  for (const r of m.repos) {
    const why = forbidden.get(r.repo.toLowerCase());
    if (why) throw new Error(`${r.repo}: never train on it (${why})`);
    const dir = mirrorDir(mirrors, r.repo);
    if (!fs.existsSync(dir) || !hasCommit(dir, r.commit)) {
      log(`skip ${r.repo}: no mirror with ${r.commit.slice(0, 12)} yet`);
      continue;
    }
    const lic = checkLicence(dir, r.commit, r.licence_file, r.licence, r.licence_sha256);
    if (!lic.ok) throw new Error(`${r.repo}: ${lic.reason}`);
    out.push(r);
  }
  return out;
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['extract-only']);
  const root = repoRoot();
  const mirrors = optString(opts, 'mirrors');
  if (!mirrors) {
    process.stderr.write('dual: --mirrors DIR is required\n');
    return 2;
  }
  const log = (s: string) => process.stderr.write(`${s}\n`);
  const work = path.resolve(optString(opts, 'work') ?? path.join(os.tmpdir(), 'hci-model-work'));
  fs.mkdirSync(work, { recursive: true });
  const repos = usableRepos(optString(opts, 'manifest') ?? path.join(root, 'models/manifest.json'), path.resolve(mirrors), log);
  const o: DualParams = { ...DEFAULT_DUAL };
  for (const s of ([] as string[]).concat((opts.set as string | string[]) ?? [])) {
    const [k, v] = s.split('=');
    if (!(k in o)) throw new Error(`dual: unknown setting ${k}`);
    (o as unknown as Record<string, number>)[k] = Number(v);
  }
  const files = repos.map((r) => ensureExtract(work, r, path.resolve(mirrors), log));
  if (opts['extract-only']) {
    if (o.sources & 12) for (const r of repos) ensureNamePairs(work, r, mirrorDir(path.resolve(mirrors), r.repo), log);
    return 0;
  }
  const initFile = path.resolve(optString(opts, 'init') ?? path.join(root, 'models/code-model.bin'));
  const init = LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(initFile)));
  const c0 = process.cpuUsage();
  const r = dualStage(work, repos, path.resolve(mirrors), files, init, o, log);
  const out = path.resolve(optString(opts, 'out') ?? path.join(os.tmpdir(), `code-model-dual-${sha256Hex(new TextEncoder().encode(JSON.stringify(o)), 6)}.bin`));
  fs.writeFileSync(o.queryOnly ? `${out}.query.bin` : out, r.model.toBytes());
  const cpu = process.cpuUsage(c0);
  process.stdout.write(`${JSON.stringify({ out: o.queryOnly ? `${out}.query.bin` : out, epoch: r.epoch, mrr: r.mrr.map((x) => +x.toFixed(4)), pairs: r.pairs, repos: repos.length, cpuS: Math.round((cpu.user + cpu.system) / 1e6), params: o })}\n`);
  return 0;
}

await runMain(import.meta.url, 'dual', main);
