// The learned embeddings, piece by piece and whole: deterministic numerics (ln, PRNG), the
// tokenizer reusing the analyzer's splitter, co-occurrence windows, PPMI, the SVD, training
// (deterministic, embed = training vectors, meaningful neighbours), the byte layout, drift and the
// provider's structured errors.
// @lane unit
import { describe, it, expect } from 'vitest';
import { ln, mulberry32, uniformSigned } from '../core/vector/learned/numeric.ts';
import { ModelTokenizer } from '../core/vector/learned/tokens.ts';
import { TokenIds } from '../core/vector/learned/token-ids.ts';
import { forEachIdentRun, splitIdentifier } from '../core/text/analyzer.ts';
import { buildTokenCorpus, cooccurrence, END } from '../core/vector/learned/cooccur.ts';
import { ppmi } from '../core/vector/learned/ppmi.ts';
import { randomizedSvd, symmetricEigen } from '../core/vector/learned/svd.ts';
import type { Csr } from '../core/vector/learned/sparse.ts';
import { LearnedModel, quantizeRows } from '../core/vector/learned/model.ts';
import { LearnedProvider } from '../core/vector/learned/provider.ts';
import { trainLearnedModel, trainModelFromCorpus } from '../core/vector/learned/train.ts';
import { fitInt8Scale, int8ScaleSampler } from '../core/vector/quantize.ts';
import { KnnIndex } from '../core/vector/knn.ts';
import { sampleCorpus } from './helpers/vector-corpus.ts';

/** The entry (r, c) of a CSR matrix (0 when absent). */
function at(m: Csr, r: number, c: number): number {
  for (let p = m.rowPtr[r]; p < m.rowPtr[r + 1]; p++) if (m.colIdx[p] === c) return m.values[p];
  return 0;
}

describe('deterministic numerics', () => {
  it('ln agrees with Math.log to about 1 ulp, subnormals and edges included', () => {
    const rnd = uniformSigned(1);
    const xs = [1, 2, 0.5, Math.E, 10, 1e-300, 5e-324, 1.7976931348623157e308, 0.7071067811865476, 1.4142135623730951, 1 + 1e-12];
    for (let i = 0; i < 2000; i++) xs.push(Math.abs(rnd()) * 10 ** Math.round(rnd() * 30));
    for (const x of xs) {
      const want = Math.log(x);
      expect(Math.abs(ln(x) - want)).toBeLessThanOrEqual(4e-16 * Math.max(1, Math.abs(want)));
    }
    expect(ln(0)).toBe(-Infinity);
    expect(ln(-1)).toBeNaN();
    expect(ln(Infinity)).toBe(Infinity);
  });

  it('the PRNG is a pure function of its seed, and uniformSigned stays in [-1, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const c = mulberry32(43);
    const sa = Array.from({ length: 100 }, a);
    expect(Array.from({ length: 100 }, b)).toEqual(sa);
    expect(Array.from({ length: 100 }, c)).not.toEqual(sa);
    const u = uniformSigned(7);
    let sum = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < 100_000; i++) {
      const x = u();
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
      sum += x;
    }
    expect(lo).toBeGreaterThanOrEqual(-1);
    expect(lo).toBeLessThan(-0.99);
    expect(hi).toBeLessThan(1);
    expect(hi).toBeGreaterThan(0.99);
    expect(Math.abs(sum / 100_000)).toBeLessThan(0.01);
  });
});

describe('tokens', () => {
  it('splits identifiers with the analyzer and drops stop words, numbers and one-letter parts', () => {
    const t = new ModelTokenizer();
    expect(splitIdentifier('HTTPServer2Go')).toEqual(['http', 'server', '2', 'go']);
    expect(t.tokens('public async Task<IList<CatalogItem>> GetCatalogItemsAsync(int max_items = 42) // the x of HTTPServer2Go')).toEqual([
      'public', 'async', 'task', 'list', 'catalog', 'item', 'catalog', 'items', 'async', 'int', 'max', 'items', 'http', 'server', 'go',
    ]);
  });
});

