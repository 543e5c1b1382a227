// The discriminative token table (bench/model/dual.ts): on pairs whose doc words and code tokens
// are tied concept by concept but start from unrelated rows, in-batch InfoNCE training brings each
// held-out doc to its own code (held-out MRR far above the start), a rerun gives the same bits, the
// model it writes embeds like any learned model, and the experiment command refuses a forbidden
// repository before it reads anything.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LearnedModel, DEFAULT_LEARNED_PARAMS } from '../core/vector/learned/model.ts';
import { DEFAULT_DUAL, heldOutMrr, loadPairs, modelWithTable, savePairs, trainDual, usableRepos, type DualPairs } from '../bench/model/dual.ts';
import { unitRows } from '../bench/model/xal.ts';
import { mulberry32 } from '../core/vector/learned/numeric.ts';

const unit = (seed: number) => {
  const next = mulberry32(seed);
  return () => next() / 4294967296;
};

const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

const D = 16;
const K = 24; // concepts: doc word doc<letter k> ↔ code token code<letter k>
const doc = (k: number) => `doc${String.fromCharCode(97 + k)}`;
const code = (k: number) => `code${String.fromCharCode(97 + k)}`;

/** A model over 2K tokens with random unit rows (no relation between a concept's doc word and code token). */
function randomModel(): LearnedModel {
  const vocab = [...Array.from({ length: K }, (_, k) => doc(k)), ...Array.from({ length: K }, (_, k) => code(k))];
  const rnd = unit(7);
  const vectors = new Int8Array(vocab.length * D);
  for (let i = 0; i < vectors.length; i++) vectors[i] = Math.round((rnd() * 2 - 1) * 127);
  const rowScale = new Float32Array(vocab.length).fill(1 / 127);
  const header = { format: 1 as const, dims: D, vocabSize: vocab.length, params: { ...DEFAULT_LEARNED_PARAMS, dims: D }, trained: { chunks: 1, tokens: 1, oovRate: 0 }, vectorScale: 1 / 127 };
  return new LearnedModel(header, vocab, new Float32Array(vocab.length).fill(1), rowScale, new Float32Array(D), vectors);
}

/** Pairs: three concepts each, doc side their words, code side their tokens; one repository; every 5th held out. */
function pairs(): DualPairs {
  const rnd = unit(11);
  const q = { ids: [] as number[], f: [] as number[], start: [0] };
  const c = { ids: [] as number[], f: [] as number[], start: [0] };
  const held: number[] = [];
  const n = 600;
  for (let i = 0; i < n; i++) {
    const ks = new Set<number>();
    while (ks.size < 3) ks.add(Math.floor(rnd() * K));
    for (const k of ks) {
      q.ids.push(k);
      q.f.push(1 / 3);
      c.ids.push(K + k);
      c.f.push(1 / 3);
    }
    q.start.push(q.ids.length);
    c.start.push(c.ids.length);
    held.push(i % 5 === 0 ? 1 : 0);
  }
  const side = (s: typeof q) => ({ ids: Int32Array.from(s.ids), f: Float64Array.from(s.f), start: Int32Array.from(s.start) });
  return { q: side(q), c: side(c), repo: new Int32Array(n), held: Uint8Array.from(held), count: n, repos: ['test/one'] };
}

describe('the discriminative token table', () => {
  const model = randomModel();
  const p = pairs();
  const o = { ...DEFAULT_DUAL, epochs: 4, batch: 32, lr: 0.1 };

  it('brings held-out docs to their own code, and is deterministic', () => {
    const init = unitRows(model);
    const common = new Float64Array(D);
    const before = heldOutMrr(p, init, init, common, D);
    const a = trainDual(p, init, common, D, o);
    const b = trainDual(p, init, common, D, o);
    expect(a.epoch).toBeGreaterThan(0);
    expect(a.mrr[a.epoch]).toBeGreaterThan(before + 0.3);
    expect(Buffer.from(a.tq.buffer).equals(Buffer.from(b.tq.buffer))).toBe(true);
    // The written model embeds a doc nearer its own code than another concept's.
    const m = modelWithTable(model, a.tq, p, { dual: o });
    const back = LearnedModel.fromBytes(m.toBytes());
    const [query, own, other] = [back.embed([`${doc(1)} ${doc(2)} ${doc(3)}`]).vectors, back.embed([`${code(1)} ${code(2)} ${code(3)}`]).vectors, back.embed([`${code(7)} ${code(8)} ${code(9)}`]).vectors];
    const cos = (x: Float32Array, y: Float32Array) => x.reduce((s, v, j) => s + v * y[j], 0);
    expect(cos(query, own)).toBeGreaterThan(cos(query, other) + 0.2);
  });

  it('keeps pairs through its cache file bit for bit', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-dual-'));
    tmp.push(dir);
    savePairs(path.join(dir, 'p.bin'), p);
    const back = loadPairs(path.join(dir, 'p.bin'));
    expect(back.count).toBe(p.count);
    expect(Array.from(back.c.ids)).toEqual(Array.from(p.c.ids));
    expect(Array.from(back.q.f)).toEqual(Array.from(p.q.f));
    expect(Array.from(back.held)).toEqual(Array.from(p.held));
  });

  it('refuses a forbidden repository', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-dual-'));
    tmp.push(dir);
    const manifest = { forbidden: { dev_set: ['MudBlazor/MudBlazor'], tuning_reserve: [] }, recipe: {}, repos: [{ repo: 'MudBlazor/MudBlazor', commit: '0'.repeat(40), licence: 'MIT', licence_file: 'LICENSE', licence_sha256: '' }] };
    fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
    expect(() => usableRepos(path.join(dir, 'manifest.json'), dir, () => {})).toThrow(/never train on it \(the dev set\)/);
  });
});
