// The learned model's heavy arithmetic — the randomized SVD's sparse × dense (M·X, Mᵀ·X), dense ×
// dense, Gram matrix AᵀA, triangular solve Y·R⁻¹ and Jacobi rotations, and the chunk vectors' SIF
// sums — behind one small interface with two implementations: the WASM SIMD kernel
// (core/vector/kernel.wat's spmm, gemm, gram_upper, solve_right, jacobi_rotate and sif_mean, f64x2)
// and its JavaScript twin. Both do every output element's operations in the same order (SIMD lanes
// run across independent elements; see kernel.wat), so they return the same bits and a model trains
// bit-identically with or without SIMD, in every runtime. Owns the kernel's training memory (a
// scratch region per call: inputs copied in, the result copied out) and the twin; which products
// the factorization needs, and in what order, is svd.ts's; the SIF mean's bag of words is model.ts's.
import { KERNEL_WASM } from '../kernel-wasm.ts';
import type { Csr } from './sparse.ts';
import type { SifSum } from './model.ts';

export interface DenseOps {
  readonly backend: 'wasm-simd' | 'js';
  /**
   * M · X, with X row-major `M.cols × width`; returns `M.rows × width`, row-major: written into
   * `out` when given (its first rows × width elements; it must not overlap X), else a new array.
   */
  mulSparse(m: Csr, x: Float64Array, width: number, out?: Float64Array): Float64Array;
  /** A (rows × inner) · B (inner × width), both row-major; into `out` (not overlapping A or B) when given. */
  multiply(a: Float64Array, rows: number, inner: number, b: Float64Array, width: number, out?: Float64Array): Float64Array;
  /** Aᵀ·A for a row-major `rows × width` matrix: `width × width`, symmetric. */
  gram(a: Float64Array, rows: number, width: number): Float64Array;
  /** In place: each row y of a row-major `rows × n` matrix becomes y·R⁻¹ (R upper triangular, n × n). */
  solveRight(a: Float64Array, rows: number, n: number, r: Float64Array): void;
  /**
   * Eigen-decomposition of a symmetric `n × n` matrix by cyclic Jacobi rotations: the eigenvalues
   * largest first and the matching eigenvectors as columns (row-major `n × n`).
   */
  symmetricEigen(a: Float64Array, n: number): { values: Float64Array; vectors: Float64Array };
  /**
   * The kernel's SIF sum over these int8 word vectors (V × dims), for bags of up to `maxBag`
   * tokens (model.ts SifSum); absent in the twin: the model's own JS sum is the twin.
   */
  sifSum?(vectors: Int8Array, dims: number, maxBag: number): SifSum;
}

export type DenseBackend = 'auto' | 'wasm' | 'js';

/** The products for one factorization: the SIMD kernel where the runtime has it (`auto`), else the twin. */
export function denseOps(backend: DenseBackend = 'auto'): DenseOps {
  if (backend !== 'js') {
    const mod = kernelModuleSync();
    if (mod) return new WasmDense(new WebAssembly.Instance(mod));
    if (backend === 'wasm') throw new Error('this runtime has no WebAssembly SIMD: the training kernel cannot run here');
  }
  return jsDense;
}

let compiled: WebAssembly.Module | null | undefined;

/** The kernel, compiled synchronously once (it is ~2 KB: allowed even on a browser's main thread); null without SIMD. */
function kernelModuleSync(): WebAssembly.Module | null {
  if (compiled === undefined) {
    compiled = typeof WebAssembly === 'object' && WebAssembly.validate(KERNEL_WASM) ? new WebAssembly.Module(KERNEL_WASM) : null;
  }
  return compiled;
}

/** One rotation (c, s) in the plane (p, q) of `a` and of the transposed eigenvector matrix `vt`. */
type Rotate = (p: number, q: number, c: number, s: number) => void;

/**
 * Cyclic Jacobi over `a` (a working copy, changed in place) and `vt` (the identity, transposed
 * eigenvectors: row k is the k-th eigenvector), rotations applied by `rotate`: the same steps for
 * the kernel and the twin, so the same bits.
 */
