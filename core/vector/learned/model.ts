// A trained learned-embedding model: vocabulary, SIF token weights, int8 word vectors and the
// common component, and what it does with them — embed a text (SIF-weighted mean of its token
// vectors, minus its projection on the common component, unit length), say how much of a text it
// does not know (the drift measure), and serialize itself into bytes for the index file. Training
// lives in train.ts; where the bytes are stored belongs to the store.
//
// Byte layout (all numbers little-endian; every section starts 4-byte aligned):
//   0   8 bytes  magic "HCILM1\0\0"
//   8   u32      header length H
//   12  H bytes  header, UTF-8 JSON (LearnedHeader), then zero padding to 4
//       u32      vocabulary length B, then B bytes: the tokens, UTF-8, '\n'-separated, in id order; padding
//       f32 × V  SIF weight per token
//       f32 × V  word vector scale per token (value = int8 × scale)
//       f32 × D  common component (unit length, or zeros)
//       i8 × V·D word vectors, row-major
//   format 2 only (a model with a query-side table, `query: 'table'` in the header), after zero padding to 4:
//       f32 × V  query word vector scale per token
//       i8 × V·Q query word vectors, row-major, Q = D − F (header `queryFrom` F, default 0): what
//                embedQueries() sums for a query's tokens, columns F … D−1 of each row; columns
//                0 … F−1 are the main table's (a query row is both parts, requantized to int8 at load).
//                Chunks keep the table above; vocabulary, SIF weights and common component are shared.
// A format 1 file is a model without a query table, and such a model writes format 1 (same bytes,
// same fingerprint as before format 2 existed).
import { sha256Hex } from '../../index/sha256.ts';
import { TokenIds } from './token-ids.ts';

export interface LearnedParams {
  /**
   * Vector dimensions. 192 by default: on the dev set 192 beat 128 vector-only (R@5 0.626 vs 0.587)
   * and fused (0.746 vs 0.712), 256 was no better than 192 and costs 1.5x the SVD.
   */
  dims: number;
  /** Co-occurrence window, tokens each side (weights 1/distance). */
  window: number;
  /** A token needs this many occurrences to get a vector. */
  minCount: number;
  /** The vocabulary's size cap (the most frequent tokens): bounds the SVD's cost and the model's size on big repositories. */
  maxVocab: number;
  /** PPMI entries kept per word (the largest); 0 keeps all. */
  maxPerRow: number;
  /** SIF smoothing a: a token's weight is a / (a + p(token)). 1e-2 (not Arora's 1e-3): code repeats its frequent tokens far more than prose; measured better on the dev set. */
  sifA: number;
  /** Singular value weighting of word vectors: U · Σ^p. */
  eigPower: number;
  oversample: number;
  powerIterations: number;
  seed: number;
}

export const DEFAULT_LEARNED_PARAMS: Readonly<LearnedParams> = {
  dims: 192, window: 5, minCount: 2, maxVocab: 10_000, maxPerRow: 200, sifA: 1e-2, eigPower: 0.5, oversample: 8, powerIterations: 1, seed: 0x6c65_6172,
};

/**
 * The weighted sum at the end of meanOf: out[at + j] = f32((Σ_b factors[b] · vector(ids[b])[j]) / n),
 * summed in bag order from 0 in f64 (so every implementation returns the same bits).
 */
export type SifSum = (ids: Int32Array, factors: Float64Array, count: number, n: number, out: Float32Array, at: number) => void;

export interface LearnedHeader {
  /** 1: one table for chunks and queries; 2: a query-side table follows (`query: 'table'`). */
  format: 1 | 2;
  /** Format 2: queries are embedded with their own word table (same vocabulary and dims). */
  query?: 'table';
  /** Format 2: the first column the query table stores (the columns before it are the main table's); absent: 0. */
  queryFrom?: number;
  dims: number;
  vocabSize: number;
  params: LearnedParams;
  /** Chunks and kept tokens the model was trained on, and the share of those tokens it has no vector for. */
  trained: { chunks: number; tokens: number; oovRate: number };
  /** The one int8 scale for this model's chunk vectors (fitted on the training chunks). */
  vectorScale: number;
}

