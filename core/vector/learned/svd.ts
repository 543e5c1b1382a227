// Truncated SVD of a sparse matrix by the randomized range finder (Halko, Martinsson & Tropp 2011):
// Y = M·Ω for a seeded random Ω, a few power iterations Y = M·(Mᵀ·Q) on the orthonormalized Y,
// Q = orth(Y), then the exact SVD of the small B = Qᵀ·M through the eigenvectors of B·Bᵀ (Jacobi).
// Orthonormalization goes through a Cholesky factor of the Gram matrix when Y has full rank, and
// through modified Gram–Schmidt otherwise.
// Only +, −, ×, ÷ and sqrt in fixed loop orders: bit-identical in every runtime. Owns the
// factorization; which matrix and how its factors become word vectors is the trainer's.
import { uniformSigned } from './numeric.ts';
import { mulDense, transposeCsr, type Csr } from './sparse.ts';

export interface SvdOptions {
  rank: number;
  /** Extra random directions beyond the rank (accuracy of the range found). */
  oversample: number;
  /** Power iterations (each: one Mᵀ· and one M· product); 1–2 sharpen a slowly decaying spectrum. */
  powerIterations: number;
  seed: number;
  /** 'auto': Cholesky when Y has full rank, else Gram–Schmidt; 'gram-schmidt' always (tests compare the two). */
  orthonormalization?: 'auto' | 'gram-schmidt';
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
  const y0 = mulDense(m, omega, l);
  const mt = transposeCsr(m);
  const fast = o.orthonormalization === 'gram-schmidt' ? null : choleskyPath(m, mt, y0.slice(), l, rank, o.powerIterations);
  return fast ?? gramSchmidtPath(m, mt, y0, l, rank, o.powerIterations);
}

/**
 * The fast path: orthonormalization by Cholesky of the l × l Gram matrix (Q = Y·R⁻¹, half the work
 * of Gram–Schmidt), and at the end no Q at all: B·Bᵀ = R⁻ᵀ·(ZᵀZ)·R⁻¹ with Z = Mᵀ·Y, and
 * U = Y·(R⁻¹·E). Y is well conditioned here (a random projection, then one power iteration of an
 * orthonormal basis), so squaring its condition number in YᵀY costs a few digits of 16. Returns
 * null when a Gram matrix is (numerically) singular — a rank below l — for the Gram–Schmidt path.
 */
function choleskyPath(m: Csr, mt: Csr, y0: Float64Array, l: number, rank: number, powerIterations: number): SvdResult | null {
  let y = y0;
  for (let q = 0; q < powerIterations; q++) {
    const r = cholesky(gram(y, m.rows, l), l);
    if (!r) return null;
    solveRight(y, m.rows, l, r);
    y = mulDense(m, mulDense(mt, y, l), l);
  }
  const r = cholesky(gram(y, m.rows, l), l);
  if (!r) return null;
  const h = gram(mulDense(mt, y, l), m.cols, l); // Yᵀ·M·Mᵀ·Y
  // C = R⁻ᵀ·H·R⁻¹: X = H·R⁻¹, then C = (Xᵀ·R⁻¹)ᵀ, made exactly symmetric.
  solveRight(h, l, l, r);
  const t = transpose(h, l);
  solveRight(t, l, l, r);
  const c = new Float64Array(l * l);
  for (let i = 0; i < l; i++) for (let j = 0; j < l; j++) c[i * l + j] = (t[j * l + i] + t[i * l + j]) / 2;
  const { values, vectors } = symmetricEigen(c, l);
  // P = R⁻¹·E (first `rank` columns), by back substitution; U = Y·P.
  const pm = new Float64Array(l * rank);
  for (let j = 0; j < rank; j++) {
    for (let i = l - 1; i >= 0; i--) {
      let v = vectors[i * l + j];
      for (let k = i + 1; k < l; k++) v -= r[i * l + k] * pm[k * rank + j];
      pm[i * rank + j] = v / r[i * l + i];
    }
  }
  return { u: multiply(y, m.rows, l, pm, rank), s: singular(values, rank), rank };
}

/** The robust path: modified Gram–Schmidt, Q explicit, B·Bᵀ from Mᵀ·Q. */
function gramSchmidtPath(m: Csr, mt: Csr, y0: Float64Array, l: number, rank: number, powerIterations: number): SvdResult {
  let y = y0;
  for (let q = 0; q < powerIterations; q++) {
    orthonormalize(y, m.rows, l);
    y = mulDense(m, mulDense(mt, y, l), l);
  }
  orthonormalize(y, m.rows, l);
  const g = gram(mulDense(mt, y, l), m.cols, l); // B·Bᵀ, B = Qᵀ·M
  const { values, vectors } = symmetricEigen(g, l);
  const e = new Float64Array(l * rank);
  for (let i = 0; i < l; i++) for (let j = 0; j < rank; j++) e[i * rank + j] = vectors[i * l + j];
  return { u: multiply(y, m.rows, l, e, rank), s: singular(values, rank), rank };
}

function singular(eigenvalues: Float64Array, rank: number): Float64Array {
  return Float64Array.from({ length: rank }, (_, j) => Math.sqrt(Math.max(0, eigenvalues[j])));
}

/** A (rows × inner) · B (inner × width), both row-major; two rows of B per pass over the output row. */
function multiply(a: Float64Array, rows: number, inner: number, b: Float64Array, width: number): Float64Array {
  const out = new Float64Array(rows * width);
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
}

function transpose(a: Float64Array, n: number): Float64Array {
  const t = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) t[j * n + i] = a[i * n + j];
  return t;
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

/** In place: each row y of a row-major `rows × n` matrix becomes y·R⁻¹ (forward substitution over Rᵀ's contiguous rows). */
function solveRight(a: Float64Array, rows: number, n: number, r: Float64Array): void {
  const rt = transpose(r, n);
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

/** Aᵀ·A for a row-major `rows × width` matrix: `width × width`, symmetric. Four rows per pass over the output. */
function gram(a: Float64Array, rows: number, width: number): Float64Array {
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
