// What the ONNX fixture gives in one runtime: the onnx provider (core/vector/onnx/provider.ts) built
// over the generated tiny model (scripts/make-onnx-fixture.mjs) through that runtime's
// onnxruntime-web, its key, and the vectors of fixed texts — in one batch, one at a time (batching
// must not change a vector), as queries with a prefix, and a long text truncated to the token
// budget. Node, Deno and the Chromium page run this same function; the test compares them.
import { createOnnxProvider, type OnnxHost } from '../../core/vector/onnx/provider.ts';

export const ONNX_TEXTS = [
  'apply the discount to the order total',
  'public decimal Price(int item) { return item * 2; }',
  'catalog items for the customer',
  'Ünïcödé naïve café 中文 text',
  'x',
];

/** A text longer than the 16-token budget: its vector is that of its first 14 pieces. */
export const LONG_TEXT = 'order '.repeat(40) + 'discount';

export interface OnnxFingerprint {
  key: { provider: string; model: string; dims: number; quantization: string };
  batched: number[][];
  single: number[][];
  query: number[];
  long: number[];
  longPrefix: number[];
}

export async function onnxFingerprint(host: OnnxHost, modelDir: string): Promise<OnnxFingerprint> {
  const settings = { model_dir: modelDir, max_tokens: 16, batch_size: 3, query_prefix: 'query ', document_prefix: '', quantization: 'int8' as const };
  const p = await createOnnxProvider(settings, host, '/');
  if ('code' in p) throw new Error(`${p.code}: ${p.message}`);
  const rows = (v: Float32Array, n: number) => Array.from({ length: n }, (_, i) => Array.from(v.subarray(i * p.dims, (i + 1) * p.dims)));
  const all = await p.embed(ONNX_TEXTS);
  if (!all.ok) throw new Error(all.error.message);
  const single: number[][] = [];
  for (const t of ONNX_TEXTS) {
    const r = await p.embed([t]);
    if (!r.ok) throw new Error(r.error.message);
    single.push(rows(r.vectors, 1)[0]);
  }
  const q = await p.embed(['catalog items'], { kind: 'query' });
  const long = await p.embed([LONG_TEXT]);
  const prefix = await p.embed(['order '.repeat(14)]);
  if (!q.ok || !long.ok || !prefix.ok) throw new Error('embed failed');
  return { key: p.key, batched: rows(all.vectors, ONNX_TEXTS.length), single, query: rows(q.vectors, 1)[0], long: rows(long.vectors, 1)[0], longPrefix: rows(prefix.vectors, 1)[0] };
}
