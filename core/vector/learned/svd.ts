// Truncated SVD of a sparse matrix by the randomized range finder (Halko, Martinsson & Tropp 2011):
// Y = M·Ω for a seeded random Ω, a few power iterations Y = M·(Mᵀ·Q) on the orthonormalized Y,
// Q = orth(Y), then the exact SVD of the small B = Qᵀ·M through the eigenvectors of B·Bᵀ (Jacobi).
// Orthonormalization goes through a Cholesky factor of the Gram matrix when Y has full rank, and
// through modified Gram–Schmidt otherwise.
// Only +, −, ×, ÷ and sqrt in fixed loop orders: bit-identical in every runtime. The large
// products run through dense.ts (the WASM SIMD kernel or its JS twin, the same bits either way).
// Owns the factorization; which matrix and how its factors become word vectors is the trainer's.
import { uniformSigned } from './numeric.ts';
import { transposeCsr, type Csr } from './sparse.ts';
import { denseOps, transposeSquare, type DenseBackend, type DenseOps } from './dense.ts';

/** The eigen-decomposition of a small symmetric matrix (JS; the factorization runs it through its DenseOps). */
export const symmetricEigen = (a: Float64Array, n: number) => denseOps('js').symmetricEigen(a, n);

export interface SvdOptions {
  rank: number;
  /** Extra random directions beyond the rank (accuracy of the range found). */
  oversample: number;
  /** Power iterations (each: one Mᵀ· and one M· product); 1–2 sharpen a slowly decaying spectrum. */
  powerIterations: number;
  seed: number;
  /** 'auto': Cholesky when Y has full rank, else Gram–Schmidt; 'gram-schmidt' always (tests compare the two). */
  orthonormalization?: 'auto' | 'gram-schmidt';
  /** Where the large products run: 'auto' takes the WASM SIMD kernel when there is one (same bits as 'js'). */
  backend?: DenseBackend;
  /** The products themselves, instead of `backend`'s (tests wrap them to see which arrays each product reads and writes). */
  ops?: DenseOps;
}

export interface SvdResult {
  /** Left singular vectors, row-major `rows × rank`. */
  u: Float64Array;
  /** Singular values, largest first. */
  s: Float64Array;
  rank: number;
}

export function randomizedSvd(m: Csr, o: SvdOptions): SvdResult {
  const l = Math.min(o.rank + o.oversample, m.cols, m.rows);
  const rank = Math.min(o.rank, l);
  const ops = o.ops ?? denseOps(o.backend);
  const mt = transposeCsr(m);
  // The two dense matrices the factorization holds at once (Y and Mᵀ·Y, each V × l: 16 MB at 10k
  // words × 200), reused by every product instead of a new array per product: the garbage of those
  // (one 16 MB array per step, collected late) and the copy of Y₀ kept for the fallback made the
  // vector phase's peak memory (+120 MB over the keyword pass's floor on Avalonia; now +60).
  const size = Math.max(m.rows, m.cols) * l;
  const y = new Float64Array(size);
  const spare = new Float64Array(size);
  // Y₀ = M·Ω, Ω (cols × l) from the seed, made in `spare`: computed again for the fallback (the same bits) rather than kept.
  const first = (): Float64Array => {
    const rnd = uniformSigned(o.seed);
    const omega = spare.subarray(0, m.cols * l);
    for (let i = 0; i < omega.length; i++) omega[i] = rnd();
    return ops.mulSparse(m, omega, l, y);
  };
  const fast = o.orthonormalization === 'gram-schmidt' ? null : choleskyPath(ops, m, mt, first(), spare, l, rank, o.powerIterations);
  return fast ?? gramSchmidtPath(ops, m, mt, first(), spare, l, rank, o.powerIterations);
}

/**
 * The fast path: orthonormalization by Cholesky of the l × l Gram matrix (Q = Y·R⁻¹, half the work
 * of Gram–Schmidt), and at the end no Q at all: B·Bᵀ = R⁻ᵀ·(ZᵀZ)·R⁻¹ with Z = Mᵀ·Y, and
 * U = Y·(R⁻¹·E). Y is well conditioned here (a random projection, then one power iteration of an
 * orthonormal basis), so squaring its condition number in YᵀY costs a few digits of 16. Returns
 * null when a Gram matrix is (numerically) singular — a rank below l — for the Gram–Schmidt path.
 * `y` (rows × l) is changed in place; `spare` (max(rows, cols) × l) holds Mᵀ·Y, then U.
 */
