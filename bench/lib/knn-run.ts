// The KNN latency and quantization benchmark body, runnable unchanged in Node, Deno and a browser
// (core imports and performance.now only): a deterministic clustered vector set (unit vectors
// around a few hundred centres, like chunk embeddings), exact top-k through each scan backend and
// encoding, latency percentiles, and int8's recall@k against f32. bench/knn-bench.ts runs it in
// the three runtimes; owns no I/O.
import { KnnIndex } from '../../core/vector/knn.ts';
import { fitInt8Scale, normalizeRows, quantizeInt8 } from '../../core/vector/quantize.ts';
import { uniformSigned } from '../../core/vector/learned/numeric.ts';

export interface KnnRunOptions {
  count: number;
  dims: number;
  k: number;
  queries: number;
  /** Timed searches per query set pass for the WASM backend (the JS twin gets a fifth). */
  repeats: number;
  seed?: number;
}

export interface KnnCase {
  encoding: 'int8' | 'f32';
  backend: string;
  loadMs: number;
  p50: number;
  p95: number;
  max: number;
  samples: number;
}

export interface KnnRunResult {
  count: number;
  dims: number;
  k: number;
  cases: KnnCase[];
  /** Mean share of f32's exact top-k that int8 also returns. */
  int8RecallAtK: number;
  /** int8 and f32 hits are identical between the WASM kernel and the JS twin. */
  backendsAgree: boolean;
}

function clustered(count: number, dims: number, seed: number): Float32Array {
  const rnd = uniformSigned(seed);
  const centres = normalizeRows(Float32Array.from({ length: 400 * dims }, rnd), dims);
  const out = new Float32Array(count * dims);
  for (let r = 0; r < count; r++) {
    const c = Math.floor(((rnd() + 1) / 2) * 400) * dims;
    for (let j = 0; j < dims; j++) out[r * dims + j] = centres[c + j] + 0.35 * rnd();
  }
  return normalizeRows(out, dims);
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function runKnn(o: KnnRunOptions): Promise<KnnRunResult> {
  const seed = o.seed ?? 20_261_201;
  const data = clustered(o.count, o.dims, seed);
  const queries = clustered(o.queries, o.dims, seed + 1);
  const scale = fitInt8Scale(data);
  const q8 = quantizeInt8(data, scale);
  const ids = Int32Array.from({ length: o.count }, (_, i) => i + 1);
  const cases: KnnCase[] = [];
  const hits: Record<string, Array<Array<[number, number]>>> = {};
  for (const encoding of ['int8', 'f32'] as const) {
    for (const backend of ['wasm', 'js'] as const) {
      const t0 = performance.now();
      const idx = await KnnIndex.create({ dims: o.dims, quantization: encoding, data: encoding === 'int8' ? q8 : data, scale, ids }, backend);
      const loadMs = performance.now() - t0;
      const q = (i: number) => queries.subarray((i % o.queries) * o.dims, ((i % o.queries) + 1) * o.dims);
      for (let i = 0; i < 5; i++) idx.search(q(i), { k: o.k }); // warm-up
      const n = backend === 'wasm' ? o.repeats : Math.max(5, Math.floor(o.repeats / 5));
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t = performance.now();
        idx.search(q(i), { k: o.k });
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      cases.push({ encoding, backend: idx.backend, loadMs, p50: pct(times, 50), p95: pct(times, 95), max: times[times.length - 1], samples: n });
      hits[`${encoding}/${backend}`] = Array.from({ length: o.queries }, (_, i) => idx.search(q(i), { k: o.k }).map((h): [number, number] => [h.id, h.score]));
    }
  }
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  let recall = 0;
  for (let i = 0; i < o.queries; i++) {
    const exact = new Set(hits['f32/wasm'][i].map(([id]) => id));
    recall += hits['int8/wasm'][i].filter(([id]) => exact.has(id)).length / Math.max(1, exact.size);
  }
  return {
    count: o.count, dims: o.dims, k: o.k, cases,
    int8RecallAtK: recall / o.queries,
    backendsAgree: same(hits['int8/wasm'], hits['int8/js']) && same(hits['f32/wasm'], hits['f32/js']),
  };
}