function jacobi(a: Float64Array<ArrayBufferLike>, vt: Float64Array<ArrayBufferLike>, n: number, rotate: Rotate): { values: Float64Array; vectors: Float64Array } {
  let total = 0;
  for (let i = 0; i < n * n; i++) total += a[i] * a[i];
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += a[p * n + q] * a[p * n + q];
    if (off <= 1e-24 * total || off === 0) break; // off-diagonal mass below 1e-12 of the whole, in norm
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q];
        if (apq === 0) continue;
        const app = a[p * n + p];
        const aqq = a[q * n + q];
        const theta = (aqq - app) / (2 * apq);
        const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        rotate(p, q, c, t * c);
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j] - a[i * n + i] || i - j);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    values[dst] = a[src * n + src];
    for (let k = 0; k < n; k++) vectors[k * n + dst] = vt[src * n + k];
  });
  return { values, vectors };
}

function identity(n: number, into: Float64Array<ArrayBufferLike> = new Float64Array(n * n)): Float64Array<ArrayBufferLike> {
  into.fill(0);
  for (let i = 0; i < n; i++) into[i * n + i] = 1;
  return into;
}

// ── the JavaScript twin ────────────────────────────────────────────────────────────────────────

export const jsDense: DenseOps = {
  backend: 'js',

  // The inner loop takes two entries of a row at a time (half the loads and stores of the output row).
  mulSparse(m, x, width, out) {
    const y = zeroed(m.rows * width, out);
    const { rowPtr, colIdx, values } = m;
    for (let r = 0; r < m.rows; r++) {
      const yo = r * width;
      const end = rowPtr[r + 1];
      let p = rowPtr[r];
      for (; p + 1 < end; p += 2) {
        const v0 = values[p];
        const v1 = values[p + 1];
        const x0 = colIdx[p] * width;
        const x1 = colIdx[p + 1] * width;
        for (let j = 0; j < width; j++) y[yo + j] += v0 * x[x0 + j] + v1 * x[x1 + j];
      }
      if (p < end) {
        const v = values[p];
        const xo = colIdx[p] * width;
        for (let j = 0; j < width; j++) y[yo + j] += v * x[xo + j];
      }
    }
    return y;
  },

  // Two rows of B per pass over the output row.
  multiply(a, rows, inner, b, width, into) {
    const out = zeroed(rows * width, into);
    for (let r = 0; r < rows; r++) {
      const ao = r * inner;
      const oo = r * width;
      let k = 0;
      for (; k + 1 < inner; k += 2) {
        const a0 = a[ao + k], a1 = a[ao + k + 1];
        const b0 = k * width, b1 = b0 + width;
        for (let j = 0; j < width; j++) out[oo + j] += a0 * b[b0 + j] + a1 * b[b1 + j];
      }
      if (k < inner) {
        const av = a[ao + k];
        const bo = k * width;
        for (let j = 0; j < width; j++) out[oo + j] += av * b[bo + j];
      }
    }
    return out;
  },

  // Four rows per pass over the output, the upper triangle, then mirrored.
  gram(a, rows, width) {
    const g = new Float64Array(width * width);
    let r = 0;
    for (; r + 3 < rows; r += 4) {
      const o0 = r * width, o1 = o0 + width, o2 = o1 + width, o3 = o2 + width;
      for (let i = 0; i < width; i++) {
        const a0 = a[o0 + i], a1 = a[o1 + i], a2 = a[o2 + i], a3 = a[o3 + i];
        const gi = i * width;
        for (let j = i; j < width; j++) g[gi + j] += a0 * a[o0 + j] + a1 * a[o1 + j] + (a2 * a[o2 + j] + a3 * a[o3 + j]);
      }
    }
    for (; r < rows; r++) {
      const o = r * width;
      for (let i = 0; i < width; i++) {
        const ai = a[o + i];
        const gi = i * width;
        for (let j = i; j < width; j++) g[gi + j] += ai * a[o + j];
      }
    }
    mirrorUpper(g, width);
    return g;
  },

  // Forward substitution over Rᵀ's contiguous rows, two accumulators.
  solveRight(a, rows, n, r) {
    const rt = transposeSquare(r, n);
    for (let row = 0; row < rows; row++) {
      const o = row * n;
      for (let j = 0; j < n; j++) {
        const c = j * n;
        let v0 = a[o + j];
        let v1 = 0;
        let k = 0;
        for (; k + 1 < j; k += 2) {
          v0 -= a[o + k] * rt[c + k];
          v1 -= a[o + k + 1] * rt[c + k + 1];
        }
        if (k < j) v0 -= a[o + k] * rt[c + k];
        a[o + j] = (v0 + v1) / rt[c + j];
      }
    }
  },

  symmetricEigen(input, n) {
    const a = Float64Array.from(input);
    const vt = identity(n);
    return jacobi(a, vt, n, (p, q, c, s) => {
      for (let k = 0; k < n; k++) {
        const akp = a[k * n + p];
        const akq = a[k * n + q];
        a[k * n + p] = c * akp - s * akq;
        a[k * n + q] = s * akp + c * akq;
      }
      rotateRows(a, p * n, q * n, n, c, s);
      rotateRows(vt, p * n, q * n, n, c, s);
    });
  },
};

