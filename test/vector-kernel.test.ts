// The vector scan kernel: the committed bytes are exactly what core/vector/kernel.wat assembles to;
// the WASM SIMD kernel and its JS twin return bit-identical scores (int8 and f32, any dims); exact
// top-k with ties broken by id, masks and score floors; the per-generation cache; the sqlite-vec
// blob layout and int8 quantization.
// @lane cli
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import wabtInit from 'wabt';
import { KERNEL_SOURCE_SHA256, KERNEL_WASM } from '../core/vector/kernel-wasm.ts';
import { createScanner, kernelModule, paddedStride } from '../core/vector/scan.ts';
import { int16Range, KnnCache, KnnIndex, topRows } from '../core/vector/knn.ts';
import { blobToVector, dequantizeInt8, fitInt8Scale, normalizeRows, quantizeInt8, vectorToBlob } from '../core/vector/quantize.ts';
import { uniformSigned } from '../core/vector/learned/numeric.ts';
import { sha256Hex } from '../core/index/sha256.ts';

const REPO = path.resolve(import.meta.dirname, '..');
const WAT = path.join(REPO, 'core/vector/kernel.wat');

function randomRows(count: number, dims: number, seed: number): Float32Array {
  const rnd = uniformSigned(seed);
  const a = new Float32Array(count * dims);
  for (let i = 0; i < a.length; i++) a[i] = rnd();
  return normalizeRows(a, dims);
}