describe('token ids', () => {
  it('a text\'s ids are the tokenizer\'s stream looked up in the vocabulary, also after the run table starts over', () => {
    const { texts } = sampleCorpus();
    const all = [...texts, 'Größe_x naïve \u{1D4B3}abc \uD800lone ÄÖ-ü 42ab ___ HTTPServer2Go getHTTPServer2Go'];
    const t = new ModelTokenizer();
    // A vocabulary of every other distinct token: the rest count as unknown.
    const vocab = new Map<string, number>();
    let k = 0;
    for (const text of all) for (const tok of t.tokens(text)) if (!vocab.has(tok)) vocab.set(tok, k++ % 2 ? -1 : vocab.size);
    for (const [tok, id] of vocab) if (id < 0) vocab.delete(tok);
    for (const maxRuns of [200_000, 7]) {
      const ids = new TokenIds((tok) => vocab.get(tok), maxRuns);
      let unknown = 0;
      for (const text of all) {
        const want = t.tokens(text);
        const got = ids.ids(text);
        expect(Array.from(got.ids.subarray(0, got.n))).toEqual(want.filter((tok) => vocab.has(tok)).map((tok) => vocab.get(tok)));
        expect([got.tokens, got.oov]).toEqual([want.length, want.filter((tok) => !vocab.has(tok)).length]);
        unknown += got.oov;
      }
      expect(unknown).toBeGreaterThan(100);
    }
  });
});

describe('identifier runs', () => {
  it('the char-code scan finds exactly the runs the analyzer\'s IDENT regex does', () => {
    const text = 'Größe_x naïve \u{1D4B3}abc \uD800lone ÄÖ-ü 42ab ___ a.b\tπ日本語 \uDC00 end';
    const got: string[] = [];
    forEachIdentRun(text, (w) => got.push(w));
    expect(got).toEqual([...text.matchAll(/[\p{L}\p{N}_]+/gu)].map((m) => m[0]));
  });
});