function choleskyPath(ops: DenseOps, m: Csr, mt: Csr, y: Float64Array, spare: Float64Array, l: number, rank: number, powerIterations: number): SvdResult | null {
  for (let q = 0; q < powerIterations; q++) {
    const r = cholesky(ops.gram(y, m.rows, l), l);
    if (!r) return null;
    ops.solveRight(y, m.rows, l, r);
    ops.mulSparse(m, ops.mulSparse(mt, y, l, spare), l, y);
  }
  const r = cholesky(ops.gram(y, m.rows, l), l);
  if (!r) return null;
  const h = ops.gram(ops.mulSparse(mt, y, l, spare), m.cols, l); // Yᵀ·M·Mᵀ·Y
  // C = R⁻ᵀ·H·R⁻¹: X = H·R⁻¹, then C = (Xᵀ·R⁻¹)ᵀ, made exactly symmetric.
  ops.solveRight(h, l, l, r);
  const t = transposeSquare(h, l);
  ops.solveRight(t, l, l, r);
  const c = new Float64Array(l * l);
  for (let i = 0; i < l; i++) for (let j = 0; j < l; j++) c[i * l + j] = (t[j * l + i] + t[i * l + j]) / 2;
  const { values, vectors } = ops.symmetricEigen(c, l);
  // P = R⁻¹·E (first `rank` columns), by back substitution; U = Y·P.
  const pm = new Float64Array(l * rank);
  for (let j = 0; j < rank; j++) {
    for (let i = l - 1; i >= 0; i--) {
      let v = vectors[i * l + j];
      for (let k = i + 1; k < l; k++) v -= r[i * l + k] * pm[k * rank + j];
      pm[i * rank + j] = v / r[i * l + i];
    }
  }
  return { u: ops.multiply(y, m.rows, l, pm, rank, spare), s: singular(values, rank), rank };
}

/** The robust path: modified Gram–Schmidt, Q explicit, B·Bᵀ from Mᵀ·Q. `y` and `spare` as in choleskyPath. */
function gramSchmidtPath(ops: DenseOps, m: Csr, mt: Csr, y: Float64Array, spare: Float64Array, l: number, rank: number, powerIterations: number): SvdResult {
  for (let q = 0; q < powerIterations; q++) {
    orthonormalize(y, m.rows, l);
    ops.mulSparse(m, ops.mulSparse(mt, y, l, spare), l, y);
  }
  orthonormalize(y, m.rows, l);
  const g = ops.gram(ops.mulSparse(mt, y, l, spare), m.cols, l); // B·Bᵀ, B = Qᵀ·M
  const { values, vectors } = ops.symmetricEigen(g, l);
  const e = new Float64Array(l * rank);
  for (let i = 0; i < l; i++) for (let j = 0; j < rank; j++) e[i * rank + j] = vectors[i * l + j];
  return { u: ops.multiply(y, m.rows, l, e, rank, spare), s: singular(values, rank), rank };
}

function singular(eigenvalues: Float64Array, rank: number): Float64Array {
  return Float64Array.from({ length: rank }, (_, j) => Math.sqrt(Math.max(0, eigenvalues[j])));
}

/** Upper-triangular R with RᵀR = G (row-major n × n), or null when a pivot falls below 1e-12 of its diagonal. */
export function cholesky(g: Float64Array, n: number): Float64Array | null {
  const r = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = g[j * n + j];
    for (let k = 0; k < j; k++) d -= r[k * n + j] * r[k * n + j];
    if (!(d > 1e-12 * g[j * n + j]) || !(d > 0)) return null;
    const rjj = Math.sqrt(d);
    r[j * n + j] = rjj;
    for (let i = j + 1; i < n; i++) {
      let v = g[j * n + i];
      for (let k = 0; k < j; k++) v -= r[k * n + j] * r[k * n + i];
      r[j * n + i] = v / rjj;
    }
  }
  return r;
}

/**
 * Orthonormalizes the columns of a row-major `rows × width` matrix in place (modified Gram–Schmidt,
 * on a column-major copy so every inner loop is contiguous). A column that is (numerically) inside
 * the span of the ones before it becomes zero.
 */
export function orthonormalize(a: Float64Array, rows: number, width: number): void {
  const t = new Float64Array(rows * width);
  for (let r = 0; r < rows; r++) for (let j = 0; j < width; j++) t[j * rows + r] = a[r * width + j];
  const norms0 = new Float64Array(width);
  for (let j = 0; j < width; j++) {
    const cj = j * rows;
    let n0 = 0;
    for (let r = 0; r < rows; r++) n0 += t[cj + r] * t[cj + r];
    norms0[j] = n0;
    for (let i = 0; i < j; i++) {
      const ci = i * rows;
      let d = 0;
      for (let r = 0; r < rows; r++) d += t[ci + r] * t[cj + r];
      if (d !== 0) for (let r = 0; r < rows; r++) t[cj + r] -= d * t[ci + r];
    }
    let n = 0;
    for (let r = 0; r < rows; r++) n += t[cj + r] * t[cj + r];
    if (!(n > 1e-24 * norms0[j]) || n === 0) {
      t.fill(0, cj, cj + rows);
      continue;
    }
    const inv = 1 / Math.sqrt(n);
    for (let r = 0; r < rows; r++) t[cj + r] *= inv;
  }
  for (let r = 0; r < rows; r++) for (let j = 0; j < width; j++) a[r * width + j] = t[j * rows + r];
}
