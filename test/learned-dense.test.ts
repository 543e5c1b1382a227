// The training products of core/vector/learned/dense.ts: the WASM SIMD kernel (kernel.wat's spmm,
// gemm, gram_upper, solve_right, jacobi_rotate) returns exactly the bits of its JavaScript twin at
// odd and even sizes (the kernels' two-lane loops have scalar tails), the twin computes what the
// products are (checked against naive loops), and a whole randomized SVD — so a whole trained model
// — is bit-identical whichever backend runs it.
// @lane unit
import { describe, it, expect } from 'vitest';
import { denseOps, jsDense } from '../core/vector/learned/dense.ts';
import { randomizedSvd } from '../core/vector/learned/svd.ts';
import { uniformSigned } from '../core/vector/learned/numeric.ts';
import { buildTokenCorpus, cooccurrence } from '../core/vector/learned/cooccur.ts';
import { ppmi } from '../core/vector/learned/ppmi.ts';
import { ModelTokenizer } from '../core/vector/learned/tokens.ts';
import { trainLearnedModel } from '../core/vector/learned/train.ts';
import type { Csr } from '../core/vector/learned/sparse.ts';
import { sampleCorpus } from './helpers/vector-corpus.ts';

const wasm = denseOps('wasm');

function dense(n: number, seed: number): Float64Array {
  const rnd = uniformSigned(seed);
  return Float64Array.from({ length: n }, () => rnd());
}

/** A random sparse matrix with rows of 0…(2·avg) entries (odd and even counts, some empty rows). */
function sparse(rows: number, cols: number, avg: number, seed: number): Csr {
  const rnd = uniformSigned(seed);
  const rowPtr = new Int32Array(rows + 1);
  const colIdx: number[] = [];
  const values: number[] = [];
  for (let r = 0; r < rows; r++) {
    const n = Math.floor((rnd() + 1) * avg);
    for (let i = 0; i < n; i++) {
      colIdx.push(Math.floor(((rnd() + 1) / 2) * cols));
      values.push(rnd());
    }
    rowPtr[r + 1] = colIdx.length;
  }
  return { rows, cols, rowPtr, colIdx: Int32Array.from(colIdx), values: Float32Array.from(values) };
}

const same = (a: Float64Array, b: Float64Array) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]));