describe('kernel build', () => {
  it('the committed kernel bytes are exactly what kernel.wat assembles to', async () => {
    const wat = fs.readFileSync(WAT, 'utf8');
    const wabt = await wabtInit();
    const mod = wabt.parseWat('kernel.wat', wat, { simd: true });
    mod.validate();
    const bytes = new Uint8Array(mod.toBinary({ log: false, write_debug_names: false }).buffer);
    mod.destroy();
    expect(bytes.length).toBeGreaterThan(100);
    expect(Buffer.from(KERNEL_WASM).equals(Buffer.from(bytes))).toBe(true);
    expect(KERNEL_SOURCE_SHA256).toBe(sha256Hex(new TextEncoder().encode(wat.replace(/\r\n/g, '\n'))));
  });

  it('the build script agrees (--check exits 0) and the module is valid SIMD wasm', async () => {
    execFileSync(process.execPath, [path.join(REPO, 'tools/build-kernel.mjs'), '--check'], { stdio: 'pipe' });
    expect(WebAssembly.validate(KERNEL_WASM)).toBe(true);
    expect(await kernelModule()).not.toBeNull();
  });

  it('--check fails on a stale artifact', () => {
    // A copy of the tool and its inputs in a temp tree, with the artifact edited.
    const tmp = fs.mkdtempSync(path.join(REPO, 'node_modules', '.hci-kernel-check-'));
    try {
      fs.mkdirSync(path.join(tmp, 'tools'));
      fs.mkdirSync(path.join(tmp, 'core/vector'), { recursive: true });
      fs.copyFileSync(path.join(REPO, 'tools/build-kernel.mjs'), path.join(tmp, 'tools/build-kernel.mjs'));
      fs.copyFileSync(WAT, path.join(tmp, 'core/vector/kernel.wat'));
      const artifact = fs.readFileSync(path.join(REPO, 'core/vector/kernel-wasm.ts'), 'utf8');
      fs.writeFileSync(path.join(tmp, 'core/vector/kernel-wasm.ts'), artifact.replace('0, 97, 115, 109', '0, 97, 115, 110'));
      let code = 0;
      try {
        execFileSync(process.execPath, [path.join(tmp, 'tools/build-kernel.mjs'), '--check'], { stdio: 'pipe' });
      } catch (e) {
        code = (e as { status: number }).status;
      }
      expect(code).toBe(1);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('scan: WASM SIMD and the JS twin', () => {
  it.each([1, 3, 16, 17, 100, 128, 384])('int8 and f32 at %i dims: identical bits, correct dot products', async (dims) => {
    const count = 257;
    const f = randomRows(count, dims, dims);
    const scale = fitInt8Scale(f);
    const q8 = quantizeInt8(f, scale);
    const stride8 = paddedStride(dims, 'int8');
    const strideF = paddedStride(dims, 'f32');
    const rnd = uniformSigned(99 + dims);
    const qi = new Int16Array(stride8);
    const range = int16Range(dims);
    for (let i = 0; i < dims; i++) qi[i] = Math.round(rnd() * range);
    const qf = new Float32Array(strideF);
    for (let i = 0; i < dims; i++) qf[i] = rnd();

    const wasm8 = await createScanner({ dims, quantization: 'int8', data: q8 }, 'wasm');
    const js8 = await createScanner({ dims, quantization: 'int8', data: q8 }, 'js');
    expect(wasm8.backend).toBe('wasm-simd');
    expect(js8.backend).toBe('js');
    const a = Int32Array.from(wasm8.dotInt8(qi));
    const b = Int32Array.from(js8.dotInt8(qi));
    expect(a).toEqual(b);
    for (let r = 0; r < count; r++) {
      let exact = 0;
      for (let i = 0; i < dims; i++) exact += q8[r * dims + i] * qi[i];
      expect(a[r]).toBe(exact);
    }

    const wasmF = await createScanner({ dims, quantization: 'f32', data: f }, 'wasm');
    const jsF = await createScanner({ dims, quantization: 'f32', data: f }, 'js');
    const x = Float32Array.from(wasmF.dotF32(qf));
    const y = Float32Array.from(jsF.dotF32(qf));
    expect(Buffer.from(x.buffer).equals(Buffer.from(y.buffer))).toBe(true);
    for (let r = 0; r < count; r++) {
      let ref = 0;
      for (let i = 0; i < dims; i++) ref += f[r * dims + i] * qf[i];
      expect(Math.abs(x[r] - ref)).toBeLessThan(1e-5);
    }
  });

  it('rejects malformed rows and queries', async () => {
    await expect(createScanner({ dims: 4, quantization: 'int8', data: new Float32Array(8) }, 'js')).rejects.toThrow(/Int8Array/);
    await expect(createScanner({ dims: 3, quantization: 'f32', data: new Float32Array(8) }, 'js')).rejects.toThrow(/multiple of dims/);
    const s = await createScanner({ dims: 4, quantization: 'f32', data: new Float32Array(8) }, 'wasm');
    expect(() => s.dotF32(new Float32Array(4))).toThrow(/8 values/);
    expect(() => s.dotInt8(new Int16Array(16))).toThrow(/f32, not int8/);
  });
});

describe('KnnIndex: exact top-k', () => {
  it('wasm and js give the same hits and scores; int8 keeps recall@20 against f32', async () => {
    const dims = 64;
    const count = 3000;
    const f = randomRows(count, dims, 7);
    const scale = fitInt8Scale(f);
    const ids = Array.from({ length: count }, (_, i) => 10_000 + ((i * 7919) % count));
    const q8 = quantizeInt8(f, scale);
    const make = (quantization: 'int8' | 'f32', backend: 'wasm' | 'js') =>
      KnnIndex.create({ dims, quantization, data: quantization === 'int8' ? q8 : f, scale, ids }, backend);
    const [w8, j8, wf, jf] = await Promise.all([make('int8', 'wasm'), make('int8', 'js'), make('f32', 'wasm'), make('f32', 'js')]);
    const queries = randomRows(40, dims, 8);
    const recalls: number[] = [];
    for (let i = 0; i < 40; i++) {
      const q = queries.subarray(i * dims, (i + 1) * dims);
      const a = w8.search(q, { k: 20 });
      expect(j8.search(q, { k: 20 })).toEqual(a);
      const exact = wf.search(q, { k: 20 });
      expect(jf.search(q, { k: 20 })).toEqual(exact);
      expect(a).toHaveLength(20);
      for (let r = 1; r < a.length; r++) expect(a[r - 1].score).toBeGreaterThanOrEqual(a[r].score);
      // Brute force in float64 agrees with the f32 ranking's top hit.
      let best = -1;
      let bestScore = -Infinity;
      for (let r = 0; r < count; r++) {
        let s = 0;
        for (let j = 0; j < dims; j++) s += f[r * dims + j] * q[j];
        if (s > bestScore) [best, bestScore] = [r, s];
      }
      expect(exact[0].row).toBe(best);
      const got = new Set(a.map((h) => h.id));
      recalls.push(exact.filter((h) => got.has(h.id)).length / 20);
    }
    // Random unit vectors in 64 dims are the hard case (neighbours nearly equidistant).
    expect(recalls.reduce((s, r) => s + r, 0) / recalls.length).toBeGreaterThan(0.9);
  });

  it('breaks ties by smaller chunk id, honours mask, minScore and k, and finds nothing for a zero query', async () => {
    const dims = 8;
    // Rows 0..5 are the same vector; ids out of order.
    const one = new Float32Array(dims).fill(1 / Math.sqrt(dims));
    const data = new Float32Array(8 * dims);
    for (let r = 0; r < 6; r++) data.set(one, r * dims);
    data.set(new Float32Array(dims).fill(-1 / Math.sqrt(dims)), 6 * dims);
    const ids = [50, 20, 40, 10, 30, 60, 5, 1]; // row 7 stays all zero
    const scale = 1 / (127 * Math.sqrt(dims)); // the components' magnitude maps to 127
    for (const quantization of ['f32', 'int8'] as const) {
      const idx = await KnnIndex.create({ dims, quantization, data: quantization === 'int8' ? quantizeInt8(data, scale) : data, scale, ids });
      const hits = idx.search(one, { k: 4 });
      expect(hits.map((h) => h.id)).toEqual([10, 20, 30, 40]);
      expect(hits[0].score).toBeCloseTo(1, 2);
      const all = idx.search(one, { k: 100 });
      expect(all.map((h) => h.id)).toEqual([10, 20, 30, 40, 50, 60, 1, 5]);
      const mask = new Uint8Array(8).fill(1);
      mask[3] = 0;
      expect(idx.search(one, { k: 2, mask }).map((h) => h.id)).toEqual([20, 30]);
      expect(idx.search(one, { k: 100, minScore: 0.5 }).map((h) => h.id)).toEqual([10, 20, 30, 40, 50, 60]);
      expect(idx.search(new Float32Array(dims), { k: 5 })).toEqual([]);
      expect(idx.search(one, { k: 0 })).toEqual([]);
      expect(() => idx.search(new Float32Array(3), { k: 1 })).toThrow(/3 dims/);
    }
  });

  it('scores(): any chunk\'s score is the one a full scan gives it, bit for bit (int8 and f32, wasm and js, ids sorted or not)', async () => {
    const dims = 40; // not a multiple of the SIMD step: padded rows
    const count = 500;
    const f = randomRows(count, dims, 11);
    const scale = fitInt8Scale(f);
    const q8 = quantizeInt8(f, scale);
    const queries = randomRows(5, dims, 12);
    for (const ids of [Array.from({ length: count }, (_, i) => 3 * i + 1), Array.from({ length: count }, (_, i) => 1 + ((i * 7919) % count))]) {
      for (const quantization of ['int8', 'f32'] as const) {
        for (const backend of ['wasm', 'js'] as const) {
          const idx = await KnnIndex.create({ dims, quantization, data: quantization === 'int8' ? q8 : f, scale, ids }, backend);
          for (let i = 0; i < 5; i++) {
            const q = queries.subarray(i * dims, (i + 1) * dims);
            const all = new Map(idx.search(q, { k: count }).map((h) => [h.id, h.score]));
            const some = [ids[0], ids[count - 1], ids[250], ids[17], ids[17], 999_999];
            const got = idx.scores(q, some);
            // The duplicate counts once, the id without a row is left out.
            expect([...got.keys()]).toEqual([ids[0], ids[count - 1], ids[250], ids[17]]);
            for (const [id, score] of got) expect(Object.is(score, all.get(id))).toBe(true);
          }
          expect(idx.scores(new Float32Array(dims), [ids[0]]).size).toBe(0);
          expect(idx.scores(queries.subarray(0, dims), []).size).toBe(0);
        }
      }
    }
  });

  it('topRows never ranks NaN and sorts best first', () => {
    expect(topRows([0.5, NaN, 0.9, 0.5, -1], [1, 2, 3, 0, 4], 3)).toEqual([2, 3, 0]);
  });

  it('needs a scale for int8 and one id per row', async () => {
    await expect(KnnIndex.create({ dims: 2, quantization: 'int8', data: new Int8Array(4), ids: [1, 2] })).rejects.toThrow(/scale/);
    await expect(KnnIndex.create({ dims: 2, quantization: 'f32', data: new Float32Array(4), ids: [1] })).rejects.toThrow(/ids/);
  });
});

describe('KnnCache: one index generation at a time', () => {
  it('returns the loaded index for the same key, reloads for a new one, and forgets a failed load', async () => {
    const cache = new KnnCache('js');
    let loads = 0;
    const load = () => {
      loads++;
      return { dims: 2, quantization: 'f32' as const, data: new Float32Array([1, 0, 0, 1]), ids: [1, 2] };
    };
    const a = await cache.get('ws#1#m', load);
    expect(await cache.get('ws#1#m', load)).toBe(a);
    expect(loads).toBe(1);
    const b = await cache.get('ws#2#m', load);
    expect(b).not.toBe(a);
    expect(loads).toBe(2);
    expect(cache.current).toBe('ws#2#m');
    await expect(cache.get('ws#3#m', () => { throw new Error('store busy'); })).rejects.toThrow('store busy');
    expect(cache.current).toBeUndefined();
    expect(await cache.get('ws#3#m', load)).toBeInstanceOf(KnnIndex);
    expect(loads).toBe(3);
  });
});

describe('quantization and the sqlite-vec blob layout', () => {
  it('float32 blobs are little-endian IEEE 754, int8 blobs are the bytes; both round-trip', () => {
    const v = new Float32Array([1, -2, 0.5]);
    const blob = vectorToBlob(v);
    expect(Array.from(blob.subarray(0, 4))).toEqual([0x00, 0x00, 0x80, 0x3f]);
    expect(Array.from(blob.subarray(4, 8))).toEqual([0x00, 0x00, 0x00, 0xc0]);
    expect(blobToVector(blob, 'f32')).toEqual(v);
    const q = new Int8Array([-127, 0, 5, 127]);
    expect(Array.from(vectorToBlob(q))).toEqual([0x81, 0, 5, 127]);
    expect(blobToVector(vectorToBlob(q), 'int8')).toEqual(q);
    expect(() => blobToVector(new Uint8Array(5), 'f32')).toThrow(/multiple of 4/);
  });

  it('int8 quantization clips to ±127 with one scale, and round-trips within half a step', () => {
    const f = new Float32Array([0.1, -0.1, 0.5, -3, 2, NaN]);
    const q = quantizeInt8(f, 0.01);
    expect(Array.from(q)).toEqual([10, -10, 50, -127, 127, 0]);
    const back = dequantizeInt8(q, 0.01);
    expect(back[2]).toBeCloseTo(0.5, 6);
    const rows = randomRows(100, 32, 3);
    const scale = fitInt8Scale(rows);
    const err = dequantizeInt8(quantizeInt8(rows, scale), scale).reduce((m, x, i) => Math.max(m, Math.abs(x - rows[i])), 0);
    expect(err).toBeLessThanOrEqual(scale * 0.5 + 1e-6 + Math.max(0, Math.max(...rows.map(Math.abs)) - 127 * scale));
    expect(() => quantizeInt8(f, 0)).toThrow(/scale/);
  });
});
