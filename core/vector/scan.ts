// The vector scan: one similarity score per stored row for one query. Owns the kernel's memory
// layout (rows padded to a SIMD-friendly stride), loading core/vector/kernel.wat's module, and its
// JavaScript twin, which returns the same bits where WebAssembly SIMD is missing (or when asked
// for). Top-k selection, query quantization and ids belong to knn.ts; the stored blob layout to
// quantize.ts.
//
// What "the same bits" rests on: int8 · int16 dot products are exact integers, so any summation
// order gives the same int32. f32 dot products use a fixed order (two 4-lane accumulators, no fused
// multiply-add); the JS twin rounds every product and sum with Math.fround, which gives exactly
// WebAssembly's f32 results (a double holds the product of two f32 exactly, and rounding a double
// sum of two f32 to f32 equals the directly rounded f32 sum).
import { KERNEL_WASM } from './kernel-wasm.ts';

export type Quantization = 'int8' | 'f32';

/** Vectors as the store holds them: row-major, `count × dims`, no padding (sqlite-vec's blob layout, concatenated). */
export interface VectorRows {
  dims: number;
  quantization: Quantization;
  data: Int8Array | Float32Array;
}

export type ScanBackendName = 'wasm-simd' | 'js';

export interface Scanner {
  readonly backend: ScanBackendName;
  readonly count: number;
  readonly dims: number;
  /** Elements per padded row (and per query): a multiple of 16 (int8) or 8 (f32). */
  readonly stride: number;
  readonly quantization: Quantization;
  /** int8 rows: exact int32 dot products with an int16 query of `stride` values. The view is reused by the next call. */
  dotInt8(query: Int16Array): Int32Array;
  /** f32 rows: f32 dot products with a query of `stride` floats. The view is reused by the next call. */
  dotF32(query: Float32Array): Float32Array;
  /**
   * The same dot products for the given rows only (indexes into the rows, each < count), in the
   * order given: the same values a full scan gives those rows, bit for bit.
   */
  dotRows(query: Int16Array | Float32Array, rows: readonly number[]): number[];
}

/** One padded int8 row's exact dot product with an int16 query (any order gives the same int32). */
function dotRowInt8(rows: Int8Array, base: number, stride: number, query: Int16Array): number {
  let a = 0;
  for (let i = 0; i < stride; i++) a = (a + Math.imul(rows[base + i], query[i])) | 0;
  return a;
}

/** One padded f32 row's dot product in the kernel's order and rounding (the WASM kernel's; JsScanner.dotF32 runs it on every row). */
function dotRowF32(x: Float32Array, base: number, stride: number, q: Float32Array): number {
  const f = Math.fround;
  let a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
  for (let i = 0; i < stride; i += 8) {
    const p = base + i;
    a0 = f(a0 + f(x[p] * q[i]));
    a1 = f(a1 + f(x[p + 1] * q[i + 1]));
    a2 = f(a2 + f(x[p + 2] * q[i + 2]));
    a3 = f(a3 + f(x[p + 3] * q[i + 3]));
    b0 = f(b0 + f(x[p + 4] * q[i + 4]));
    b1 = f(b1 + f(x[p + 5] * q[i + 5]));
    b2 = f(b2 + f(x[p + 6] * q[i + 6]));
    b3 = f(b3 + f(x[p + 7] * q[i + 7]));
  }
  const s0 = f(a0 + b0), s1 = f(a1 + b1), s2 = f(a2 + b2), s3 = f(a3 + b3);
  return f(f(s0 + s1) + f(s2 + s3));
}

/** dotRows over padded rows held in `data` (int8 or f32, as the query says). */
function dotRowsOf(data: Int8Array | Float32Array, stride: number, count: number, query: Int16Array | Float32Array, rows: readonly number[]): number[] {
  if (query.length !== stride) throw new RangeError(`the query must hold ${stride} values (got ${query.length})`);
  return rows.map((r) => {
    if (!(r >= 0 && r < count)) throw new RangeError(`row ${r} is outside the ${count} rows`);
    return data instanceof Int8Array ? dotRowInt8(data, r * stride, stride, query as Int16Array) : dotRowF32(data, r * stride, stride, query as Float32Array);
  });
}

/** The padded row length for a dimension: 16 int8 values or 8 floats per SIMD step. */
export function paddedStride(dims: number, quantization: Quantization): number {
  const step = quantization === 'int8' ? 16 : 8;
  return Math.ceil(dims / step) * step;
}

let compiled: Promise<WebAssembly.Module | null> | undefined;