describe('training products: kernel and twin', () => {
  it('the kernel is there (Node has WebAssembly SIMD)', () => {
    expect(wasm.backend).toBe('wasm-simd');
    expect(denseOps('js').backend).toBe('js');
    expect(denseOps().backend).toBe('wasm-simd');
  });

  it.each([1, 2, 7, 16, 33])('sparse × dense at width %i: identical bits, and M·X', (width) => {
    const m = sparse(37, 23, 3, width);
    const x = dense(m.cols * width, 100 + width);
    const a = jsDense.mulSparse(m, x, width);
    const b = wasm.mulSparse(m, x, width);
    expect(same(a, b)).toBe(true);
    for (let r = 0; r < m.rows; r++) {
      for (let j = 0; j < width; j++) {
        let s = 0;
        for (let p = m.rowPtr[r]; p < m.rowPtr[r + 1]; p++) s += m.values[p] * x[m.colIdx[p] * width + j];
        expect(a[r * width + j]).toBeCloseTo(s, 12);
      }
    }
  });

  it.each([[5, 1, 3], [9, 4, 5], [12, 7, 8], [3, 6, 1]])('dense × dense %i×%i·%i: identical bits, and A·B', (rows, inner, width) => {
    const a = dense(rows * inner, rows);
    const b = dense(inner * width, inner);
    const p = jsDense.multiply(a, rows, inner, b, width);
    expect(same(p, wasm.multiply(a, rows, inner, b, width))).toBe(true);
    for (let r = 0; r < rows; r++) for (let j = 0; j < width; j++) {
      let s = 0;
      for (let k = 0; k < inner; k++) s += a[r * inner + k] * b[k * width + j];
      expect(p[r * width + j]).toBeCloseTo(s, 12);
    }
  });

  it.each([[1, 1], [3, 5], [4, 4], [7, 9], [13, 6]])('Gram matrix of %i×%i: identical bits, symmetric, AᵀA', (rows, width) => {
    const a = dense(rows * width, rows * 31 + width);
    const g = jsDense.gram(a, rows, width);
    expect(same(g, wasm.gram(a, rows, width))).toBe(true);
    for (let i = 0; i < width; i++) for (let j = 0; j < width; j++) {
      let s = 0;
      for (let r = 0; r < rows; r++) s += a[r * width + i] * a[r * width + j];
      expect(g[i * width + j]).toBeCloseTo(s, 12);
      expect(g[i * width + j]).toBe(g[j * width + i]);
    }
  });

  it.each([[1, 1], [2, 3], [5, 4], [6, 7], [11, 10]])('triangular solve of %i rows × %i: identical bits, and (Y·R⁻¹)·R = Y', (rows, n) => {
    const y = dense(rows * n, rows + 7 * n);
    const r = new Float64Array(n * n);
    const rnd = uniformSigned(n);
    for (let i = 0; i < n; i++) for (let k = i; k < n; k++) r[i * n + k] = i === k ? 2 + rnd() : 0.3 * rnd();
    const a = y.slice();
    const b = y.slice();
    jsDense.solveRight(a, rows, n, r);
    wasm.solveRight(b, rows, n, r);
    expect(same(a, b)).toBe(true);
    const back = jsDense.multiply(a, rows, n, r, n);
    for (let i = 0; i < y.length; i++) expect(back[i]).toBeCloseTo(y[i], 12);
  });

  it.each([1, 2, 5, 8, 13])('Jacobi eigen-decomposition at n = %i: identical bits, A·v = λ·v', (n) => {
    const x = dense(n * n, 40 + n);
    const s = jsDense.multiply(x, n, n, Float64Array.from({ length: n * n }, (_, i) => x[(i % n) * n + Math.floor(i / n)]), n); // X·Xᵀ
    const a = jsDense.symmetricEigen(s, n);
    const b = wasm.symmetricEigen(s, n);
    expect(same(a.values, b.values)).toBe(true);
    expect(same(a.vectors, b.vectors)).toBe(true);
    for (let j = 0; j < n; j++) for (let i = 0; i < n; i++) {
      let av = 0;
      for (let k = 0; k < n; k++) av += s[i * n + k] * a.vectors[k * n + j];
      expect(av).toBeCloseTo(a.values[j] * a.vectors[i * n + j], 9);
    }
    for (let j = 1; j < n; j++) expect(a.values[j]).toBeLessThanOrEqual(a.values[j - 1]);
  });
});

describe('the factorization and the model do not depend on the backend', () => {
  const corpus = sampleCorpus();

  it('randomizedSvd: identical factors with the kernel and with the twin, both orthonormalizations', () => {
    const m = ppmi(cooccurrence(buildTokenCorpus(corpus.texts, new ModelTokenizer(), { minCount: 2, maxVocab: 2000 }), 5), { alpha: 0.75, maxPerRow: 50 });
    for (const orthonormalization of ['auto', 'gram-schmidt'] as const) {
      const o = { rank: 21, oversample: 6, powerIterations: 1, seed: 9, orthonormalization };
      const a = randomizedSvd(m, { ...o, backend: 'js' });
      const b = randomizedSvd(m, { ...o, backend: 'wasm' });
      expect(same(a.s, b.s)).toBe(true);
      expect(same(a.u, b.u)).toBe(true);
    }
  });

  it('a trained model is the same bytes whichever backend ran its products', () => {
    const a = trainLearnedModel(corpus.texts, { dims: 24 }, undefined, 'js');
    const b = trainLearnedModel(corpus.texts, { dims: 24 }, undefined, 'wasm');
    expect(Buffer.from(a.model.toBytes()).equals(Buffer.from(b.model.toBytes()))).toBe(true);
    expect(Buffer.from(a.vectors.buffer).equals(Buffer.from(b.vectors.buffer))).toBe(true);
  });
});