describe('co-occurrence and PPMI', () => {
  const t = new ModelTokenizer();
  it('weights pairs 1/distance inside a chunk and never across chunks', () => {
    const corpus = buildTokenCorpus(['alpha beta gamma', 'gamma delta'], t, { minCount: 1, maxVocab: 100 });
    const id = (w: string) => corpus.vocab.indexOf(w);
    const m = cooccurrence(corpus, 5);
    expect(at(m, id('alpha'), id('beta'))).toBe(1);
    expect(at(m, id('alpha'), id('gamma'))).toBe(0.5);
    expect(at(m, id('gamma'), id('alpha'))).toBe(0.5);
    expect(at(m, id('beta'), id('delta'))).toBe(0);
    expect(at(m, id('gamma'), id('delta'))).toBe(1);
    expect(corpus.chunks).toBe(2);
  });

  it('keeps the vocabulary by count and max size, and counts what falls outside', () => {
    const corpus = buildTokenCorpus(['aa bb bb cc cc cc', 'dd'], t, { minCount: 2, maxVocab: 1 });
    expect(corpus.vocab).toEqual(['cc']);
    expect(corpus.totalTokens).toBe(7);
    expect(corpus.oovTokens).toBe(4);
    // An empty chunk keeps its place.
    expect(Array.from(corpus.seq)).toEqual([END, 0, 0, 0, END, END]);
  });

  it('keeps the id sequence exact past 65,535 distinct tokens (its later blocks in 32 bits)', () => {
    // Letters only (digits would split off), two or more of them: every word is a distinct token.
    const word = (i: number) => {
      let w = '';
      for (let k = 0; k < 4; k++, i = Math.floor(i / 26)) w += String.fromCharCode(97 + (i % 26));
      return `zq${w}`;
    };
    const rare = Array.from({ length: 70_000 }, (_, i) => word(i));
    const texts = ['alpha beta', rare.slice(0, 40_000).join(' '), 'beta gamma alpha', rare.slice(40_000).join(' '), `${word(69_999)} alpha ${word(3)}`, 'gamma'];
    const corpus = buildTokenCorpus(texts, t, { minCount: 2, maxVocab: 100 });
    expect(corpus.vocab).toEqual(['alpha', 'beta', 'gamma', word(3), word(69_999)]);
    expect(corpus.chunks).toBe(6);
    expect(corpus.totalTokens).toBe(2 + 40_000 + 3 + 30_000 + 3 + 1);
    expect(Array.from(corpus.seq)).toEqual([END, 0, 1, END, 3, END, 1, 2, 0, END, 4, END, 4, 0, 3, END, 2, END]);
  });

  it('computes PPMI with context smoothing 0.75 and keeps the largest entries per row', () => {
    const corpus = buildTokenCorpus(['aa bb cc aa bb', 'cc dd ee dd aa'], t, { minCount: 1, maxVocab: 100 });
    const counts = cooccurrence(corpus, 5);
    const m = ppmi(counts, { alpha: 0.75, maxPerRow: 0 });
    const rows = counts.rows;
    const rowSum = Array.from({ length: rows }, (_, r) => {
      let s = 0;
      for (let p = counts.rowPtr[r]; p < counts.rowPtr[r + 1]; p++) s += counts.values[p];
      return s;
    });
    const z = rowSum.reduce((s, n) => s + n ** 0.75, 0);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < rows; c++) {
        const n = at(counts, r, c);
        const want = n > 0 ? Math.max(0, Math.log((n * z) / (rowSum[r] * rowSum[c] ** 0.75))) : 0;
        expect(at(m, r, c)).toBeCloseTo(want, 5);
      }
    }
    const top1 = ppmi(counts, { alpha: 0.75, maxPerRow: 1 });
    for (let r = 0; r < rows; r++) {
      const kept = top1.rowPtr[r + 1] - top1.rowPtr[r];
      expect(kept).toBeLessThanOrEqual(1);
      if (kept) {
        let best = 0;
        for (let c = 0; c < rows; c++) best = Math.max(best, at(m, r, c));
        expect(top1.values[top1.rowPtr[r]]).toBe(Math.fround(best));
      }
    }
  });
});

describe('SVD', () => {
  it('symmetricEigen finds the eigen-pairs of a rotated diagonal matrix', () => {
    const c = Math.cos(0.3), s = Math.sin(0.3);
    const r = [[c, -s, 0], [s, c, 0], [0, 0, 1]];
    const d = [5, 2, -1];
    const a = new Float64Array(9);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) a[i * 3 + j] += r[i][k] * d[k] * r[j][k];
    const { values, vectors } = symmetricEigen(a, 3);
    expect(Array.from(values).map((v) => Number(v.toFixed(10)))).toEqual([5, 2, -1]);
    const v0 = [vectors[0], vectors[3], vectors[6]];
    expect(Math.abs(v0[0] * c + v0[1] * s)).toBeCloseTo(1, 10);
  });

  it('randomizedSvd recovers the singular values of a low-rank sparse matrix', () => {
    // M = 3·u1v1ᵀ + 1·u2v2ᵀ over 40 × 30, made sparse by zeroing half the entries of u and v.
    const rows = 40, cols = 30;
    const rnd = uniformSigned(5);
    const vec = (n: number) => {
      const v = Float64Array.from({ length: n }, (_, i) => (i % 2 ? 0 : rnd()));
      const norm = Math.hypot(...v);
      return v.map((x) => x / norm);
    };
    const u1 = vec(rows), v1 = vec(cols);
    const u2raw = vec(rows);
    const dot = u2raw.reduce((s, x, i) => s + x * u1[i], 0);
    const u2o = u2raw.map((x, i) => x - dot * u1[i]);
    const u2 = u2o.map((x) => x / Math.hypot(...u2o));
    const v2raw = vec(cols);
    const dv = v2raw.reduce((s, x, i) => s + x * v1[i], 0);
    const v2o = v2raw.map((x, i) => x - dv * v1[i]);
    const v2 = v2o.map((x) => x / Math.hypot(...v2o));
    const rowPtr = new Int32Array(rows + 1);
    const colIdx: number[] = [];
    const values: number[] = [];
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        const x = 3 * u1[i] * v1[j] + u2[i] * v2[j];
        if (x !== 0) {
          colIdx.push(j);
          values.push(x);
        }
      }
      rowPtr[i + 1] = colIdx.length;
    }
    const m: Csr = { rows, cols, rowPtr, colIdx: Int32Array.from(colIdx), values: Float32Array.from(values) };
    const svd = randomizedSvd(m, { rank: 4, oversample: 4, powerIterations: 1, seed: 1 });
    expect(svd.s[0]).toBeCloseTo(3, 5);
    expect(svd.s[1]).toBeCloseTo(1, 5);
    expect(svd.s[2]).toBeLessThan(1e-5);
    let align = 0;
    for (let i = 0; i < rows; i++) align += svd.u[i * svd.rank] * u1[i];
    expect(Math.abs(align)).toBeCloseTo(1, 5);
  });
});

