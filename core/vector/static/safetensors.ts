// The safetensors file format (Hugging Face): an 8-byte little-endian header length, a JSON header
// naming each tensor's dtype, shape and byte range, then the tensors' bytes, little-endian, row-major.
// Reads the tensors a static embedding model needs, as numbers: floats (F64, F32, F16, BF16) into a
// Float32Array, integers (I8, U8, I16, U16, I32, U32, I64, U64) into a Float64Array. Owns only the
// format; what the tensors mean is the model's. A malformed file is a RangeError naming what is wrong.

export type SafetensorsDtype = 'F64' | 'F32' | 'F16' | 'BF16' | 'I8' | 'U8' | 'I16' | 'U16' | 'I32' | 'U32' | 'I64' | 'U64' | 'BOOL';

export interface TensorInfo {
  dtype: SafetensorsDtype;
  shape: number[];
  /** Byte range inside the data section (after the header). */
  data_offsets: [number, number];
}

const WIDTH: Record<SafetensorsDtype, number> = { F64: 8, F32: 4, F16: 2, BF16: 2, I8: 1, U8: 1, I16: 2, U16: 2, I32: 4, U32: 4, I64: 8, U64: 8, BOOL: 1 };

export class Safetensors {
  readonly tensors: ReadonlyMap<string, TensorInfo>;
  readonly metadata: Record<string, string>;
  private readonly data: DataView;

  constructor(bytes: Uint8Array) {
    const fail = (why: string) => new RangeError(`not a safetensors file: ${why}`);
    if (bytes.length < 8) throw fail('shorter than its 8-byte header length');
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const n = Number(dv.getBigUint64(0, true));
    if (n > bytes.length - 8) throw fail(`its header length ${n} runs past the end of the file`);
    let head: Record<string, unknown>;
    try {
      head = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(8, 8 + n))) as Record<string, unknown>;
    } catch (e) {
      throw fail(`its header is not JSON (${(e as Error).message})`);
    }
    const data = bytes.subarray(8 + n);
    this.data = new DataView(data.buffer, data.byteOffset, data.byteLength);
    const tensors = new Map<string, TensorInfo>();
    for (const [name, v] of Object.entries(head)) {
      if (name === '__metadata__') continue;
      const t = v as TensorInfo;
      if (!t || !(t.dtype in WIDTH) || !Array.isArray(t.shape) || !Array.isArray(t.data_offsets)) throw fail(`tensor ${name} has no dtype, shape or data_offsets`);
      const [b, e] = t.data_offsets;
      const count = t.shape.reduce((a, x) => a * x, 1);
      if (!(b >= 0 && e >= b && e <= data.length)) throw fail(`tensor ${name}'s bytes ${b}…${e} lie outside the data (${data.length} bytes)`);
      if (e - b !== count * WIDTH[t.dtype]) throw fail(`tensor ${name} is ${t.dtype} ${t.shape.join('×')} but holds ${e - b} bytes`);
      tensors.set(name, t);
    }
    this.tensors = tensors;
    this.metadata = (head.__metadata__ as Record<string, string> | undefined) ?? {};
  }

  has(name: string): boolean {
    return this.tensors.has(name);
  }

  /** A floating-point tensor's values (row-major), as f32. */
  floats(name: string): { values: Float32Array; shape: number[] } {
    const t = this.info(name);
    const [b] = t.data_offsets;
    const count = t.shape.reduce((a, x) => a * x, 1);
    const out = new Float32Array(count);
    const dv = this.data;
    switch (t.dtype) {
      case 'F32': for (let i = 0; i < count; i++) out[i] = dv.getFloat32(b + 4 * i, true); break;
      case 'F64': for (let i = 0; i < count; i++) out[i] = dv.getFloat64(b + 8 * i, true); break;
      case 'F16': for (let i = 0; i < count; i++) out[i] = halfToFloat(dv.getUint16(b + 2 * i, true)); break;
      case 'BF16': for (let i = 0; i < count; i++) out[i] = bf16ToFloat(dv.getUint16(b + 2 * i, true)); break;
      case 'I8': for (let i = 0; i < count; i++) out[i] = dv.getInt8(b + i); break;
      case 'U8': for (let i = 0; i < count; i++) out[i] = dv.getUint8(b + i); break;
      default: throw new RangeError(`tensor ${name} is ${t.dtype}, not a number type a static model's vectors can be`);
    }
    return { values: out, shape: t.shape };
  }

  /** An integer tensor's values (row-major; I64/U64 beyond 2^53 are refused). */
  integers(name: string): { values: Float64Array; shape: number[] } {
    const t = this.info(name);
    const [b] = t.data_offsets;
    const count = t.shape.reduce((a, x) => a * x, 1);
    const out = new Float64Array(count);
    const dv = this.data;
    for (let i = 0; i < count; i++) {
      switch (t.dtype) {
        case 'I8': out[i] = dv.getInt8(b + i); break;
        case 'U8': out[i] = dv.getUint8(b + i); break;
        case 'I16': out[i] = dv.getInt16(b + 2 * i, true); break;
        case 'U16': out[i] = dv.getUint16(b + 2 * i, true); break;
        case 'I32': out[i] = dv.getInt32(b + 4 * i, true); break;
        case 'U32': out[i] = dv.getUint32(b + 4 * i, true); break;
        case 'I64': case 'U64': {
          const v = t.dtype === 'I64' ? dv.getBigInt64(b + 8 * i, true) : dv.getBigUint64(b + 8 * i, true);
          if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`tensor ${name} holds ${v}, beyond 2^53`);
          out[i] = Number(v);
          break;
        }
        default: throw new RangeError(`tensor ${name} is ${t.dtype}, not an integer type`);
      }
    }
    return { values: out, shape: t.shape };
  }

  private info(name: string): TensorInfo {
    const t = this.tensors.get(name);
    if (!t) throw new RangeError(`the safetensors file has no tensor "${name}" (it has ${[...this.tensors.keys()].join(', ') || 'none'})`);
    return t;
  }
}

