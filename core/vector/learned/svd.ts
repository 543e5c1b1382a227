// Truncated SVD of a sparse matrix by the randomized range finder (Halko, Martinsson & Tropp 2011):
// Y = M·Ω for a seeded random Ω, a few power iterations Y = M·(Mᵀ·Q) on the orthonormalized Y,
// Q = orth(Y), then the exact SVD of the small B = Qᵀ·M through the eigenvectors of B·Bᵀ (Jacobi).
// Only +, −, ×, ÷ and sqrt in fixed loop orders: bit-identical in every runtime. Owns the
// factorization; which matrix and how its factors become word vectors is the trainer's.
import { uniformSigned } from './numeric.ts';
import { mulDense, mulTransposeDense, type Csr } from './sparse.ts';

export interface SvdOptions {
  rank: number;
  /** Extra random directions beyond the rank (accuracy of the range found). */
  oversample: number;
  /** Power iterations (each: one Mᵀ· and one M· product); 1–2 sharpen a slowly decaying spectrum. */
  powerIterations: number;
  seed: number;
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
  const rnd = uniformSigned(o.seed);
  const omega = new Float64Array(m.cols * l);
  for (let i = 0; i < omega.length; i++) omega[i] = rnd();
  let y = mulDense(m, omega, l);
  // One orthonormalization per power iteration, before Mᵀ: Y = M·Mᵀ·Q loses at most a few digits of
  // orthogonality per iteration in double precision, which the final one restores.
  for (let q = 0; q < o.powerIterations; q++) {
    orthonormalize(y, m.rows, l);
    y = mulDense(m, mulTransposeDense(m, y, l), l);
  }
  orthonormalize(y, m.rows, l);
  const bt = mulTransposeDense(m, y, l); // Bᵀ = Mᵀ·Q, cols × l
  const g = gram(bt, m.cols, l); // B·Bᵀ
  const { values, vectors } = symmetricEigen(g, l);
  const u = new Float64Array(m.rows * rank);
  for (let r = 0; r < m.rows; r++) {
    const qo = r * l;
    const uo = r * rank;
    for (let k = 0; k < l; k++) {
      const qv = y[qo + k];
      if (qv === 0) continue;
      const eo = k * l;
      for (let j = 0; j < rank; j++) u[uo + j] += qv * vectors[eo + j];
    }
  }
  const s = new Float64Array(rank);
  for (let j = 0; j < rank; j++) s[j] = Math.sqrt(Math.max(0, values[j]));
  return { u, s, rank };
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

/** Aᵀ·A for a row-major `rows × width` matrix: `width × width`, symmetric. */
function gram(a: Float64Array, rows: number, width: number): Float64Array {
  const g = new Float64Array(width * width);
  for (let r = 0; r < rows; r++) {
    const o = r * width;
    for (let i = 0; i < width; i++) {
      const ai = a[o + i];
      if (ai === 0) continue;
      const gi = i * width;
      for (let j = i; j < width; j++) g[gi + j] += ai * a[o + j];
    }
  }
  for (let i = 0; i < width; i++) for (let j = 0; j < i; j++) g[i * width + j] = g[j * width + i];
  return g;
}

/**
 * Eigen-decomposition of a symmetric `n × n` matrix by cyclic Jacobi rotations. Returns the
 * eigenvalues largest first and the matching eigenvectors as columns (row-major `n × n`).
 */
export function symmetricEigen(input: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(input);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i] * a[i];
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
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p];
          const akq = a[k * n + q];
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k];
          const aqk = a[q * n + k];
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = v[k * n + p];
          const vkq = v[k * n + q];
          v[k * n + p] = c * vkp - s * vkq;
          v[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((i, j) => a[j * n + j] - a[i * n + i] || i - j);
  const values = new Float64Array(n);
  const vectors = new Float64Array(n * n);
  order.forEach((src, dst) => {
    values[dst] = a[src * n + src];
    for (let k = 0; k < n; k++) vectors[k * n + dst] = v[k * n + src];
  });
  return { values, vectors };
}
