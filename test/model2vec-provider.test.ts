// The `model2vec` provider over tiny models that scripts/make-model2vec-fixture.mjs writes in exactly
// model2vec's layout (tokenizer.json, model.safetensors, config.json, modules.json): vectors equal
// model2vec's algorithm computed independently in the script (ids without special tokens or [UNK],
// mean of the rows times their weights, unit length) for the plain layout and for the newer one
// (F16 tensors, per-token weights, a vocabulary mapping); max_tokens cuts; a Unigram tokenizer
// segments by highest score; a broken folder is a structured provider_config; a workspace indexed
// with it embeds every chunk, answers semantic and hybrid searches and re-embeds an edited file.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
// @ts-expect-error: a plain .mjs script without types
import { writeFixture, referenceEmbedding, DIMS } from '../scripts/make-model2vec-fixture.mjs';
import { openWorkspace } from '../runtimes/node/index.ts';
import { nodeVectorHost } from '../runtimes/node/vector-host.ts';
import { Model2VecModel } from '../core/vector/static/model2vec.ts';
import { createModel2VecProvider } from '../core/vector/static/provider.ts';
import { StaticTokenizer } from '../core/vector/static/hf-tokenizer.ts';
import { Safetensors, writeSafetensors, halfToFloat, bf16ToFloat } from '../core/vector/static/safetensors.ts';
import { REPO } from './helpers/browser.ts';

const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

function fixture(opts: { dtype?: 'F32' | 'F16'; weights?: boolean; mapping?: boolean } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-m2v-'));
  tmp.push(dir);
  return writeFixture(path.join(dir, 'tiny-static'), opts) as string;
}

function load(dir: string, maxTokens = 512): Model2VecModel {
  return Model2VecModel.fromFiles({
    tokenizer: fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8'),
    safetensors: new Uint8Array(fs.readFileSync(path.join(dir, 'model.safetensors'))),
    config: fs.readFileSync(path.join(dir, 'config.json'), 'utf8'),
  }, maxTokens);
}

const TEXTS = [
  'apply the discount to the order total',
  'public decimal GetPrice(Item item) => item.Amount;',
  'Where is the catalog service?',
  'café orders: how pricing rules are applied',
  'zzz qqq', // no whole word: single characters and their ## continuations
  '',
];

