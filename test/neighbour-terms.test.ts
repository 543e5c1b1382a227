// Query expansion through the shipped code model's neighbours (setting neighbour_terms;
// core/search/neighbour-terms.ts, core/vector/neighbours.ts): the model's nearest tokens by cosine,
// a question's neighbour terms joining the keyword channel's any-term pass at a low weight (a file
// holding only a neighbour of a query word enters after the files the words found, and explain says
// which neighbour it matched), never an identifier query, and nothing at all with the setting off.
// Real parts: the shipped models/code-model.bin, a workspace in a temp folder, the WASM SQLite.
// @lane unit
import * as fs from 'node:fs';
import { describe, it, expect } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import { codeModelPath } from '../runtimes/node/code-model.ts';
import { LearnedModel } from '../core/vector/learned/model.ts';
import { TokenNeighbours } from '../core/vector/neighbours.ts';
import { withTmpWorkspace } from './helpers/tmp-workspace.ts';

const model = LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(codeModelPath())));

describe('TokenNeighbours (the shipped code model)', () => {
  const nb = new TokenNeighbours(model);

  it('lists a token\'s nearest tokens by cosine, best first, above the floor, never the token itself', () => {
    const out = nb.nearest('persisted', 4, 0.3);
    expect(out.length).toBe(4);
    expect(out.map((n) => n.token)).not.toContain('persisted');
    for (let i = 1; i < out.length; i++) expect(out[i - 1].cosine).toBeGreaterThanOrEqual(out[i].cosine);
    expect(out.every((n) => n.cosine >= 0.3 && n.cosine <= 1)).toBe(true);
    // Each is the cosine of the two int8 rows, recomputed here.
    const row = (t: string) => Array.from(model.vectors.subarray(model.idOf(t)! * model.dims, (model.idOf(t)! + 1) * model.dims));
    const cos = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0) / Math.hypot(...a) / Math.hypot(...b);
    for (const n of out) expect(n.cosine).toBeCloseTo(cos(row('persisted'), row(n.token)), 3);
    // No token outside the list is nearer than its last (checked over the whole vocabulary).
    const last = out[out.length - 1].cosine;
    const q = row('persisted');
    const nearer = model.vocab.filter((t) => t !== 'persisted' && !out.some((n) => n.token === t) && cos(q, row(t)) > last + 1e-6);
    expect(nearer).toEqual([]);
  });

  it('gives nothing for a token the model does not know, and honours the floor', () => {
    expect(nb.nearest('qqxqqzzy', 3, 0)).toEqual([]);
    const floor = nb.nearest('persisted', 16, 0)[2].cosine;
    expect(nb.nearest('persisted', 16, floor).every((n) => n.cosine >= floor)).toBe(true);
    expect(nb.nearest('persisted', 16, floor).length).toBeLessThanOrEqual(3 + 1);
  });
});

const FILES = {
  // The query's words, in files that do not answer it.
  'src/Basket/BasketView.cs': 'namespace Shop;\n\n/// The basket as the page shows it.\npublic class BasketView\n{\n    public int BasketCount { get; set; }\n}\n',
  'src/Basket/BasketLine.cs': 'namespace Shop;\n\n/// One line of the basket.\npublic class BasketLine\n{\n    public string Sku { get; set; } = "";\n}\n',
  // Holds a neighbour of "persisted" ("saved") and none of the query's words.
  'src/Storage/SnapshotStore.cs': 'namespace Shop;\n\n/// Keeps the last snapshot so it can be saved and read back after a restart.\npublic class SnapshotStore\n{\n    public void Write(string json) { LastSaved = json; }\n    public string LastSaved { get; private set; } = "";\n}\n',
  'README.md': '# Shop\n\nA small shop.\n',
};

const QUESTION = 'where is the basket persisted';

async function searchBoth(root: string, settings: Record<string, unknown>, query: string) {
  const ws = await openWorkspace(root, { settings: settings as never });
  try {
    await ws.index({ full: true });
    const res = await ws.search({ query, limit: 20 });
    if (res.status !== 'ok') throw new Error(JSON.stringify(res));
    const store = res.hits.find((h) => h.path === 'src/Storage/SnapshotStore.cs');
    const explained = store ? await ws.explain(store.hit_id, { query }) : null;
    return { paths: res.hits.map((h) => h.path), store, explained };
  } finally {
    ws.close();
  }
}

describe('neighbour_terms: a question expanded through the model\'s neighbours', () => {
  it('off (the default): a file holding only a neighbour of a query word is not a hit', async () => {
    await withTmpWorkspace(FILES, async (w) => {
      const { paths, store } = await searchBoth(w.root, {}, QUESTION);
      expect(paths).toContain('src/Basket/BasketView.cs');
      expect(store).toBeUndefined();
    });
  });

  it('on: that file enters after the files the words found, and explain names the neighbour it matched', async () => {
    await withTmpWorkspace(FILES, async (w) => {
      // "saved" is persisted's third neighbour in the shipped model (recovered, persist, saved: cosines 0.52).
      const { paths, store, explained } = await searchBoth(w.root, { neighbour_terms: 3, neighbour_floor: 0.5 }, QUESTION);
      expect(store).toBeDefined();
      // Low weight: after every file that holds a query word.
      expect(paths.indexOf('src/Storage/SnapshotStore.cs')).toBeGreaterThan(paths.indexOf('src/Basket/BasketLine.cs'));
      expect(paths.indexOf('src/Storage/SnapshotStore.cs')).toBeGreaterThan(paths.indexOf('src/Basket/BasketView.cs'));
      if (explained?.status !== 'ok') throw new Error(JSON.stringify(explained));
      const e = explained.explanation!;
      expect(e.fts?.neighbours).toContain('saved←persisted');
      expect(e.fts?.neighbour_bm25).toBeLessThan(0);
      // The query's expansion, whatever the hit: the model's neighbours of each word.
      expect(e.neighbour_terms?.some((t) => t.startsWith('saved←persisted'))).toBe(true);
    });
  });

  it('an identifier query is never expanded: the same hits as with the setting off', async () => {
    await withTmpWorkspace(FILES, async (w) => {
      const off = await searchBoth(w.root, {}, 'BasketView persisted');
      const on = await searchBoth(w.root, { neighbour_terms: 4, neighbour_floor: 0.3 }, 'BasketView persisted');
      expect(on.paths).toEqual(off.paths);
      expect(on.paths).not.toContain('src/Storage/SnapshotStore.cs');
    });
  });
});