/** `n` zeros: the first n elements of `into` set to 0 (a view of them), or a new array. */
function zeroed(n: number, into?: Float64Array): Float64Array {
  if (!into) return new Float64Array(n);
  if (into.length < n) throw new RangeError(`an output of ${into.length} elements for ${n}`);
  return into.subarray(0, n).fill(0);
}

/** The kernel's result (a view of its memory) copied out: into `out`'s first elements when given, else a new array. */
function copyOut(result: Float64Array, out?: Float64Array): Float64Array {
  if (!out) return result.slice();
  if (out.length < result.length) throw new RangeError(`an output of ${out.length} elements for ${result.length}`);
  const o = out.subarray(0, result.length);
  o.set(result);
  return o;
}

function rotateRows(m: Float64Array, x: number, y: number, n: number, c: number, s: number): void {
  for (let k = 0; k < n; k++) {
    const mx = m[x + k];
    const my = m[y + k];
    m[x + k] = c * mx - s * my;
    m[y + k] = s * mx + c * my;
  }
}

function mirrorUpper(g: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) g[i * n + j] = g[j * n + i];
}

export function transposeSquare(a: Float64Array, n: number): Float64Array {
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) t[j * n + i] = a[i * n + j];
  return t;
}

// ── the kernel ─────────────────────────────────────────────────────────────────────────────────

interface TrainExports {
  memory: WebAssembly.Memory;
  spmm(rowPtr: number, colIdx: number, values: number, rows: number, x: number, width: number, y: number): void;
  gemm(a: number, rows: number, inner: number, b: number, width: number, out: number): void;
  gram_upper(a: number, rows: number, width: number, g: number): void;
  solve_right(a: number, rows: number, n: number, rt: number): void;
  jacobi_rotate(a: number, vt: number, n: number, p: number, q: number, c: number, s: number): void;
  sif_mean(acc: number, vectors: number, dims: number, ids: number, factors: number, count: number, n: number, out: number): void;
}

/**
 * One kernel instance, its memory a scratch region reused by every call (grown as needed, freed
 * with the instance when the factorization drops it). Each call lays out its operands from offset
 * 0, copies them in, runs, and copies the result out: the copies are a few ms against products of
 * hundreds.
 */
class WasmDense implements DenseOps {
  readonly backend = 'wasm-simd' as const;
  private readonly x: TrainExports;

  constructor(instance: WebAssembly.Instance) {
    this.x = instance.exports as unknown as TrainExports;
  }

  /** Byte offsets for operands of these byte sizes (16-byte aligned), with the memory grown to hold them all. */
  private layout(...sizes: number[]): number[] {
    const at: number[] = [];
    let end = 0;
    for (const s of sizes) {
      at.push(end);
      end += Math.ceil(s / 16) * 16;
    }
    const mem = this.x.memory;
    const pages = Math.ceil(end / 65536) - mem.buffer.byteLength / 65536;
    if (pages > 0) mem.grow(pages);
    return at;
  }