describe('model2vec layout', () => {
  for (const opts of [{}, { dtype: 'F16' as const, weights: true, mapping: true }]) {
    it(`embeds as model2vec does (${JSON.stringify(opts)})`, () => {
      const dir = fixture(opts);
      const m = load(dir);
      expect(m.dims).toBe(DIMS);
      const got = m.embed(TEXTS);
      TEXTS.forEach((t, i) => {
        const want = referenceEmbedding(t, opts) as number[];
        for (let k = 0; k < DIMS; k++) expect(got[i * DIMS + k]).toBeCloseTo(want[k], 6);
      });
      // An empty text has no tokens: a zero row (the channel skips it).
      expect([...got.subarray(5 * DIMS, 6 * DIMS)].every((v) => v === 0)).toBe(true);
      expect(Math.hypot(...got.subarray(0, DIMS))).toBeCloseTo(1, 6);
    });
  }

  it('max_tokens keeps the first tokens only', () => {
    const dir = fixture();
    const short = load(dir, 3);
    const full = load(dir);
    const long = 'apply the discount to the order total';
    // model2vec cuts the text to max_tokens × the median token length in characters, then the ids to max_tokens.
    const cut = long.slice(0, 3 * short.medianTokenLength);
    expect(short.ids(long)).toEqual(full.ids(cut).slice(0, 3));
    expect(short.ids(long).length).toBeLessThanOrEqual(3);
    expect([...short.embed([long])]).toEqual([...full.embed([cut.split(' ').slice(0, short.ids(long).length).join(' ')])]);
  });

  it('reads the sentence-transformers layout (0_StaticEmbedding/ with embedding.weight)', async () => {
    const dir = fixture();
    const st = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-m2v-st-'));
    tmp.push(st);
    fs.mkdirSync(path.join(st, '0_StaticEmbedding'));
    fs.copyFileSync(path.join(dir, 'tokenizer.json'), path.join(st, '0_StaticEmbedding/tokenizer.json'));
    const src = new Safetensors(new Uint8Array(fs.readFileSync(path.join(dir, 'model.safetensors'))));
    const e = src.floats('embeddings');
    fs.writeFileSync(path.join(st, '0_StaticEmbedding/model.safetensors'), writeSafetensors({ 'embedding.weight': { dtype: 'F32', shape: e.shape, data: e.values } }));
    const p = await createModel2VecProvider({ model_dir: st, max_tokens: 512, quantization: 'int8' }, nodeVectorHost.files, '/');
    expect('code' in p).toBe(false);
    if ('code' in p) return;
    expect([...p.embedSync(TEXTS.slice(0, 3))]).toEqual([...load(dir).embed(TEXTS.slice(0, 3))]);
  });

  it('a folder it cannot use is provider_config naming the file and why', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-m2v-empty-'));
    tmp.push(empty);
    const p = await createModel2VecProvider({ model_dir: empty, max_tokens: 512, quantization: 'int8' }, nodeVectorHost.files, '/');
    expect(p).toMatchObject({ code: 'provider_config', message: expect.stringContaining('model.safetensors'), hint: expect.stringContaining('model2vec layout') });
    const dir = fixture();
    fs.writeFileSync(path.join(dir, 'model.safetensors'), new Uint8Array([1, 2, 3]));
    expect(await createModel2VecProvider({ model_dir: dir, max_tokens: 512, quantization: 'int8' }, nodeVectorHost.files, '/')).toMatchObject({ code: 'provider_config', message: expect.stringContaining('not a safetensors file') });
    const bpe = fixture();
    const tj = JSON.parse(fs.readFileSync(path.join(bpe, 'tokenizer.json'), 'utf8'));
    tj.model.type = 'BPE';
    fs.writeFileSync(path.join(bpe, 'tokenizer.json'), JSON.stringify(tj));
    expect(await createModel2VecProvider({ model_dir: bpe, max_tokens: 512, quantization: 'int8' }, nodeVectorHost.files, '/')).toMatchObject({ code: 'provider_config', message: expect.stringContaining('BPE model') });
  });

  it('safetensors: half floats exactly, and a header past the end is refused', () => {
    for (const [bits, v] of [[0x0000, 0], [0x3c00, 1], [0xc100, -2.5], [0x7bff, 65504], [0x0001, 2 ** -24], [0x0400, 2 ** -14], [0x3555, 0.333251953125]]) expect(halfToFloat(bits)).toBe(v);
    expect(bf16ToFloat(0x3f80)).toBe(1);
    expect(bf16ToFloat(0xc020)).toBe(-2.5);
    const bad = new Uint8Array(16);
    new DataView(bad.buffer).setBigUint64(0, 1000n, true);
    expect(() => new Safetensors(bad)).toThrow(/runs past the end/);
  });

  it('a Unigram tokenizer (Metaspace) takes the segmentation of highest total score', () => {
    const tok = new StaticTokenizer({
      normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }] },
      pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'always', split: true },
      model: { type: 'Unigram', unk_id: 0, vocab: [['<unk>', 0], ['▁', -2], ['▁dis', -4], ['count', -4], ['▁discount', -5], ['▁order', -3], ['s', -2], ['▁', -9], ['o', -6], ['r', -6], ['d', -6], ['e', -6]] },
    });
    // "▁discount" whole (−5) beats "▁dis" + "count" (−8); "▁orders" = "▁order" + "s"; "x" is unknown.
    expect(tok.encode('Discount orders')).toEqual([4, 5, 6]);
    expect(tok.encode('x')).toEqual([1, 0]);
  });
});

describe('model2vec provider in a workspace', () => {
  it('embeds every chunk, answers semantic and hybrid searches, and re-embeds an edited file', async () => {
    const dir = fixture({ weights: true });
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-m2v-ws-'));
    tmp.push(root);
    fs.cpSync(path.join(REPO, 'test/sample-workspace/src/Contoso.Shop.Application'), path.join(root, 'src'), { recursive: true });
    fs.cpSync(dir, path.join(root, 'models/tiny'), { recursive: true });
    fs.mkdirSync(path.join(root, '.hci'));
    fs.writeFileSync(path.join(root, '.hci/settings.toml'), '[semantic]\nenabled = true\nprovider = "model2vec"\n[semantic.model2vec]\nmodel_dir = "models/tiny"\n');
    const w = await openWorkspace(root);
    try {
      const s = await w.index();
      expect(s.vectors).toMatchObject({ provider: 'model2vec', error: null });
      expect(s.vectors!.with_vectors).toBe(s.vectors!.chunks);
      expect(s.vectors!.model).toMatch(/^model2vec\/tiny@[0-9a-f]{16}\/8\/int8$/);
      const sem = await w.search({ query: 'apply the discount to the order', mode: 'semantic' });
      expect(sem.status).toBe('ok');
      expect(sem.hits.length).toBeGreaterThan(0);
      expect(sem.hits.every((h) => h.vec_score !== undefined)).toBe(true);
      const hy = await w.search({ query: 'apply the discount to the order', mode: 'hybrid' });
      expect(hy.status).toBe('ok');
      // A file edit re-embeds its chunks inline (no vector phase backfill needed).
      const file = fs.readdirSync(path.join(root, 'src'), { recursive: true }).map(String).find((f) => f.endsWith('.cs'))!;
      fs.appendFileSync(path.join(root, 'src', file), '\n// discount rules for the order total\n');
      const again = await w.index();
      expect(again.vectors).toMatchObject({ error: null });
      expect(again.vectors!.with_vectors).toBe(again.vectors!.chunks);
      expect(again.vectors!.embedded).toBeGreaterThan(0);
    } finally {
      w.close();
    }
  });
});