/** How much of some texts the model knows. */
export interface Coverage {
  texts: number;
  tokens: number;
  oov: number;
}

export interface DriftVerdict {
  /** Out-of-vocabulary share of the tokens embedded since training. */
  oovRate: number;
  /** The same share over the training chunks (rare tokens below minCount). */
  baseline: number;
  /** Chunks embedded since training, over the chunks trained on. */
  growth: number;
  retrain: boolean;
  reason: string | null;
}

const MAGIC = [0x48, 0x43, 0x49, 0x4c, 0x4d, 0x31, 0, 0]; // "HCILM1\0\0"

export class LearnedModel {
  private readonly index = new Map<string, number>();
  /** Texts to this vocabulary's ids (each identifier split and looked up once). */
  private readonly tokenIds = new TokenIds((t) => this.index.get(t));
  /** SIF weight × vector scale, per token: the factor its int8 row is summed with. */
  private readonly factor: Float64Array;
  private readonly scratch: Float64Array;
  private readonly projected: Float64Array;
  /** meanOf's bag of words: slot+1 of a token in the bag (0: not in it), the bag's ids and counts. */
  private readonly bagSlot: Int32Array;
  private readonly bagIds: Int32Array;
  private readonly bagCounts: Float64Array;
  private readonly bagFactors: Float64Array;
  /** Model key part: a digest of the serialized bytes (a retrained model gets a new one). */
  readonly fingerprint: string;
  /** The query side (format 2): a model of the same vocabulary, SIF weights and common component over the query rows; null: queries use this one. */
  readonly querySide: LearnedModel | null;
  /** The query table as stored (what toBytes writes). */
  readonly queryTable: QueryTable | null;

  constructor(
    readonly header: LearnedHeader,
    readonly vocab: readonly string[],
    readonly weights: Float32Array,
    readonly rowScale: Float32Array,
    readonly common: Float32Array,
    readonly vectors: Int8Array,
    fingerprint?: string,
    /** The query table (format 2) as stored: per-token scales and int8 rows of its columns from `from` on (V × (dims − from)). */
    query?: QueryTable,
  ) {
    const { dims, vocabSize } = header;
    if (vocab.length !== vocabSize || weights.length !== vocabSize || rowScale.length !== vocabSize || common.length !== dims || vectors.length !== vocabSize * dims) {
      throw new RangeError('learned model: section sizes do not match its header');
    }
    const from = query?.from ?? 0;
    if (query && (!Number.isInteger(from) || from < 0 || from >= dims || query.rowScale.length !== vocabSize || query.vectors.length !== vocabSize * (dims - from) || (header.queryFrom ?? 0) !== from)) {
      throw new RangeError('learned model: the query table does not match its header');
    }
    if ((header.format === 2) !== (query !== undefined) || (header.format === 2) !== (header.query === 'table')) throw new RangeError('learned model: a query table goes with format 2 and query "table"');
    this.queryTable = query ?? null;
    vocab.forEach((t, i) => this.index.set(t, i));
    this.scratch = new Float64Array(dims);
    this.projected = new Float64Array(dims);
    this.bagSlot = new Int32Array(vocabSize);
    this.bagIds = new Int32Array(vocabSize);
    this.bagCounts = new Float64Array(vocabSize);
    this.bagFactors = new Float64Array(vocabSize);
    this.factor = new Float64Array(vocabSize);
    for (let i = 0; i < vocabSize; i++) this.factor[i] = weights[i] * rowScale[i];
    if (query) {
      const full = from === 0 ? query : joinQueryRows(vectors, rowScale, query, dims);
      const { query: _q, queryFrom: _f, ...rest } = header;
      void _q;
      void _f;
      this.querySide = new LearnedModel({ ...rest, format: 1 }, vocab, weights, full.rowScale, common, full.vectors, 'query-side');
    } else this.querySide = null;
    this.fingerprint = fingerprint ?? sha256Hex(this.toBytes(), 8);
  }

