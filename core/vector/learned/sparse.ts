// A sparse matrix in CSR form and its products with dense row-major matrices: the two operations
// the randomized SVD needs (M·X and Mᵀ·X). Loops run in a fixed order, so results are bit-identical
// in every runtime. Owns only the arithmetic; what the matrix holds is the caller's.

export interface Csr {
  rows: number;
  cols: number;
  /** Row r's entries are at rowPtr[r] … rowPtr[r+1]-1. Columns within a row are in no particular (but a fixed) order. */
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float32Array;
}

/** M · X, with X row-major `M.cols × width`; returns `M.rows × width`, row-major. */
export function mulDense(m: Csr, x: Float64Array, width: number): Float64Array {
  const y = new Float64Array(m.rows * width);
  const { rowPtr, colIdx, values } = m;
  for (let r = 0; r < m.rows; r++) {
    const yo = r * width;
    for (let p = rowPtr[r]; p < rowPtr[r + 1]; p++) {
      const v = values[p];
      const xo = colIdx[p] * width;
      for (let j = 0; j < width; j++) y[yo + j] += v * x[xo + j];
    }
  }
  return y;
}

/** Mᵀ · X, with X row-major `M.rows × width`; returns `M.cols × width`, row-major. */
export function mulTransposeDense(m: Csr, x: Float64Array, width: number): Float64Array {
  const z = new Float64Array(m.cols * width);
  const { rowPtr, colIdx, values } = m;
  for (let r = 0; r < m.rows; r++) {
    const xo = r * width;
    for (let p = rowPtr[r]; p < rowPtr[r + 1]; p++) {
      const v = values[p];
      const zo = colIdx[p] * width;
      for (let j = 0; j < width; j++) z[zo + j] += v * x[xo + j];
    }
  }
  return z;
}
