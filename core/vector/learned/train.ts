// Trains a learned-embedding model from a corpus of chunk texts: tokens → vocabulary and
// co-occurrence (cooccur.ts) → PPMI (ppmi.ts) → truncated randomized SVD (svd.ts) → int8 word
// vectors → SIF weights and the common component of the training chunks' vectors. Returns the
// model and the training chunks' vectors (the same bits model.embed gives them): all at once
// (trainFromCorpus), or computed batch by batch on demand (trainModelFromCorpus → TrainedRows, for
// the index build, which never holds them all). Owns the recipe and its timing report; the model's
// use and byte layout live in model.ts.
import { int8ScaleSampler } from '../quantize.ts';
import { buildTokenCorpus, cooccurrence, END, MAX_VOCAB, type TokenCorpus } from './cooccur.ts';
import { DEFAULT_LEARNED_PARAMS, LearnedModel, type LearnedParams, type SifSum } from './model.ts';
import { ppmi } from './ppmi.ts';
import { randomizedSvd } from './svd.ts';
import type { Csr } from './sparse.ts';
import { denseOps, type DenseBackend, type DenseOps } from './dense.ts';
import { ModelTokenizer } from './tokens.ts';

export interface TrainReport {
  chunks: number;
  tokens: number;
  vocab: number;
  cooccurrences: number;
  ppmiEntries: number;
  /** Milliseconds per phase, in order. */
  phases: Record<string, number>;
}

export interface TrainResult {
  model: LearnedModel;
  /** The training chunks' vectors, row-major `chunks × dims` (what model.embed returns for the same texts). */
  vectors: Float32Array;
  report: TrainReport;
}

/** A trained model and its training chunks' vectors computed on demand (TrainedRows), never all held at once. */
export interface TrainedModel {
  model: LearnedModel;
  rows: TrainedRows;
  report: TrainReport;
}

/** A clock for the phase report (performance.now where it exists; the trainer's results never depend on it). */
export type Clock = () => number;

export function trainLearnedModel(texts: Iterable<string>, params: Partial<LearnedParams> = {}, clock: Clock = () => 0, backend: DenseBackend = 'auto'): TrainResult {
  const p = learnedParams(params);
  const t0 = clock();
  const corpus = buildTokenCorpus(texts, new ModelTokenizer(), { minCount: p.minCount, maxVocab: p.maxVocab });
  return trainFromCorpus(corpus, p, clock, { tokens: clock() - t0 }, backend);
}

/** Records the time since the last lap (or since it was made) under each phase name. */
function lapper(clock: Clock, phases: Record<string, number>): (name: string) => void {
  let t = clock();
  return (name) => {
    const now = clock();
    phases[name] = now - t;
    t = now;
  };
}

/** Complete, checked parameters. */
export function learnedParams(params: Partial<LearnedParams> = {}): LearnedParams {
  const p: LearnedParams = { ...DEFAULT_LEARNED_PARAMS, ...params };
  if (!Number.isInteger(p.dims) || p.dims < 1 || p.dims > 4096) throw new RangeError(`learned model dims must be 1…4096 (got ${p.dims})`);
  if (!Number.isInteger(p.maxVocab) || p.maxVocab < 1 || p.maxVocab > MAX_VOCAB) throw new RangeError(`learned model maxVocab must be 1…${MAX_VOCAB} (got ${p.maxVocab})`);
  return p;
}

/**
 * The recipe from a token corpus already built (TokenCorpusBuilder: texts streamed in one at a
 * time); `phases` carries the time its building took, when the caller measured it. `backend`:
 * where the SVD's products run (dense.ts; the same bits either way, so it is no model parameter).
 */
export function trainFromCorpus(corpus: TokenCorpus, params: Partial<LearnedParams> = {}, clock: Clock = () => 0, phases: Record<string, number> = {}, backend: DenseBackend = 'auto'): TrainResult {
  const t = trainModelFromCorpus(corpus, params, clock, phases, backend);
  return { model: t.model, vectors: t.rows.all(), report: t.report };
}