  /** This model with `query` as its query table (format 2; `from` > 0: its columns from there on), or without one (null: format 1). */
  withQueryTable(query: QueryTable | null): LearnedModel {
    const { query: _q, queryFrom: _f, ...rest } = this.header;
    void _q;
    void _f;
    const header: LearnedHeader = query ? { ...rest, format: 2, query: 'table', ...(query.from ? { queryFrom: query.from } : {}) } : { ...rest, format: 1 };
    return new LearnedModel(header, this.vocab, this.weights, this.rowScale, this.common, this.vectors, undefined, query ?? undefined);
  }

  get dims(): number {
    return this.header.dims;
  }

  /** A token's id in this model's vocabulary (the ids embed() and meanOf() use), or undefined. */
  idOf(token: string): number | undefined {
    return this.index.get(token);
  }

  /** Unit-length vectors, row-major `texts.length × dims`; a text with no known token gets zeros. */
  embed(texts: readonly string[]): { vectors: Float32Array; coverage: Coverage } {
    const { dims } = this;
    const out = new Float32Array(texts.length * dims);
    const cov: Coverage = { texts: texts.length, tokens: 0, oov: 0 };
    for (let i = 0; i < texts.length; i++) {
      const run = this.tokenIds.ids(texts[i]);
      cov.tokens += run.tokens;
      cov.oov += run.oov;
      this.meanOf(run.ids, 0, run.n, out, i * dims);
      this.project(out, i * dims);
    }
    return { vectors: out, coverage: cov };
  }

  /** Query vectors: embed() over the query table when the model has one (format 2), else embed() itself. */
  embedQueries(texts: readonly string[]): { vectors: Float32Array; coverage: Coverage } {
    return (this.querySide ?? this).embed(texts);
  }

  /**
   * The SIF-weighted mean of the token ids in ids[start … end) into out[at …] (f32; zeros when
   * there are none). Each distinct token counts once with its multiplicity, in order of first
   * appearance: half the work on code, where chunks repeat their words, and one fixed summation
   * order, shared by embed() and the trainer (same bits).
   */
  meanOf(ids: Int32Array | Uint16Array, start: number, end: number, out: Float32Array, at: number, sum: SifSum = this.jsSum): void {
    const { bagSlot, bagIds, bagCounts, bagFactors, factor } = this;
    if (end <= start) return;
    let distinct = 0;
    for (let i = start; i < end; i++) {
      const id = ids[i];
      const slot = bagSlot[id];
      if (slot > 0) bagCounts[slot - 1]++;
      else {
        bagIds[distinct] = id;
        bagCounts[distinct] = 1;
        bagSlot[id] = ++distinct;
      }
    }
    for (let b = 0; b < distinct; b++) {
      const id = bagIds[b];
      bagSlot[id] = 0;
      bagFactors[b] = bagCounts[b] * factor[id];
    }
    sum(bagIds, bagFactors, distinct, end - start, out, at);
  }

  /** meanOf's weighted sum in JavaScript (the twin of kernel.wat's sif_mean, which the trainer runs through dense.ts). */
  private readonly jsSum: SifSum = (ids, factors, count, n, out, at) => {
    const { dims, vectors } = this;
    const acc = this.scratch;
    acc.fill(0);
    for (let b = 0; b < count; b++) {
      const f = factors[b];
      const o = ids[b] * dims;
      for (let j = 0; j < dims; j++) acc[j] += f * vectors[o + j];
    }
    for (let j = 0; j < dims; j++) out[at + j] = acc[j] / n;
  };