/** The compiled kernel, or null when this runtime has no WebAssembly SIMD. Compiled once per process. */
export function kernelModule(): Promise<WebAssembly.Module | null> {
  compiled ??= (async () => {
    if (typeof WebAssembly !== 'object' || !WebAssembly.validate(KERNEL_WASM)) return null;
    return WebAssembly.compile(KERNEL_WASM);
  })();
  return compiled;
}

/**
 * Loads rows into a scanner. `auto` takes the WASM SIMD kernel when the runtime supports it and the
 * JS twin otherwise; `wasm` fails without SIMD; `js` always takes the twin.
 */
export async function createScanner(rows: VectorRows, backend: 'auto' | 'wasm' | 'js' = 'auto'): Promise<Scanner> {
  checkRows(rows);
  if (backend !== 'js') {
    const mod = await kernelModule();
    if (mod) return WasmScanner.create(mod, rows);
    if (backend === 'wasm') throw new Error('this runtime has no WebAssembly SIMD: the vector scan kernel cannot run here');
  }
  return new JsScanner(rows);
}

/**
 * The same, synchronously, with the kernel module already compiled (`kernelModule()` resolved; null:
 * no SIMD): what a search needs inside its read transaction. The kernel is tiny, so a synchronous
 * `new WebAssembly.Instance` is allowed even on a browser's main thread.
 */
export function createScannerSync(rows: VectorRows, mod: WebAssembly.Module | null, backend: 'auto' | 'wasm' | 'js' = 'auto'): Scanner {
  checkRows(rows);
  if (backend !== 'js' && mod) return WasmScanner.fromInstance(new WebAssembly.Instance(mod), rows);
  if (backend === 'wasm') throw new Error('this runtime has no WebAssembly SIMD: the vector scan kernel cannot run here');
  return new JsScanner(rows);
}

function checkRows(rows: VectorRows): void {
  const { dims, quantization, data } = rows;
  if (!Number.isInteger(dims) || dims < 1) throw new RangeError(`vector dims must be a positive integer (got ${dims})`);
  if (quantization === 'int8' ? !(data instanceof Int8Array) : !(data instanceof Float32Array)) {
    throw new TypeError(`${quantization} rows need ${quantization === 'int8' ? 'an Int8Array' : 'a Float32Array'}`);
  }
  if (data.length % dims !== 0) throw new RangeError(`vector data holds ${data.length} values, not a multiple of dims ${dims}`);
}

/** Copies unpadded rows into `target` at the padded stride (the padding stays zero). */
function padInto(target: Int8Array | Float32Array, rows: VectorRows, stride: number): void {
  const { dims, data } = rows;
  if (stride === dims) {
    target.set(data);
    return;
  }
  const count = data.length / dims;
  for (let r = 0; r < count; r++) target.set(data.subarray(r * dims, (r + 1) * dims), r * stride);
}

class WasmScanner implements Scanner {
  readonly backend = 'wasm-simd' as const;
  private constructor(
    readonly count: number,
    readonly dims: number,
    readonly stride: number,
    readonly quantization: Quantization,
    private readonly exports: { memory: WebAssembly.Memory; dot_i8: Kernel; dot_f32: Kernel },
    private readonly rowsAt: number,
    private readonly queryAt: number,
    private readonly outAt: number,
  ) {}

  static async create(mod: WebAssembly.Module, rows: VectorRows): Promise<WasmScanner> {
    return WasmScanner.fromInstance(await WebAssembly.instantiate(mod), rows);
  }

  static fromInstance(instance: WebAssembly.Instance, rows: VectorRows): WasmScanner {
    const { dims, quantization } = rows;
    const stride = paddedStride(dims, quantization);
    const count = rows.data.length / dims;
    const elem = quantization === 'int8' ? 1 : 4;
    // rows | query | out, each 16-byte aligned (row and query sizes are multiples of 16 bytes already).
    const rowsAt = 0;
    const queryAt = count * stride * elem;
    const outAt = queryAt + stride * (quantization === 'int8' ? 2 : 4);
    const bytes = outAt + count * 4;
    const exports = instance.exports as unknown as { memory: WebAssembly.Memory; dot_i8: Kernel; dot_f32: Kernel };
    const pages = Math.ceil(bytes / 65536) - exports.memory.buffer.byteLength / 65536;
    if (pages > 0) exports.memory.grow(pages);
    const buf = exports.memory.buffer;
    padInto(quantization === 'int8' ? new Int8Array(buf, rowsAt, count * stride) : new Float32Array(buf, rowsAt, count * stride), rows, stride);
    return new WasmScanner(count, dims, stride, quantization, exports, rowsAt, queryAt, outAt);
  }

