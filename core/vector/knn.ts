// Exact k-nearest-neighbour search over one model's stored vectors: the query's encoding for the
// scan (int16 for int8 rows), exact top-k with a fixed tie-break, and a cache that keeps the loaded
// rows for one index generation. Owns ranking only; the per-row scores come from scan.ts, the rows
// from the store (which hands them over packed, in its row order, with their chunk ids).
//
// Identical results everywhere: for int8 rows the ranking is by exact integer dot products and the
// score is that integer times one double factor, so the WASM kernel and the JS twin, in Node, Deno
// or a browser, return the same hits with bit-identical scores. f32 rows are bit-identical too (see
// scan.ts). Ties are broken by chunk id, smaller first.
import { createScanner, createScannerSync, type Quantization, type ScanBackendName, type Scanner } from './scan.ts';

/** One model's vectors as the store loads them. */
export interface PackedVectors {
  dims: number;
  quantization: Quantization;
  /** Row-major `count × dims` (Int8Array for int8, Float32Array for f32), no padding. */
  data: Int8Array | Float32Array;
  /** int8 only: a stored value q stands for q × scale. */
  scale?: number;
  /** The chunk id of each row (the tie-break, and what a hit names). */
  ids: ArrayLike<number>;
}

export interface KnnHit {
  /** The chunk id of the row. */
  id: number;
  /** The row's position in the packed vectors. */
  row: number;
  /** Dot product of the query and the row (cosine similarity when both are unit length). */
  score: number;
}

export interface KnnQuery {
  k: number;
  /** Rows to consider: mask[row] !== 0 (all rows when omitted). */
  mask?: Uint8Array;
  /** Hits scoring below this are left out. */
  minScore?: number;
}

export class KnnIndex {
  /** Rows by chunk id when the ids are not in ascending order (null: they are; undefined: not checked yet). */
  private rowById: Map<number, number> | null | undefined;

  private constructor(
    private readonly scanner: Scanner,
    private readonly ids: ArrayLike<number>,
    private readonly scale: number,
    private readonly queryBuf: Int16Array | Float32Array,
  ) {}

  static async create(v: PackedVectors, backend: 'auto' | 'wasm' | 'js' = 'auto'): Promise<KnnIndex> {
    const scale = KnnIndex.check(v);
    const scanner = await createScanner(v, backend);
    return KnnIndex.of(scanner, v, scale);
  }

  /** The same, synchronously, with the kernel module compiled beforehand (scan.ts kernelModule(); null: no SIMD). */
  static createSync(v: PackedVectors, mod: WebAssembly.Module | null, backend: 'auto' | 'wasm' | 'js' = 'auto'): KnnIndex {
    const scale = KnnIndex.check(v);
    return KnnIndex.of(createScannerSync(v, mod, backend), v, scale);
  }

  private static of(scanner: Scanner, v: PackedVectors, scale: number): KnnIndex {
    const queryBuf = v.quantization === 'int8' ? new Int16Array(scanner.stride) : new Float32Array(scanner.stride);
    return new KnnIndex(scanner, v.ids, scale, queryBuf);
  }