/**
 * trainFromCorpus without the `chunks × dims` f32 array of every training chunk's vector (38 MB at
 * 50k chunks × 192, the vector phase's peak when it was held): the common component and the
 * int8 scale come from the means of a sample of rows only (every row up to COMMON_SAMPLE chunks),
 * and the caller gets the rows batch by batch (TrainedRows.fill computes them: every chunk's mean
 * is computed once).
 */
export function trainModelFromCorpus(corpus: TokenCorpus, params: Partial<LearnedParams> = {}, clock: Clock = () => 0, phases: Record<string, number> = {}, backend: DenseBackend = 'auto'): TrainedModel {
  const p = learnedParams(params);
  const lap = lapper(clock, phases);
  // The large intermediates (co-occurrence counts, PPMI, the SVD's factors) each end with the step
  // that needs it: only their sizes are kept for the report, so none of them adds to the peak
  // memory of the later steps.
  let counts: Csr | null = cooccurrence(corpus, p.window);
  const cooccurrences = counts.values.length;
  lap('cooccurrence');
  const box = { matrix: ppmi(counts, { alpha: 0.75, maxPerRow: p.maxPerRow }) as Csr | null };
  counts = null;
  lap('ppmi');
  return trainFromPpmi(corpus, box, p, clock, phases, backend, cooccurrences);
}

/**
 * The recipe's second half, from a PPMI matrix over the corpus's vocabulary (this module's, or
 * one a caller built another way — the pretrained code model's trainer sums co-occurrences over
 * many repositories): word vectors U·Σ^eigPower by SVD, then modelFromWordRows. The matrix comes
 * in a box the factorization empties (so it is garbage once the SVD has it: none of the later
 * steps' peaks holds it).
 */
export function trainFromPpmi(corpus: TokenCorpus, ppmiMatrix: { matrix: Csr | null }, params: Partial<LearnedParams> = {}, clock: Clock = () => 0, phases: Record<string, number> = {}, backend: DenseBackend = 'auto', cooccurrences = 0): TrainedModel {
  const p = learnedParams(params);
  const lap = lapper(clock, phases);
  const m = ppmiMatrix.matrix!;
  ppmiMatrix.matrix = null;
  const ppmiEntries = m.values.length;
  const V = corpus.vocab.length;
  let words: Float64Array | null = null;
  let rank = 0;
  if (V > 0 && ppmiEntries > 0) {
    const svd = randomizedSvd(m, { rank: p.dims, oversample: p.oversample, powerIterations: p.powerIterations, seed: p.seed, backend });
    lap('svd');
    rank = svd.rank;
    words = svd.u;
    const sw = Float64Array.from(svd.s, (s) => sigmaPower(s, p.eigPower));
    for (let w = 0; w < V; w++) for (let j = 0; j < rank; j++) words[w * rank + j] *= sw[j];
  }
  const { model, rows } = modelFromWordRows(corpus, words, rank, p, lap, backend);
  return { model, rows, report: { chunks: corpus.chunks, tokens: corpus.totalTokens, vocab: V, cooccurrences, ppmiEntries, phases } };
}

/**
 * A model from word vectors (`words`: V × rank, row-major, any length: each row becomes unit
 * length, then int8 with its own scale; null: none): SIF weights from the corpus's counts, the
 * common component and the int8 scale of chunk vectors from a sample of the corpus's chunks.
 */