  dotInt8(query: Int16Array): Int32Array {
    this.expect('int8', query.length);
    return this.run(this.exports.dot_i8, (buf) => new Int16Array(buf, this.queryAt, this.stride).set(query), Int32Array);
  }

  dotF32(query: Float32Array): Float32Array {
    this.expect('f32', query.length);
    return this.run(this.exports.dot_f32, (buf) => new Float32Array(buf, this.queryAt, this.stride).set(query), Float32Array);
  }

  dotRows(query: Int16Array | Float32Array, rows: readonly number[]): number[] {
    this.expect(query instanceof Int16Array ? 'int8' : 'f32', query.length);
    const buf = this.exports.memory.buffer;
    const n = this.count * this.stride;
    return dotRowsOf(this.quantization === 'int8' ? new Int8Array(buf, this.rowsAt, n) : new Float32Array(buf, this.rowsAt, n), this.stride, this.count, query, rows);
  }

  private run<T extends Int32Array | Float32Array>(kernel: Kernel, putQuery: (buf: ArrayBuffer) => void, Out: new (buf: ArrayBuffer, at: number, n: number) => T): T {
    const buf = this.exports.memory.buffer;
    putQuery(buf);
    kernel(this.rowsAt, this.count, this.stride, this.queryAt, this.outAt);
    return new Out(buf, this.outAt, this.count);
  }

  private expect(q: Quantization, length: number): void {
    if (this.quantization !== q) throw new TypeError(`these rows are ${this.quantization}, not ${q}`);
    if (length !== this.stride) throw new RangeError(`the query must hold ${this.stride} values (got ${length})`);
  }
}

type Kernel = (rows: number, count: number, stride: number, query: number, out: number) => void;

/** The kernel's JavaScript twin: the same layout and, for f32, the same rounding steps. */
class JsScanner implements Scanner {
  readonly backend = 'js' as const;
  readonly count: number;
  readonly dims: number;
  readonly stride: number;
  readonly quantization: Quantization;
  private readonly rows: Int8Array | Float32Array;
  private readonly out: Int32Array | Float32Array;

  constructor(rows: VectorRows) {
    this.dims = rows.dims;
    this.quantization = rows.quantization;
    this.stride = paddedStride(rows.dims, rows.quantization);
    this.count = rows.data.length / rows.dims;
    this.rows = rows.quantization === 'int8' ? new Int8Array(this.count * this.stride) : new Float32Array(this.count * this.stride);
    padInto(this.rows, rows, this.stride);
    this.out = rows.quantization === 'int8' ? new Int32Array(this.count) : new Float32Array(this.count);
  }

  dotInt8(query: Int16Array): Int32Array {
    if (this.quantization !== 'int8') throw new TypeError(`these rows are ${this.quantization}, not int8`);
    if (query.length !== this.stride) throw new RangeError(`the query must hold ${this.stride} values (got ${query.length})`);
    const rows = this.rows as Int8Array;
    const out = this.out as Int32Array;
    const { stride, count } = this;
    // int32 arithmetic (Math.imul, |0) keeps V8 on integer code; no sum can overflow (see knn.ts int16Range).
    for (let r = 0, base = 0; r < count; r++, base += stride) {
      let a0 = 0, a1 = 0, a2 = 0, a3 = 0;
      for (let i = 0; i < stride; i += 4) {
        const p = base + i;
        a0 = (a0 + Math.imul(rows[p], query[i])) | 0;
        a1 = (a1 + Math.imul(rows[p + 1], query[i + 1])) | 0;
        a2 = (a2 + Math.imul(rows[p + 2], query[i + 2])) | 0;
        a3 = (a3 + Math.imul(rows[p + 3], query[i + 3])) | 0;
      }
      out[r] = (a0 + a1 + (a2 + a3)) | 0;
    }
    return out;
  }

  dotRows(query: Int16Array | Float32Array, rows: readonly number[]): number[] {
    const q: Quantization = query instanceof Int16Array ? 'int8' : 'f32';
    if (this.quantization !== q) throw new TypeError(`these rows are ${this.quantization}, not ${q}`);
    return dotRowsOf(this.rows, this.stride, this.count, query, rows);
  }

  dotF32(query: Float32Array): Float32Array {
    if (this.quantization !== 'f32') throw new TypeError(`these rows are ${this.quantization}, not f32`);
    if (query.length !== this.stride) throw new RangeError(`the query must hold ${this.stride} values (got ${query.length})`);
    const x = this.rows as Float32Array;
    const q = query;
    const out = this.out as Float32Array;
    const { stride, count } = this;
    for (let r = 0, base = 0; r < count; r++, base += stride) out[r] = dotRowF32(x, base, stride, q);
    return out;
  }
}
