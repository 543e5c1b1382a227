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
    const { dims } = this.scanner;
    if (query.length !== dims) throw new RangeError(`the query has ${query.length} dims, the vectors ${dims}`);
    if (q.mask && q.mask.length !== this.count) throw new RangeError(`the mask covers ${q.mask.length} rows, the index holds ${this.count}`);
    const k = Math.max(0, Math.floor(q.k));
    if (k === 0 || this.count === 0) return [];
    let maxAbs = 0;
    for (let i = 0; i < dims; i++) {
      const a = Math.abs(query[i]);
      if (!(a <= Number.MAX_VALUE)) return []; // NaN or ±Infinity
      if (a > maxAbs) maxAbs = a;
    }
    if (maxAbs === 0) return [];
    let scores: Int32Array | Float32Array;
    let factor = 1;
    if (this.scanner.quantization === 'int8') {
      const qBuf = this.queryBuf as Int16Array;
      const range = int16Range(dims);
      const qScale = maxAbs / range;
      for (let i = 0; i < dims; i++) qBuf[i] = Math.round(query[i] / qScale);
      scores = this.scanner.dotInt8(qBuf);
      factor = this.scale * qScale;
    } else {
      (this.queryBuf as Float32Array).set(query);
      scores = this.scanner.dotF32(this.queryBuf as Float32Array);
    }
    const hits = topRows(scores, this.ids, k, q.mask).map((row) => ({ id: this.ids[row], row, score: scores[row] * factor }));
    // Filtering after top-k keeps the same set (the bound is monotone in the score) and compares the score as returned.
    return q.minScore === undefined ? hits : hits.filter((h) => h.score >= q.minScore!);
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
