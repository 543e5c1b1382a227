// The `combined` provider (the shipped code model and the model learned from this repository, side
// by side) through a real workspace, the runtime's model bytes swapped for small models trained here
// from the sample workspace: a first pass trains the learned half and stores every chunk's vector
// with both halves (a cosine is the mean of the two models' cosines); a later pass embeds new chunks
// inline without training again; another shipped model retrains without chunking anything again;
// bad model bytes are recorded and keyword search goes on.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LearnedModel } from '../core/vector/learned/model.ts';
import { CombinedEmbedder, concatHalves } from '../core/vector/combined/embedder.ts';
import { openWithCodeModel, trainModel } from './helpers/code-model-fixture.ts';
import { createNodeIndexStorage, loadEngine } from '../runtimes/node/index.ts';
import { sampleSources } from './helpers/tmp-workspace.ts';

const openDb = async (root: string) => createNodeIndexStorage(root).open(await loadEngine());

const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

function workspace(): string {
  const root = sampleSources('hci-combined-ws-', '[semantic]\nenabled = true\nprovider = "combined"\ndims = 24\n');
  tmp.push(root);
  return root;
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('the combined provider', () => {
  const first = trainModel(0x1234, 32);
  const second = trainModel(0x5678, 16);

  it('a cosine of two combined vectors is the mean of the two models\' cosines; a half one model cannot embed leaves the other whole', () => {
    const pre = LearnedModel.fromBytes(first);
    const learned = LearnedModel.fromBytes(second);
    const both = new CombinedEmbedder(pre, learned);
    const texts = ['apply the discount to the order total', 'catalog item price', 'OrderService saves the order'];
    const v = both.embed(texts).vectors;
    const a = pre.embed(texts).vectors;
    const b = learned.embed(texts).vectors;
    expect(both.dims).toBe(48);
    const row = (x: Float32Array, d: number, i: number) => x.subarray(i * d, (i + 1) * d);
    for (const [i, j] of [[0, 1], [0, 2], [1, 2]]) {
      const mean = (dot(row(a, 32, i), row(a, 32, j)) + dot(row(b, 16, i), row(b, 16, j))) / 2;
      expect(dot(row(v, 48, i), row(v, 48, j))).toBeCloseTo(mean, 5);
    }
    // One half all zeros (a text the learned model knows nothing of): the other half, unit length.
    const z = concatHalves(new Float32Array([0.6, 0.8]), 2, new Float32Array([0, 0, 0]), 3);
    expect(Array.from(z)).toEqual([Math.fround(0.6), Math.fround(0.8), 0, 0, 0]);
    expect(both.key).toEqual({ provider: 'combined', model: `hci-code@${pre.fingerprint}+ppmi-svd-sif-1@${learned.fingerprint}`, dims: 48, quantization: 'int8' });
    // Queries: the same rows while the shipped model has no query table; with one (format 2), its query half.
    expect(Array.from(both.embedQueries(texts))).toEqual(Array.from(v));
    const other = LearnedModel.fromBytes(trainModel(0x9abc, 32));
    const asym = new CombinedEmbedder(pre.withQueryTable({ rowScale: other.rowScale, vectors: other.vectors }), learned);
    expect(Array.from(asym.embed(texts).vectors)).toEqual(Array.from(v));
    const byHand = new LearnedModel({ ...pre.header }, pre.vocab, pre.weights, other.rowScale, pre.common, other.vectors);
    expect(Array.from(asym.embedQueries(texts))).toEqual(Array.from(concatHalves(byHand.embed(texts).vectors, 32, b, 16)));
  });

  it('trains the learned half on the first pass, embeds later chunks inline, answers semantic and hybrid searches', async () => {
    const root = workspace();
    const w = await openWithCodeModel(root, async () => first);
    try {
      const s = await w.index();
      const pre = LearnedModel.fromBytes(first);
      expect(s.vectors).toMatchObject({ provider: 'combined', trained: true, train_reason: 'no model yet', error: null, model: expect.stringMatching(new RegExp(`^combined/hci-code@${pre.fingerprint}\\+ppmi-svd-sif-1@[0-9a-f]{16}/56/int8$`)) });
      expect(s.vectors!.with_vectors).toBe(s.vectors!.chunks);
      expect((await w.status()).vectors).toMatchObject({ state: 'ready', provider: 'combined', coverage: 1 });
      const r = await w.search({ query: 'apply the discount to the order total', mode: 'semantic', limit: 5 });
      expect(r.status).toBe('ok');
      expect(r.hits.length).toBe(5);
      expect(r.hits.every((h) => h.vec_score! > 0 && h.vec_score! <= 1.001)).toBe(true);
      const hy = await w.search({ query: 'apply the discount to the order total', mode: 'hybrid' });
      expect(hy.status).toBe('ok');
      expect(hy.hits.length).toBeGreaterThan(0);

      // A new file: its chunks get combined vectors inline, with the same learned half (no training).
      fs.writeFileSync(path.join(root, 'src/Shipping.cs'), 'namespace Shop;\n\n/// Works out what shipping an order costs.\npublic class ShippingCalculator\n{\n    public decimal CostOf(Order order) => order.Total > 100 ? 0 : 4.95m;\n}\n');
      const again = await w.index();
      expect(again.files_indexed).toBe(1);
      expect(again.vectors).toMatchObject({ provider: 'combined', trained: false, error: null, model: s.vectors!.model });
      expect(again.vectors!.embedded).toBeGreaterThan(0);
      expect(again.vectors!.with_vectors).toBe(again.vectors!.chunks);
      const found = await w.search({ query: 'what shipping an order costs', mode: 'semantic', limit: 10 });
      expect(found.hits.map((h) => h.path)).toContain('src/Shipping.cs');
    } finally {
      w.close();
    }
  });

  it('the trained pass writes exactly the vectors embedding each chunk text with both models gives (the shipped half from the trainer\'s token stream)', async () => {
    const root = workspace();
    const onIndex = async <T>(f: (db: Awaited<ReturnType<typeof openDb>>) => T): Promise<T> => {
      const db = await openDb(root);
      try {
        return f(db);
      } finally {
        db.close();
      }
    };
    const VECTORS = 'SELECT v.chunk_id, hex(v.vec) FROM chunk_vectors v JOIN vector_models m ON m.id = v.model_id AND m.current = 1 ORDER BY v.chunk_id';
    const w = await openWithCodeModel(root, async () => first);
    const s = await w.index().finally(() => w.close());
    expect(s.vectors).toMatchObject({ trained: true, error: null });
    const trained = await onIndex((db) => db.selectArrays(VECTORS));
    expect(trained.length).toBe(s.vectors!.chunks);
    // Every vector dropped: the next pass embeds each chunk's text with both models (CombinedEmbedder), no training.
    await onIndex((db) => db.exec('DELETE FROM chunk_vectors'));
    const w2 = await openWithCodeModel(root, async () => first);
    const again = await w2.index().finally(() => w2.close());
    expect(again.vectors).toMatchObject({ trained: false, error: null, embedded: s.vectors!.chunks, with_vectors: s.vectors!.chunks });
    expect(await onIndex((db) => db.selectArrays(VECTORS))).toEqual(trained);
  });

  it('another shipped model trains and embeds again without chunking a file again', async () => {
    const root = workspace();
    const a = await openWithCodeModel(root, async () => first);
    let chunks = 0;
    try {
      chunks = (await a.index()).vectors!.chunks;
    } finally {
      a.close();
    }
    const b = await openWithCodeModel(root, async () => second);
    try {
      const s = await b.index();
      expect(s.files_indexed).toBe(0);
      expect(s.chunks_written).toBe(0);
      expect(s.vectors).toMatchObject({ provider: 'combined', trained: true, train_reason: 'the pretrained model changed', error: null, with_vectors: chunks, model: expect.stringMatching(/^combined\/hci-code@[0-9a-f]{16}\+ppmi-svd-sif-1@[0-9a-f]{16}\/40\/int8$/) });
      expect((await b.search({ query: 'apply the discount to the order total', mode: 'semantic', limit: 3 })).hits.length).toBe(3);
    } finally {
      b.close();
    }
  });

  it('bytes that are not a model are provider_unavailable, and keyword search goes on', async () => {
    const w = await openWithCodeModel(workspace(), async () => new Uint8Array(8));
    try {
      const s = await w.index();
      expect(s.vectors).toMatchObject({ provider: 'combined', error: { code: 'provider_unavailable' } });
      expect((await w.status()).vectors).toMatchObject({ state: 'failed' });
      expect((await w.search({ query: 'DiscountRule' })).hits.length).toBeGreaterThan(0);
      const sem = await w.search({ query: 'apply the discount', mode: 'semantic' });
      expect(sem).toMatchObject({ status: 'error', error: { code: 'mode_unavailable' } });
    } finally {
      w.close();
    }
  });
});
