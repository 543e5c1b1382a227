// Trains a learned-embedding model from a corpus of chunk texts: tokens → vocabulary and
// co-occurrence (cooccur.ts) → PPMI (ppmi.ts) → truncated randomized SVD (svd.ts) → int8 word
// vectors → SIF weights and the common component of the training chunks' vectors. Returns the
// model and the training chunks' vectors (the same bits model.embed gives them): all at once
// (trainFromCorpus), or computed batch by batch on demand (trainModelFromCorpus → TrainedRows, for
// the index build, which never holds them all). Owns the recipe and its timing report; the model's
// use and byte layout live in model.ts.
import { int8ScaleSampler } from '../quantize.ts';
import { buildTokenCorpus, cooccurrence, type TokenCorpus } from './cooccur.ts';
import { DEFAULT_LEARNED_PARAMS, LearnedModel, type LearnedParams, type SifSum } from './model.ts';
import { ppmi } from './ppmi.ts';
import { randomizedSvd } from './svd.ts';
import type { Csr } from './sparse.ts';
import { denseOps, type DenseBackend } from './dense.ts';
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

/** Complete, checked parameters. */
export function learnedParams(params: Partial<LearnedParams> = {}): LearnedParams {
  const p: LearnedParams = { ...DEFAULT_LEARNED_PARAMS, ...params };
  if (!Number.isInteger(p.dims) || p.dims < 1 || p.dims > 4096) throw new RangeError(`learned model dims must be 1…4096 (got ${p.dims})`);
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
 * 50k chunks × 192, the vector phase's peak when it was held): the common component comes from
 * the means of its sample rows only, the int8 scale from one pass that keeps only fitInt8Scale's
 * strided sample, and the caller gets the rows batch by batch (TrainedRows.fill, which computes
 * them again: the same bits, for ~one more pass of SIF means).
 */
export function trainModelFromCorpus(corpus: TokenCorpus, params: Partial<LearnedParams> = {}, clock: Clock = () => 0, phases: Record<string, number> = {}, backend: DenseBackend = 'auto'): TrainedModel {
  const p = learnedParams(params);
  let t = clock();
  const lap = (name: string) => {
    const now = clock();
    phases[name] = now - t;
    t = now;
  };
  // The large intermediates (co-occurrence counts, PPMI, the SVD's factors) each end with the step
  // that needs it: only their sizes are kept for the report, so none of them adds to the peak
  // memory of the later steps.
  let counts: Csr | null = cooccurrence(corpus, p.window);
  const cooccurrences = counts.values.length;
  lap('cooccurrence');
  let m: Csr | null = ppmi(counts, { alpha: 0.75, maxPerRow: p.maxPerRow });
  counts = null;
  const ppmiEntries = m.values.length;
  lap('ppmi');
  const V = corpus.vocab.length;
  const dims = p.dims;
  // Word vectors: U · Σ^eigPower, unit length, int8 per row.
  const vectors = new Int8Array(V * dims);
  const rowScale = new Float32Array(V);
  if (V > 0 && ppmiEntries > 0) {
    const svd = randomizedSvd(m, { rank: dims, oversample: p.oversample, powerIterations: p.powerIterations, seed: p.seed, backend });
    m = null;
    lap('svd');
    const sw = Float64Array.from(svd.s, (s) => sigmaPower(s, p.eigPower));
    const row = new Float64Array(dims);
    for (let w = 0; w < V; w++) {
      let n = 0;
      for (let j = 0; j < svd.rank; j++) {
        row[j] = svd.u[w * svd.rank + j] * sw[j];
        n += row[j] * row[j];
      }
      if (!(n > 0)) continue;
      const inv = 1 / Math.sqrt(n);
      let max = 0;
      for (let j = 0; j < svd.rank; j++) {
        row[j] *= inv;
        max = Math.max(max, Math.abs(row[j]));
      }
      const scale = Math.fround(max / 127);
      rowScale[w] = scale;
      for (let j = 0; j < svd.rank; j++) vectors[w * dims + j] = Math.round(row[j] / scale);
    }
  }
  m = null;
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
  const common = firstComponent(sample, dims, sampled);
  const model0 = new LearnedModel(header, corpus.vocab, weights, rowScale, common, vectors, 'draft');
  // The int8 scale: fitInt8Scale's strided sample of every projected row, one row at a time.
  const fit = int8ScaleSampler(count * dims);
  const row = new Float32Array(dims);
  for (let c = 0; c < count; c++) {
    model0.meanOf(corpus.seq, starts[c], starts[c + 1] - 1, row, 0, sum);
    model0.project(row, 0);
    fit.add(row, c * dims);
  }
  header.vectorScale = fit.scale();
  const model = new LearnedModel(header, corpus.vocab, weights, rowScale, common, vectors);
  lap('chunk vectors');
  return {
    model, rows: new TrainedRows(model, corpus.seq, starts, sum),
    report: { chunks: corpus.chunks, tokens: corpus.totalTokens, vocab: V, cooccurrences, ppmiEntries, phases },
  };
}

/** The training chunks' vectors (projected, unit length, f32), computed from the corpus's ids when asked for. */
export class TrainedRows {
  constructor(private readonly model: LearnedModel, private readonly seq: Int32Array, private readonly starts: Int32Array, private readonly sum?: SifSum) {}

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
 * starts[c + 1] - 1) (the -1 after each chunk sits at starts[c + 1] - 1). The ids model.embed would
 * see for the same text, in the same order.
 */
function chunkStarts(corpus: TokenCorpus): Int32Array {
  const { seq } = corpus;
  const starts = new Int32Array(corpus.chunks + 1);
  let c = 0;
  starts[0] = 1;
  for (let i = 1; i < seq.length && c < corpus.chunks; i++) if (seq[i] < 0) starts[++c] = i + 1;
  return starts;
}

/** The common component is fitted on at most this many chunk means, every k-th. */
const COMMON_SAMPLE = 8_000;

/**
 * The first principal direction (uncentred, as SIF does) of a sample of row-major f32 vectors (the
 * chunk means at every step-th row), by power iteration on their d × d second-moment matrix (a
 * fixed number of steps: the result depends on nothing but the input); zeros when there are none.
 */
function firstComponent(rows: Float32Array, dims: number, count: number): Float32Array {
  const out = new Float32Array(dims);
  // Two rows per pass (zero rows add nothing).
  const step = 1;
  const c = new Float64Array(dims * dims);
  let r = 0;
  for (; r + step < count; r += 2 * step) {
    const o = r * dims;
    const p = (r + step) * dims;
    for (let i = 0; i < dims; i++) {
      const vi = rows[o + i];
      const wi = rows[p + i];
      for (let j = i; j < dims; j++) c[i * dims + j] += vi * rows[o + j] + wi * rows[p + j];
    }
  }
  for (; r < count; r += step) {
    const o = r * dims;
    for (let i = 0; i < dims; i++) {
      const vi = rows[o + i];
      for (let j = i; j < dims; j++) c[i * dims + j] += vi * rows[o + j];
    }
  }
  for (let i = 0; i < dims; i++) for (let j = 0; j < i; j++) c[i * dims + j] = c[j * dims + i];
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