export function modelFromWordRows(corpus: TokenCorpus, words: Float64Array | null, rank: number, p: LearnedParams, lap: (phase: string) => void = () => {}, backend: DenseBackend = 'auto'): { model: LearnedModel; rows: TrainedRows } {
  const V = corpus.vocab.length;
  const dims = p.dims;
  const { vectors, rowScale } = words ? int8Rows(words, rank, V, dims) : { vectors: new Int8Array(V * dims), rowScale: new Float32Array(V) };
  lap('word vectors');
  const weights = new Float32Array(V);
  const total = Math.max(1, corpus.totalTokens);
  for (let w = 0; w < V; w++) weights[w] = p.sifA / (p.sifA + corpus.counts[w] / total);
  const header = {
    format: 1 as const, dims, vocabSize: V, params: p,
    trained: { chunks: corpus.chunks, tokens: corpus.totalTokens, oovRate: corpus.totalTokens ? corpus.oovTokens / corpus.totalTokens : 0 },
    vectorScale: 1 / 127,
  };
  // Chunk vectors: SIF means (f32), the common component of a sample of them, then each mean minus
  // its projection on it, unit length — the same steps model.embed takes for a text.
  const shape = new LearnedModel(header, corpus.vocab, weights, rowScale, new Float32Array(dims), vectors, 'draft');
  const sum = denseOps(backend).sifSum?.(vectors, dims, V);
  const starts = chunkStarts(corpus);
  const count = corpus.chunks;
  // The common component: firstComponent's sample rows (every step-th mean), in its order.
  const step = Math.max(1, Math.ceil(count / COMMON_SAMPLE));
  const sampled = Math.ceil(count / step);
  const sample = new Float32Array(sampled * dims);
  for (let k = 0; k < sampled; k++) shape.meanOf(corpus.seq, starts[k * step], starts[k * step + 1] - 1, sample, k * dims, sum);
  // Its own kernel instance: the sum's instance keeps the word vectors at the start of its memory.
  const common = firstComponent(sample, dims, sampled, denseOps(backend));
  const model0 = new LearnedModel(header, corpus.vocab, weights, rowScale, common, vectors, 'draft');
  // The int8 scale: fitInt8Scale over the same sample rows, projected (every row when there are at
  // most COMMON_SAMPLE chunks). A pass over every chunk for it would compute each mean once more
  // than the write does (TrainedRows.fill), ~0.4 s at 50k chunks, for a quantile that a sample of
  // 8,000 rows × dims values already pins down.
  for (let k = 0; k < sampled; k++) model0.project(sample, k * dims);
  const fit = int8ScaleSampler(sample.length);
  fit.add(sample, 0);
  header.vectorScale = fit.scale();
  const model = new LearnedModel(header, corpus.vocab, weights, rowScale, common, vectors);
  lap('chunk vectors');
  return { model, rows: new TrainedRows(model, corpus.seq, starts, sum) };
}

/**
 * Word rows (V × rank, row-major) as the model stores them: each row unit length, then int8 with
 * its own scale (max |value| / 127) in a V × dims table (a zero row stays zeros).
 */
export function int8Rows(words: Float64Array, rank: number, V: number, dims: number): { vectors: Int8Array; rowScale: Float32Array } {
  const vectors = new Int8Array(V * dims);
  const rowScale = new Float32Array(V);
  const row = new Float64Array(rank);
  for (let w = 0; w < V; w++) {
    let n = 0;
    for (let j = 0; j < rank; j++) {
      row[j] = words[w * rank + j];
      n += row[j] * row[j];
    }
    if (!(n > 0)) continue;
    const inv = 1 / Math.sqrt(n);
    let max = 0;
    for (let j = 0; j < rank; j++) {
      row[j] *= inv;
      max = Math.max(max, Math.abs(row[j]));
    }
    const scale = Math.fround(max / 127);
    rowScale[w] = scale;
    for (let j = 0; j < rank; j++) vectors[w * dims + j] = Math.round(row[j] / scale);
  }
  return { vectors, rowScale };
}

/** The training chunks' vectors (projected, unit length, f32), computed from the corpus's ids when asked for. */
export class TrainedRows {
  constructor(private readonly model: LearnedModel, private readonly seq: Uint16Array, private readonly starts: Int32Array, private readonly sum?: SifSum) {}