/** IEEE 754 half → float (exact). */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

/** bfloat16 → float (exact: the upper half of an f32). */
export function bf16ToFloat(h: number): number {
  const f = new Float32Array(new Uint32Array([h << 16]).buffer);
  return f[0];
}

/** Writes a safetensors file (tests): tensors in the order given, each F32, I32, I64 or I8 from numbers. */
export function writeSafetensors(tensors: Record<string, { dtype: 'F32' | 'I32' | 'I64' | 'I8'; shape: number[]; data: ArrayLike<number> }>, metadata?: Record<string, string>): Uint8Array {
  const head: Record<string, unknown> = metadata ? { __metadata__: metadata } : {};
  let off = 0;
  const parts: Uint8Array[] = [];
  for (const [name, t] of Object.entries(tensors)) {
    const w = WIDTH[t.dtype];
    const buf = new Uint8Array(t.data.length * w);
    const dv = new DataView(buf.buffer);
    for (let i = 0; i < t.data.length; i++) {
      const v = t.data[i];
      if (t.dtype === 'F32') dv.setFloat32(i * 4, v, true);
      else if (t.dtype === 'I32') dv.setInt32(i * 4, v, true);
      else if (t.dtype === 'I64') dv.setBigInt64(i * 8, BigInt(v), true);
      else dv.setInt8(i, v);
    }
    head[name] = { dtype: t.dtype, shape: t.shape, data_offsets: [off, off + buf.length] };
    off += buf.length;
    parts.push(buf);
  }
  let json = JSON.stringify(head);
  while ((8 + json.length) % 8 !== 0) json += ' ';
  const h = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + h.length + off);
  new DataView(out.buffer).setBigUint64(0, BigInt(h.length), true);
  out.set(h, 8);
  let at = 8 + h.length;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