  /** In place: an f32 SIF mean at v[at …] minus its projection on the common component, unit length (zeros stay zeros). */
  project(v: Float32Array, at: number): void {
    const { dims, common } = this;
    let d = 0;
    for (let j = 0; j < dims; j++) d += v[at + j] * common[j];
    const x = this.projected;
    let n = 0;
    for (let j = 0; j < dims; j++) {
      x[j] = v[at + j] - d * common[j];
      n += x[j] * x[j];
    }
    if (!(n > 0)) {
      v.fill(0, at, at + dims);
      return;
    }
    const inv = 1 / Math.sqrt(n);
    for (let j = 0; j < dims; j++) v[at + j] = x[j] * inv;
  }

  /** Coverage of texts without embedding them. */
  coverage(texts: Iterable<string>): Coverage {
    const cov: Coverage = { texts: 0, tokens: 0, oov: 0 };
    for (const text of texts) {
      const run = this.tokenIds.ids(text);
      cov.texts++;
      cov.tokens += run.tokens;
      cov.oov += run.oov;
    }
    return cov;
  }

  /**
   * Whether chunks embedded since training (their coverage summed) call for a retrain: their
   * out-of-vocabulary share exceeds the training baseline by `maxExcess` (default 0.05, over at
   * least `minTokens` tokens), or the chunks since training outnumber the chunks trained on.
   */
  drift(since: Coverage, opts: { maxExcess?: number; minTokens?: number; maxGrowth?: number } = {}): DriftVerdict {
    const maxExcess = opts.maxExcess ?? 0.05;
    const minTokens = opts.minTokens ?? 5_000;
    const maxGrowth = opts.maxGrowth ?? 1;
    const baseline = this.header.trained.oovRate;
    const oovRate = since.tokens ? since.oov / since.tokens : 0;
    const growth = this.header.trained.chunks ? since.texts / this.header.trained.chunks : since.texts > 0 ? Infinity : 0;
    let reason: string | null = null;
    if (since.tokens >= minTokens && oovRate - baseline > maxExcess) {
      reason = `${(oovRate * 100).toFixed(1)}% of new tokens are unknown to the model (${(baseline * 100).toFixed(1)}% when trained)`;
    } else if (growth > maxGrowth) {
      reason = `${since.texts} chunks embedded since training, more than the ${this.header.trained.chunks} trained on`;
    }
    return { oovRate, baseline, growth, retrain: reason !== null, reason };
  }

  toBytes(): Uint8Array {
    const enc = new TextEncoder();
    const head = enc.encode(JSON.stringify(this.header));
    const vocab = enc.encode(this.vocab.join('\n'));
    const { dims, vocabSize: V } = this.header;
    const q = this.queryTable;
    const qCols = q ? dims - (q.from ?? 0) : 0;
    const size = 12 + pad4(head.length) + 4 + pad4(vocab.length) + 4 * V * 2 + 4 * dims + V * dims + (q ? pad4(V * dims) - V * dims + 4 * V + V * qCols : 0);
    const bytes = new Uint8Array(size);
    const dv = new DataView(bytes.buffer);
    bytes.set(MAGIC, 0);
    dv.setUint32(8, head.length, true);
    bytes.set(head, 12);
    let o = 12 + pad4(head.length);
    dv.setUint32(o, vocab.length, true);
    bytes.set(vocab, o + 4);
    o += 4 + pad4(vocab.length);
    for (const arr of [this.weights, this.rowScale, this.common]) {
      for (let i = 0; i < arr.length; i++, o += 4) dv.setFloat32(o, arr[i], true);
    }
    bytes.set(new Uint8Array(this.vectors.buffer, this.vectors.byteOffset, this.vectors.byteLength), o);
    if (q) {
      o += pad4(V * dims);
      for (let i = 0; i < V; i++, o += 4) dv.setFloat32(o, q.rowScale[i], true);
      bytes.set(new Uint8Array(q.vectors.buffer, q.vectors.byteOffset, q.vectors.byteLength), o);
    }
    return bytes;
  }

