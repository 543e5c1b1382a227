// The hybrid fusion's blend by query type (core/search/fuse.ts: settings fusion_by_type and
// fusion_calibration): a query's fusion type (symbol, question — put as one —, stated — a
// description —, mixed) picks its own vector weight and guard. A paraphrase whose target the vector
// channel ranks first and keyword ranks fourth reaches the top three under the stated blend (guard 1),
// where the default guard (keyword's first three files in place) holds it at four; a question put as
// one and a commit-style query with an identifier keep the defaults; z-score calibration reads each
// channel's values as standard scores.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import { openWorkspace } from '../runtimes/node/index.ts';
import { fusionType, type HybridOptions } from '../core/search/fuse.ts';
import { fuseFixture } from './helpers/fusion-fixture.ts';
import { parseQuery } from '../core/search/query.ts';
import { sampleSources } from './helpers/tmp-workspace.ts';


const BASE: HybridOptions = { keywordWeight: 0.65, vectorWeight: 0.35, guard: 3, routing: true, minVectorScore: 0 };
const STATED: HybridOptions = { ...BASE, byType: { stated: { vectorWeight: 0.5, guard: 1 } } };

const fuse = fuseFixture;

const PARAPHRASE = 'let an async event handler hold up the caller until it signals that it has finished';

describe('hybrid fusion: blend by query type', () => {
  it('tells the fusion types apart', () => {
    expect(fusionType(parseQuery(PARAPHRASE))).toBe('stated');
    expect(fusionType(parseQuery('how does the async event handler wait for the caller'))).toBe('question');
    expect(fusionType(parseQuery('where is the deferral completed?'))).toBe('question');
    expect(fusionType(parseQuery('FADeferral: wait for the async handler before closing'))).toBe('mixed');
    expect(fusionType(parseQuery('FADeferral'))).toBe('symbol');
  });

  it('a paraphrase the vector channel ranks first and keyword fourth: held at four by the default guard, in the top three under the stated blend', () => {
    const before = fuse(PARAPHRASE, BASE);
    expect(before.order.indexOf(4)).toBe(3);
    expect(before.report.guard).toBe(3);
    expect(before.report.fusion_type).toBeUndefined();
    const after = fuse(PARAPHRASE, STATED);
    expect(after.order.indexOf(4)).toBeLessThan(3);
    // Keyword's first file keeps rank 1 (guard 1); the weights and guard the type chose are reported.
    expect(after.order[0]).toBe(1);
    expect(after.report).toMatchObject({ fusion_type: 'stated', guard: 1, weights: { keyword: 0.5, vector: 0.5 } });
  });

  it('a question put as one and a commit-style query keep the default blend under the stated one', () => {
    for (const q of ['how does the async event handler wait for the caller', 'FADeferral: wait for the async handler before closing']) {
      const base = fuse(q, BASE);
      const stated = fuse(q, STATED);
      expect(stated.order).toEqual(base.order);
      expect(stated.report).toMatchObject({ guard: 3, weights: { keyword: 0.65, vector: 0.35 } });
    }
  });

  it('z-score calibration: each channel\'s values are its scores over the list\'s standard deviation, from the list\'s lowest', () => {
    const o: HybridOptions = { ...BASE, guard: 0, calibration: 'zscore' };
    const z = fuse(PARAPHRASE, o);
    expect(z.report.calibration).toBe('zscore');
    const kw = [10, 9.5, 9, 8.8, 4, 1];
    const sd = (xs: number[]) => {
      const m = xs.reduce((a, x) => a + x, 0) / xs.length;
      return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / xs.length);
    };
    const by = new Map(z.ranked.map((c) => [c.fileId, c.fusion!]));
    expect(by.get(2)!.keyword).toBeCloseTo((9.5 - 1) / sd(kw), 12);
    expect(by.get(7)!.vector).toBeCloseTo((0.6 - 0.5) / sd([0.9, 0.6, 0.55, 0.5]), 12);
    expect(by.get(6)!.keyword).toBe(0);
    // Min-max (the default) gives the same candidates values in [0, 1] and reports no calibration.
    const mm = fuse(PARAPHRASE, { ...o, calibration: undefined });
    expect(mm.report.calibration).toBeUndefined();
    expect(new Map(mm.ranked.map((c) => [c.fileId, c.fusion!])).get(2)!.keyword).toBeCloseTo(8.5 / 9, 12);
  });
});

describe('fusion_by_type through a workspace (settings.toml, the shipped code model, explain)', () => {
  const tmp: string[] = [];
  afterAll(() => {
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a stated query is fused with its type\'s weight and guard, a question put as one with the defaults; keyword mode is unchanged', async () => {
    const semantic = '[semantic]\nenabled = true\nprovider = "pretrained"\nfusion_calibration = "zscore"\n';
    const root = sampleSources('hci-fuse-type-', `${semantic}\n[semantic.fusion_by_type.stated]\nvector_weight = 0.8\nguard = 0\n`);
    tmp.push(root);
    const w = await openWorkspace(root);
    try {
      await w.index();
      const stated = 'the discount taken off an order when the basket holds many items';
      const hy = await w.search({ query: stated, mode: 'hybrid', limit: 10 });
      expect(hy.status).toBe('ok');
      const e = await w.explain(hy.hits[0].hit_id, { query: stated, mode: 'hybrid' });
      expect(e.explanation!.fusion).toMatchObject({ route: 'hybrid', fusion_type: 'stated', calibration: 'zscore', guard: 0, weights: { keyword: expect.closeTo(0.2, 9), vector: 0.8 } });
      const asked = 'how is the discount taken off an order computed';
      const q = await w.search({ query: asked, mode: 'hybrid', limit: 10 });
      const eq = await w.explain(q.hits[0].hit_id, { query: asked, mode: 'hybrid' });
      expect(eq.explanation!.fusion).toMatchObject({ fusion_type: 'question', guard: 3, weights: { keyword: 0.65, vector: 0.35 } });
      // Keyword mode does not fuse: no fusion in its explanation.
      const kw = await w.search({ query: stated, limit: 10 });
      expect((await w.explain(kw.hits[0].hit_id, { query: stated })).explanation!.fusion).toBeUndefined();
    } finally {
      w.close();
    }
  });
});