  private static check(v: PackedVectors): number {
    const count = v.data.length / v.dims;
    if (v.ids.length !== count) throw new RangeError(`${count} vectors but ${v.ids.length} ids`);
    let scale = 1;
    if (v.quantization === 'int8') {
      scale = v.scale ?? NaN;
      if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`int8 vectors need a positive scale (got ${v.scale})`);
    }
    return scale;
  }

  get backend(): ScanBackendName {
    return this.scanner.backend;
  }
  get count(): number {
    return this.scanner.count;
  }
  get dims(): number {
    return this.scanner.dims;
  }
  get quantization(): Quantization {
    return this.scanner.quantization;
  }

  /** The k best rows for a query of `dims` floats, best first. A zero or non-finite query finds nothing. */
  search(query: Float32Array, q: KnnQuery): KnnHit[] {
    if (q.mask && q.mask.length !== this.count) throw new RangeError(`the mask covers ${q.mask.length} rows, the index holds ${this.count}`);
    const k = Math.max(0, Math.floor(q.k));
    if (k === 0 || this.count === 0) return [];
    const factor = this.encode(query);
    if (factor === null) return [];
    const scores = this.scanner.quantization === 'int8' ? this.scanner.dotInt8(this.queryBuf as Int16Array) : this.scanner.dotF32(this.queryBuf as Float32Array);
    const hits = topRows(scores, this.ids, k, q.mask).map((row) => ({ id: this.ids[row], row, score: scores[row] * factor }));
    // Filtering after top-k keeps the same set (the bound is monotone in the score) and compares the score as returned.
    return q.minScore === undefined ? hits : hits.filter((h) => h.score >= q.minScore!);
  }

  /**
   * The query's score for each of the given chunk ids that has a row (ids without one are left
   * out): the very score `search` gives that row, bit for bit, for the cost of those rows only. A
   * zero or non-finite query scores nothing.
   */
  scores(query: Float32Array, chunkIds: Iterable<number>): Map<number, number> {
    const out = new Map<number, number>();
    const want = [...new Set(chunkIds)].filter((id) => this.rowOf(id) >= 0);
    if (!want.length) return out;
    const rows = want.map((id) => this.rowOf(id));
    const factor = this.encode(query);
    if (factor === null) return out;
    const dots = this.scanner.dotRows(this.queryBuf, rows);
    want.forEach((id, i) => out.set(id, dots[i] * factor));
    return out;
  }

  /** The row holding a chunk id, or -1 (the store packs rows in chunk id order: a binary search; else a map, built once). */
  private rowOf(id: number): number {
    const ids = this.ids;
    if (this.rowById === undefined) {
      let sorted = true;
      for (let r = 1; r < ids.length && sorted; r++) sorted = ids[r - 1] < ids[r];
      this.rowById = sorted ? null : new Map(Array.from({ length: ids.length }, (_, r) => [ids[r], r]));
    }
    if (this.rowById) return this.rowById.get(id) ?? -1;
    let lo = 0;
    let hi = ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = ids[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Puts the query into the scan's buffer (int16 for int8 rows); the factor that turns a dot into a score, or null for a zero or non-finite query. */
  private encode(query: Float32Array): number | null {
    const { dims } = this.scanner;
    if (query.length !== dims) throw new RangeError(`the query has ${query.length} dims, the vectors ${dims}`);
    let maxAbs = 0;
    for (let i = 0; i < dims; i++) {
      const a = Math.abs(query[i]);
      if (!(a <= Number.MAX_VALUE)) return null; // NaN or ±Infinity
      if (a > maxAbs) maxAbs = a;
    }
    if (maxAbs === 0) return null;
    if (this.scanner.quantization === 'int8') {
      const qBuf = this.queryBuf as Int16Array;
      const qScale = maxAbs / int16Range(dims);
      for (let i = 0; i < dims; i++) qBuf[i] = Math.round(query[i] / qScale);
      return this.scale * qScale;
    }
    (this.queryBuf as Float32Array).set(query);
    return 1;
  }
}

/**
 * The int16 range for a query of `dims` values: as fine as int16 allows, as long as an int8 row's
 * dot product with it cannot overflow int32 (127 · dims · range < 2^31). 32767 up to 516 dims.
 */
export function int16Range(dims: number): number {
  return Math.min(32767, Math.floor(0x7fffffff / (127 * dims)));
}

/**
 * Rows of the k highest scores, best first; equal scores by smaller id. NaN scores never rank.
 * A bounded min-heap: the root is the worst row kept, so most rows cost one comparison.
 */
export function topRows(scores: ArrayLike<number>, ids: ArrayLike<number>, k: number, mask?: Uint8Array): number[] {
  const heap = new Int32Array(k);
  let size = 0;
  // a ranks below b
  const worse = (a: number, b: number) => scores[a] < scores[b] || (scores[a] === scores[b] && ids[a] > ids[b]);
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) return;
      const r = l + 1;
      const c = r < size && worse(heap[r], heap[l]) ? r : l;
      if (!worse(heap[c], heap[i])) return;
      const t = heap[i];
      heap[i] = heap[c];
      heap[c] = t;
      i = c;
    }
  };
  const n = scores.length;
  for (let row = 0; row < n; row++) {
    const s = scores[row];
    if (s !== s) continue; // NaN
    if (mask && mask[row] === 0) continue;
    if (size < k) {
      let i = size++;
      heap[i] = row;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!worse(heap[i], heap[p])) break;
        const t = heap[i];
        heap[i] = heap[p];
        heap[p] = t;
        i = p;
      }
    } else if (s >= scores[heap[0]] && worse(heap[0], row)) {
      heap[0] = row;
      siftDown(0);
    }
  }
  const out = Array.from(heap.subarray(0, size));
  return out.sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
}

/**
 * Keeps the loaded vectors of one index generation. `get` with the key it holds returns the same
 * index; a new key (a committed batch, a model change) loads again and drops the old rows. The key
 * is the caller's: e.g. `${indexPath}#${generation}#${modelKey}`.
 */
export class KnnCache {
  private key: string | undefined;
  private pending: Promise<KnnIndex> | undefined;

  constructor(private readonly backend: 'auto' | 'wasm' | 'js' = 'auto') {}

  get(generationKey: string, load: () => PackedVectors | Promise<PackedVectors>): Promise<KnnIndex> {
    if (this.pending && this.key === generationKey) return this.pending;
    this.key = generationKey;
    const p = (async () => KnnIndex.create(await load(), this.backend))();
    this.pending = p;
    // A failed load is not kept: the next get tries again.
    p.catch(() => {
      if (this.pending === p) {
        this.pending = undefined;
        this.key = undefined;
      }
    });
    return p;
  }

  /** The key of the loaded (or loading) generation. */
  get current(): string | undefined {
    return this.key;
  }

  clear(): void {
    this.key = undefined;
    this.pending = undefined;
  }
}