describe('SVD: both orthonormalizations', () => {
  it('the Cholesky path and the Gram–Schmidt path find the same singular values on a full-rank matrix', () => {
    const corpus = buildTokenCorpus(sampleCorpus().texts, new ModelTokenizer(), { minCount: 2, maxVocab: 2000 });
    const m = ppmi(cooccurrence(corpus, 5), { alpha: 0.75, maxPerRow: 0 });
    const fast = randomizedSvd(m, { rank: 24, oversample: 8, powerIterations: 1, seed: 3 });
    const robust = randomizedSvd(m, { rank: 24, oversample: 8, powerIterations: 1, seed: 3, orthonormalization: 'gram-schmidt' });
    for (let j = 0; j < 24; j++) expect(Math.abs(fast.s[j] - robust.s[j])).toBeLessThan(1e-9 * fast.s[0]);
    // The same subspace: |u_fast · u_robust| = 1 for the leading, well-separated vectors.
    for (let j = 0; j < 3; j++) {
      let d = 0;
      for (let r = 0; r < m.rows; r++) d += fast.u[r * 24 + j] * robust.u[r * 24 + j];
      expect(Math.abs(d)).toBeCloseTo(1, 6);
    }
  });
});

describe('training', () => {
  const corpus = sampleCorpus();

  it('the index build\'s path (vectors batch by batch, scale from a strided sample kept row by row) gives the same model and vectors', () => {
    const whole = trainLearnedModel(corpus.texts, { dims: 24 });
    const c = buildTokenCorpus(corpus.texts, new ModelTokenizer(), { minCount: whole.model.header.params.minCount, maxVocab: whole.model.header.params.maxVocab });
    // The builder's id sequence crossed its first blocks: exactly the kept tokens plus every chunk's end.
    expect(c.seq.length).toBeGreaterThan(1 << 14);
    expect(c.seq.length).toBe(c.counts.reduce((a, b) => a + b, 0) + c.chunks + 1);
    const t = trainModelFromCorpus(c, { dims: 24 });
    expect(t.model.fingerprint).toBe(whole.model.fingerprint);
    const out = new Float32Array(t.rows.count * 24);
    for (let s = 0; s < t.rows.count; s += 7) {
      const e = Math.min(t.rows.count, s + 7);
      const b = new Float32Array((e - s) * 24).fill(NaN);
      t.rows.fill(s, e, b);
      out.set(b, s * 24);
    }
    expect(Buffer.from(out.buffer).equals(Buffer.from(whole.vectors.buffer))).toBe(true);
    expect(t.model.header.vectorScale).toBe(fitInt8Scale(whole.vectors));
    // The sampler over pieces is fitInt8Scale over the whole, for any piece size and sample.
    const data = Float32Array.from({ length: 10_007 }, (_, i) => Math.sin(i * 0.37) * (1 + (i % 13)));
    for (const [piece, sample] of [[24, 200_000], [7, 500], [1, 1000], [10_007, 3]]) {
      const fit = int8ScaleSampler(data.length, { sample });
      for (let at = 0; at < data.length; at += piece) fit.add(data.subarray(at, Math.min(data.length, at + piece)), at);
      expect(fit.scale()).toBe(fitInt8Scale(data, { sample }));
    }
  });

  it('is deterministic, embed() reproduces the training vectors, and the bytes round-trip', () => {
    const a = trainLearnedModel(corpus.texts, { dims: 32 });
    const b = trainLearnedModel(corpus.texts, { dims: 32 });
    expect(Buffer.from(a.model.toBytes()).equals(Buffer.from(b.model.toBytes()))).toBe(true);
    expect(a.model.fingerprint).toBe(b.model.fingerprint);
    expect(a.report.vocab).toBeGreaterThan(300);
    const again = a.model.embed(corpus.texts).vectors;
    expect(Buffer.from(again.buffer).equals(Buffer.from(a.vectors.buffer))).toBe(true);
    const loaded = LearnedModel.fromBytes(a.model.toBytes());
    expect(loaded.fingerprint).toBe(a.model.fingerprint);
    expect(loaded.vocab).toEqual(a.model.vocab);
    const q = ['shopping cart quantity', 'an unseen zzqx word and order totals'];
    expect(Buffer.from(loaded.embed(q).vectors.buffer).equals(Buffer.from(a.model.embed(q).vectors.buffer))).toBe(true);
    // Unit length, or zero for a text with no known token.
    const v = a.model.embed(['order discount', 'zzqx qqzy']).vectors;
    expect(Math.hypot(...v.subarray(0, 32))).toBeCloseTo(1, 5);
    expect(Array.from(v.subarray(32)).every((x) => x === 0)).toBe(true);
    expect(a.report.phases).toHaveProperty('svd');
  });

  it('puts a question near the code that answers it', async () => {
    const { model, vectors } = trainLearnedModel(corpus.texts);
    const idx = await KnnIndex.create({ dims: model.dims, quantization: 'f32', data: vectors, ids: corpus.texts.map((_, i) => i) });
    const nearest = (q: string) => idx.search(model.embed([q]).vectors, { k: 5 }).map((h) => corpus.paths[h.id]);
    expect(nearest('shopping cart items quantity').some((p) => /ShoppingCart|Cart/.test(p))).toBe(true);
    expect(nearest('payment gateway charge').some((p) => /Payment/.test(p))).toBe(true);
  });

  it('says when new chunks drift away from the vocabulary', () => {
    const { model } = trainLearnedModel(corpus.texts, { dims: 16 });
    const known = model.coverage(corpus.texts.slice(0, 20));
    expect(model.drift(known).retrain).toBe(false);
    const unknown = model.coverage(Array.from({ length: 50 }, (_, i) => `zq${i}x alpha${i}beta quantumflux${i} nebula${i}drive`.repeat(30)));
    const verdict = model.drift(unknown);
    expect(verdict.retrain).toBe(true);
    expect(verdict.reason).toMatch(/unknown to the model/);
    expect(verdict.oovRate).toBeGreaterThan(0.9);
    const grown = model.drift({ texts: corpus.texts.length * 2, tokens: 10, oov: 0 });
    expect(grown.retrain).toBe(true);
    expect(grown.reason).toMatch(/more than the/);
  });

  it('rejects bytes that are not a model', () => {
    const { model } = trainLearnedModel(corpus.texts.slice(0, 30), { dims: 8 });
    const bytes = model.toBytes();
    expect(() => LearnedModel.fromBytes(bytes.subarray(0, bytes.length - 1))).toThrow(/section sizes/);
    const bad = bytes.slice();
    bad[0] = 0;
    expect(() => LearnedModel.fromBytes(bad)).toThrow(/magic/);
    expect(() => trainLearnedModel(['x'], { dims: 0 })).toThrow(/dims/);
    expect(() => trainLearnedModel(corpus.texts.slice(0, 5), { eigPower: 0.3 })).toThrow(/eigPower/);
  });

  it('a query table (format 2) embeds queries, chunks keep the main table, and the bytes round-trip; format 1 bytes stay as they were', () => {
    const { model } = trainLearnedModel(corpus.texts, { dims: 16 });
    const one = model.toBytes();
    expect(model.header.format).toBe(1);
    expect(new TextDecoder().decode(one.subarray(12, 12 + 200))).not.toContain('"query"');
    // Another model's rows as the query table (same vocabulary): the second seed's.
    const other = trainLearnedModel(corpus.texts, { dims: 16, seed: 99 }).model;
    expect(other.vocab).toEqual(model.vocab);
    const two = model.withQueryTable({ rowScale: other.rowScale, vectors: other.vectors });
    expect(two.header).toMatchObject({ format: 2, query: 'table' });
    expect(two.fingerprint).not.toBe(model.fingerprint);
    const texts = ['shopping cart quantity', 'order discount total', 'zzqx qqzy'];
    const bits = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    // Chunks: the main table, bit for bit; queries: the query table over the shared weights and common component.
    expect(bits(two.embed(texts).vectors).equals(bits(model.embed(texts).vectors))).toBe(true);
    expect(bits(model.embedQueries(texts).vectors).equals(bits(model.embed(texts).vectors))).toBe(true);
    const q = two.embedQueries(texts).vectors;
    expect(bits(q).equals(bits(two.embed(texts).vectors))).toBe(false);
    const direct = new LearnedModel({ ...model.header }, model.vocab, model.weights, other.rowScale, model.common, other.vectors);
    expect(bits(q).equals(bits(direct.embed(texts).vectors))).toBe(true);
    expect(Array.from(q.subarray(32)).every((x) => x === 0)).toBe(true);
    const bytes = two.toBytes();
    // The query section: a scale per token and V × 16 int8 rows after the main table (16-dim rows keep it aligned).
    const head = (b: Uint8Array) => (new DataView(b.buffer, b.byteOffset).getUint32(8, true) + 3) & ~3;
    expect(bytes.length - head(bytes)).toBe(one.length - head(one) + model.vocab.length * (4 + 16));
    const loaded = LearnedModel.fromBytes(bytes);
    expect(loaded.fingerprint).toBe(two.fingerprint);
    expect(loaded.header).toMatchObject({ format: 2, query: 'table' });
    expect(bits(loaded.embedQueries(texts).vectors).equals(bits(q))).toBe(true);
    expect(bits(loaded.embed(texts).vectors).equals(bits(model.embed(texts).vectors))).toBe(true);
    // Dropping the table gives the format 1 bytes back.
    expect(Buffer.from(loaded.withQueryTable(null).toBytes()).equals(Buffer.from(one))).toBe(true);
    // A truncated query table, or a format 2 header without one, is refused.
    expect(() => LearnedModel.fromBytes(bytes.subarray(0, bytes.length - 1))).toThrow(/section sizes/);
    expect(() => new LearnedModel({ ...model.header, format: 2, query: 'table' }, model.vocab, model.weights, model.rowScale, model.common, model.vectors)).toThrow(/query table/);
    expect(() => model.withQueryTable({ rowScale: other.rowScale, vectors: other.vectors.subarray(1) })).toThrow(/query table/);
  });

  it('a query table of the last columns only (queryFrom): query rows are the main table\'s first columns beside it, requantized; the bytes round-trip', () => {
    const { model } = trainLearnedModel(corpus.texts, { dims: 16 });
    const other = trainLearnedModel(corpus.texts, { dims: 16, seed: 99 }).model;
    const V = model.vocab.length;
    // Columns 10 … 15 of the other model's rows, at their size (quantizeRows does not normalise).
    const part = new Float64Array(V * 6);
    for (let w = 0; w < V; w++) for (let j = 0; j < 6; j++) part[w * 6 + j] = 0.5 * other.vectors[w * 16 + 10 + j] * other.rowScale[w];
    const q = quantizeRows(part, V, 6);
    const two = model.withQueryTable({ ...q, from: 10 });
    expect(two.header).toMatchObject({ format: 2, query: 'table', queryFrom: 10 });
    const bytes = two.toBytes();
    const head = (b: Uint8Array) => (new DataView(b.buffer, b.byteOffset).getUint32(8, true) + 3) & ~3;
    const one = model.toBytes();
    // After the main table (16-dim rows keep it aligned): a scale per token and V × 6 int8.
    expect(bytes.length - head(bytes)).toBe(one.length - head(one) + V * (4 + 6));
    const loaded = LearnedModel.fromBytes(bytes);
    expect(loaded.fingerprint).toBe(two.fingerprint);
    expect(Buffer.from(loaded.toBytes()).equals(Buffer.from(bytes))).toBe(true);
    // A query row: the main row's columns 0 … 9 and the part's, within one int8 step of each at the joint scale.
    const side = loaded.querySide!;
    const t = model.idOf('order')!;
    for (let j = 0; j < 16; j++) {
      const want = j < 10 ? model.vectors[t * 16 + j] * model.rowScale[t] : q.vectors[t * 6 + j - 10] * q.rowScale[t];
      expect(Math.abs(side.vectors[t * 16 + j] * side.rowScale[t] - want)).toBeLessThanOrEqual(side.rowScale[t] * 0.5 + 1e-7);
    }
    const texts = ['shopping cart quantity', 'order discount total'];
    const bits = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
    expect(bits(loaded.embed(texts).vectors).equals(bits(model.embed(texts).vectors))).toBe(true);
    expect(bits(loaded.embedQueries(texts).vectors).equals(bits(two.embedQueries(texts).vectors))).toBe(true);
    expect(bits(loaded.embedQueries(texts).vectors).equals(bits(model.embed(texts).vectors))).toBe(false);
    expect(() => model.withQueryTable({ ...q, from: 9 })).toThrow(/query table/);
    expect(() => model.withQueryTable({ ...q, from: 16 })).toThrow(/query table/);
  });
});

describe('LearnedProvider', () => {
  it('answers a structured error until trained, then embeds with a key that names the model', async () => {
    const p = new LearnedProvider({ dims: 16 });
    expect(p.key).toEqual({ provider: 'learned', model: 'ppmi-svd-sif-1@untrained', dims: 16, quantization: 'int8' });
    const before = await p.embed(['order']);
    expect(before.ok).toBe(false);
    if (!before.ok) expect(before.error).toMatchObject({ code: 'provider_not_trained', retryable: false });
    const { texts } = sampleCorpus();
    p.train(texts);
    expect(p.key.model).toMatch(/^ppmi-svd-sif-1@[0-9a-f]{16}$/);
    const r = await p.embed(['order total', 'cart'], { onProgress: () => {} });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.vectors.length).toBe(32);
    const loaded = LearnedProvider.fromBytes(p.model!.toBytes());
    expect(loaded.key).toEqual(p.key);
    const ctl = new AbortController();
    ctl.abort();
    const aborted = await loaded.embed(['x'], { signal: ctl.signal });
    expect(aborted.ok).toBe(false);
  });
});