  private f64(at: number, n: number): Float64Array {
    return new Float64Array(this.x.memory.buffer, at, n);
  }

  mulSparse(m: Csr, x: Float64Array, width: number, out?: Float64Array): Float64Array {
    const nnz = m.colIdx.length;
    const xn = m.cols * width;
    const [pRow, pCol, pVal, pX, pY] = this.layout((m.rows + 1) * 4, nnz * 4, nnz * 4, xn * 8, m.rows * width * 8);
    const buf = this.x.memory.buffer;
    new Int32Array(buf, pRow, m.rows + 1).set(m.rowPtr);
    new Int32Array(buf, pCol, nnz).set(m.colIdx);
    new Float32Array(buf, pVal, nnz).set(m.values);
    this.f64(pX, xn).set(x.subarray(0, xn));
    this.x.spmm(pRow, pCol, pVal, m.rows, pX, width, pY);
    return copyOut(this.f64(pY, m.rows * width), out);
  }

  multiply(a: Float64Array, rows: number, inner: number, b: Float64Array, width: number, out?: Float64Array): Float64Array {
    const [pA, pB, pOut] = this.layout(rows * inner * 8, inner * width * 8, rows * width * 8);
    this.f64(pA, rows * inner).set(a.subarray(0, rows * inner));
    this.f64(pB, inner * width).set(b.subarray(0, inner * width));
    this.x.gemm(pA, rows, inner, pB, width, pOut);
    return copyOut(this.f64(pOut, rows * width), out);
  }

  gram(a: Float64Array, rows: number, width: number): Float64Array {
    const [pA, pG] = this.layout(rows * width * 8, width * width * 8);
    this.f64(pA, rows * width).set(a.subarray(0, rows * width));
    this.x.gram_upper(pA, rows, width, pG);
    const g = this.f64(pG, width * width).slice();
    mirrorUpper(g, width);
    return g;
  }

  solveRight(a: Float64Array, rows: number, n: number, r: Float64Array): void {
    const [pA, pRt] = this.layout((rows + 1) * n * 8, n * n * 8); // + a scratch row (kernel.wat solve_right)
    this.f64(pA, rows * n).set(a.subarray(0, rows * n));
    this.f64(pRt, n * n).set(transposeSquare(r, n));
    this.x.solve_right(pA, rows, n, pRt);
    a.set(this.f64(pA, rows * n));
  }

  symmetricEigen(input: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
    const [pA, pVt] = this.layout(n * n * 8, n * n * 8);
    // The views stay valid: nothing grows the memory until the decomposition ends.
    const a = this.f64(pA, n * n);
    a.set(input.subarray(0, n * n));
    const vt = identity(n, this.f64(pVt, n * n));
    const rotate = this.x.jacobi_rotate;
    return jacobi(a, vt, n, (p, q, c, s) => rotate(pA, pVt, n, p, q, c, s));
  }

  sifSum(vectors: Int8Array, dims: number, maxBag: number): SifSum {
    // The vectors stay in place for every call (this instance serves this one sum from here on).
    const [pVec, pAcc, pIds, pF, pOut] = this.layout(vectors.length, dims * 8, maxBag * 4, maxBag * 8, dims * 4);
    const buf = this.x.memory.buffer;
    new Int8Array(buf, pVec, vectors.length).set(vectors);
    const ids = new Int32Array(buf, pIds, maxBag);
    const factors = this.f64(pF, maxBag);
    const out = new Float32Array(buf, pOut, dims);
    const kernel = this.x.sif_mean;
    return (bagIds, bagFactors, count, n, into, at) => {
      if (count > maxBag) throw new RangeError(`a bag of ${count} tokens, the sum was set up for ${maxBag}`);
      ids.set(bagIds.subarray(0, count));
      factors.set(bagFactors.subarray(0, count));
      kernel(pAcc, pVec, dims, pIds, pF, count, n, pOut);
      into.set(out, at);
    };
  }
}