  get count(): number {
    return this.starts.length - 1;
  }

  /** Rows [start, end) into out[at …] (row-major; zeros for a chunk with no known token). */
  fill(start: number, end: number, out: Float32Array, at = 0): void {
    const { model, seq, starts, sum } = this;
    const dims = model.dims;
    out.fill(0, at, at + (end - start) * dims);
    for (let c = start; c < end; c++) {
      const o = at + (c - start) * dims;
      model.meanOf(seq, starts[c], starts[c + 1] - 1, out, o, sum);
      model.project(out, o);
    }
  }

  /** Every row, `count × dims`. */
  all(): Float32Array {
    const out = new Float32Array(this.count * this.model.dims);
    this.fill(0, this.count, out);
    return out;
  }
}

/** σ^p for the powers that have an exact form (0, 0.25, 0.5, 0.75, 1): sqrt is exactly rounded everywhere, pow is not. */
function sigmaPower(s: number, p: number): number {
  switch (p) {
    case 0: return 1;
    case 0.25: return Math.sqrt(Math.sqrt(s));
    case 0.5: return Math.sqrt(s);
    case 0.75: return Math.sqrt(s) * Math.sqrt(Math.sqrt(s));
    case 1: return s;
    default: throw new RangeError(`eigPower must be 0, 0.25, 0.5, 0.75 or 1 (got ${p})`);
  }
}

/**
 * Where each chunk's run of in-vocabulary ids starts in corpus.seq: chunk c is seq[starts[c] …
 * starts[c + 1] - 1) (the END after each chunk sits at starts[c + 1] - 1). The ids model.embed would
 * see for the same text, in the same order.
 */
function chunkStarts(corpus: TokenCorpus): Int32Array {
  const { seq } = corpus;
  const starts = new Int32Array(corpus.chunks + 1);
  let c = 0;
  starts[0] = 1;
  for (let i = 1; i < seq.length && c < corpus.chunks; i++) if (seq[i] === END) starts[++c] = i + 1;
  return starts;
}

/** The common component is fitted on at most this many chunk means, every k-th. */
const COMMON_SAMPLE = 8_000;

/** Rows per block of firstComponent's second-moment sum (a 1.5 MB f64 copy at 192 dims). */
const MOMENT_BLOCK = 1024;

/**
 * The first principal direction (uncentred, as SIF does) of a sample of row-major f32 vectors (the
 * chunk means at every step-th row), by power iteration on their d × d second-moment matrix (a
 * fixed number of steps: the result depends on nothing but the input); zeros when there are none.
 * The matrix is summed block by block through `ops.gram` (the kernel's gram_upper or its JS twin:
 * the same bits), the blocks' Gram matrices added in block order.
 */
function firstComponent(rows: Float32Array, dims: number, count: number, ops: DenseOps): Float32Array {
  const out = new Float32Array(dims);
  const c = new Float64Array(dims * dims);
  const block = new Float64Array(Math.min(count, MOMENT_BLOCK) * dims);
  for (let r = 0; r < count; r += MOMENT_BLOCK) {
    const n = Math.min(MOMENT_BLOCK, count - r);
    for (let i = 0; i < n * dims; i++) block[i] = rows[r * dims + i];
    const g = ops.gram(block, n, dims);
    for (let i = 0; i < dims * dims; i++) c[i] += g[i];
  }
  let v = new Float64Array(dims).fill(1 / Math.sqrt(dims));
  let w = new Float64Array(dims);
  for (let it = 0; it < 200; it++) {
    let norm = 0;
    for (let i = 0; i < dims; i++) {
      let s = 0;
      for (let j = 0; j < dims; j++) s += c[i * dims + j] * v[j];
      w[i] = s;
      norm += s * s;
    }
    if (!(norm > 0)) return out;
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < dims; i++) w[i] *= inv;
    [v, w] = [w, v];
  }
  for (let i = 0; i < dims; i++) out[i] = v[i];
  return out;
}