  static fromBytes(bytes: Uint8Array): LearnedModel {
    const fail = (why: string) => new RangeError(`not a learned model: ${why}`);
    if (bytes.length < 16 || MAGIC.some((b, i) => bytes[i] !== b)) throw fail('bad magic');
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const dec = new TextDecoder('utf-8', { fatal: true });
    const headLen = dv.getUint32(8, true);
    if (12 + headLen > bytes.length) throw fail('truncated header');
    const header = JSON.parse(dec.decode(bytes.subarray(12, 12 + headLen))) as LearnedHeader;
    if (header.format !== 1 && header.format !== 2) throw fail(`unknown format ${String(header.format)}`);
    if (header.format === 2 && header.query !== 'table') throw fail('format 2 without a query table');
    const { dims, vocabSize: V } = header;
    let o = 12 + pad4(headLen);
    const vocabLen = dv.getUint32(o, true);
    const vocabText = dec.decode(bytes.subarray(o + 4, o + 4 + vocabLen));
    const vocab = V === 0 ? [] : vocabText.split('\n');
    o += 4 + pad4(vocabLen);
    const from = header.queryFrom ?? 0;
    const querySize = header.format === 2 ? pad4(V * dims) + 4 * V + V * (dims - from) : V * dims;
    if (o + 4 * (2 * V + dims) + querySize !== bytes.length) throw fail('section sizes do not match the header');
    const readF32 = (n: number) => {
      const a = new Float32Array(n);
      for (let i = 0; i < n; i++, o += 4) a[i] = dv.getFloat32(o, true);
      return a;
    };
    const weights = readF32(V);
    const rowScale = readF32(V);
    const common = readF32(dims);
    const vectors = new Int8Array(bytes.slice(o, o + V * dims).buffer);
    let query: QueryTable | undefined;
    if (header.format === 2) {
      o += pad4(V * dims);
      const qScale = readF32(V);
      query = { rowScale: qScale, vectors: new Int8Array(bytes.slice(o, o + V * (dims - from)).buffer), ...(from ? { from } : {}) };
    }
    return new LearnedModel(header, vocab, weights, rowScale, common, vectors, sha256Hex(bytes, 8), query);
  }
}

/** A query table as a model stores it: per-token scales and int8 rows of columns `from` (default 0) … dims − 1. */
export interface QueryTable {
  rowScale: Float32Array;
  vectors: Int8Array;
  from?: number;
}

/**
 * Rows (V × cols, row-major f64) as int8 with a scale per row (max |value| / 127, as f32; a zero row
 * stays zeros) — no normalisation: the query table's columns keep their size beside the main table's.
 */
export function quantizeRows(rows: Float64Array, V: number, cols: number): { rowScale: Float32Array; vectors: Int8Array } {
  const rowScale = new Float32Array(V);
  const vectors = new Int8Array(V * cols);
  for (let w = 0; w < V; w++) {
    let max = 0;
    for (let j = 0; j < cols; j++) max = Math.max(max, Math.abs(rows[w * cols + j]));
    if (!(max > 0)) continue;
    const scale = Math.fround(max / 127);
    rowScale[w] = scale;
    for (let j = 0; j < cols; j++) vectors[w * cols + j] = Math.max(-127, Math.min(127, Math.round(rows[w * cols + j] / scale)));
  }
  return { rowScale, vectors };
}

/** Full query rows (V × dims): columns before `from` the main table's, the rest the query table's, each at its own scale, requantized together. */
function joinQueryRows(main: Int8Array, mainScale: Float32Array, q: QueryTable, dims: number): { rowScale: Float32Array; vectors: Int8Array } {
  const from = q.from ?? 0;
  const V = mainScale.length;
  const qCols = dims - from;
  const rows = new Float64Array(V * dims);
  for (let w = 0; w < V; w++) {
    for (let j = 0; j < from; j++) rows[w * dims + j] = main[w * dims + j] * mainScale[w];
    for (let j = 0; j < qCols; j++) rows[w * dims + from + j] = q.vectors[w * qCols + j] * q.rowScale[w];
  }
  return quantizeRows(rows, V, dims);
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}
