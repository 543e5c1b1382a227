// Vector encodings: int8 quantization with one scale per model, and the byte layout of one vector
// as a BLOB, which is sqlite-vec's (float32 little-endian, or int8), so a native SQLite with
// sqlite-vec loaded can run vec_distance_* over the stored rows. Owns only the numbers; where the
// blobs live (tables, migrations) belongs to the store, the scan to scan.ts.

/** The largest int8 magnitude used: the range stays symmetric (-127…127), so negation is exact. */
export const INT8_MAX = 127;

/**
 * One scale for a whole model: value ≈ q × scale. Fitted so that the `quantile` of |x| (default
 * 0.9999, over at most `sample` values taken at a fixed stride) maps to 127; the few larger values
 * clip. One scale for every row means the raw int8 dot products rank rows exactly as the scaled
 * values do (so sqlite-vec, which knows no scale, ranks the stored blobs the same way), and the
 * same scale serves vectors embedded later.
 */
export function fitInt8Scale(data: Float32Array, opts: { quantile?: number; sample?: number } = {}): number {
  const fit = int8ScaleSampler(data.length, opts);
  fit.add(data, 0);
  return fit.scale();
}

/**
 * fitInt8Scale over data given in consecutive pieces (a row at a time), keeping only the sampled
 * values: `length` is the whole data's; add(values, at) takes data[at … at + values.length), in
 * order. The same scale as fitInt8Scale over the whole array.
 */
export function int8ScaleSampler(length: number, opts: { quantile?: number; sample?: number } = {}): { add(values: Float32Array, at: number): void; scale(): number } {
  const quantile = opts.quantile ?? 0.9999;
  const sample = Math.max(1, opts.sample ?? 200_000);
  const step = Math.max(1, Math.floor(length / sample));
  const abs = new Float32Array(Math.ceil(length / step));
  let n = 0;
  let next = 0;
  return {
    add(values, at) {
      const end = Math.min(length, at + values.length);
      for (; next < end; next += step) {
        const v = Math.abs(values[next - at]);
        if (Number.isFinite(v)) abs[n++] = v;
      }
    },
    scale() {
      if (n === 0) return 1 / INT8_MAX;
      const sorted = abs.subarray(0, n).sort();
      const top = sorted[Math.min(n - 1, Math.floor(quantile * (n - 1)))];
      return top > 0 ? top / INT8_MAX : 1 / INT8_MAX;
    },
  };
}

/** Quantizes row-major floats with a model's scale (round half up, clipped to ±127; non-finite → 0). */
export function quantizeInt8(data: Float32Array, scale: number, out = new Int8Array(data.length)): Int8Array {
  if (!(scale > 0) || !Number.isFinite(scale)) throw new RangeError(`int8 scale must be a positive number (got ${scale})`);
  for (let i = 0; i < data.length; i++) {
    const q = Math.round(data[i] / scale);
    out[i] = q > INT8_MAX ? INT8_MAX : q < -INT8_MAX ? -INT8_MAX : q === q ? q : 0;
  }
  return out;
}

/** The floats an int8 row stands for. */
export function dequantizeInt8(data: Int8Array, scale: number): Float32Array {
  const out = new Float32Array(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i] * scale;
  return out;
}

/** Scales each row of `dims` floats to unit length in place (zero rows stay zero). */
export function normalizeRows(data: Float32Array, dims: number): Float32Array {
  for (let base = 0; base < data.length; base += dims) {
    let s = 0;
    for (let i = 0; i < dims; i++) s += data[base + i] * data[base + i];
    if (s > 0) {
      const inv = 1 / Math.sqrt(s);
      for (let i = 0; i < dims; i++) data[base + i] *= inv;
    }
  }
  return data;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** One vector as a BLOB in sqlite-vec's layout: float32 little-endian, or int8 bytes. */
export function vectorToBlob(v: Float32Array | Int8Array): Uint8Array {
  if (v instanceof Int8Array) return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
  const out = new Uint8Array(v.length * 4);
  if (littleEndian) out.set(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
  else {
    const dv = new DataView(out.buffer);
    for (let i = 0; i < v.length; i++) dv.setFloat32(i * 4, v[i], true);
  }
  return out;
}

/** A BLOB in sqlite-vec's layout back to its vector (a copy: blobs from SQLite may be views of its heap). */
export function blobToVector(blob: Uint8Array, quantization: 'int8' | 'f32'): Float32Array | Int8Array {
  if (quantization === 'int8') return new Int8Array(blob.slice().buffer);
  if (blob.length % 4 !== 0) throw new RangeError(`a float32 vector blob must be a multiple of 4 bytes (got ${blob.length})`);
  if (littleEndian) return new Float32Array(blob.slice().buffer);
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out = new Float32Array(blob.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = dv.getFloat32(i * 4, true);
  return out;
}
