// The hybrid fusion's confidence gate (core/search/fuse.ts readGate, setting fusion_gate): the guard
// opens for one query only when the vector channel is sure (its first file leads its second by a
// large cosine gap) and keyword is not (its first file's score barely above its second's). A
// paraphrase the vector channel is sure about then enters the top three, where the default guard
// holds it at four; a query where keyword is confident, or the vector channel is not, keeps its
// order; `types` limits the gate to stated queries. Through a workspace: settings.toml selects it,
// explain shows what the gate read and the hit it lifted.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HybridOptions } from '../core/search/fuse.ts';
import { fuseFixture } from './helpers/fusion-fixture.ts';
import { sampleSources } from './helpers/tmp-workspace.ts';

const BASE: HybridOptions = { keywordWeight: 0.65, vectorWeight: 0.35, guard: 3, routing: true, minVectorScore: 0 };
const GATED: HybridOptions = { ...BASE, gate: { vectorGap: 0.1, keywordLead: 1.2, keywordAny: false, at: 3 } };

const fuse = fuseFixture;

const PARAPHRASE = 'let an async event handler hold up the caller until it signals that it has finished';

describe('hybrid fusion: the confidence gate', () => {
  it('a paraphrase the vector channel is sure about (cosine lead 0.3) and keyword is not (lead 1.05): in the top three, keyword\'s first two in place', () => {
    const before = fuse(PARAPHRASE, BASE);
    expect(before.order.indexOf(4)).toBe(3);
    expect(before.report.gate).toBeUndefined();
    const after = fuse(PARAPHRASE, GATED);
    expect(after.order.slice(0, 3)).toEqual([1, 2, 4]);
    expect(after.report.gate).toMatchObject({ opened: true, file: 'src/F4.cs', vector_gap: expect.closeTo(0.3, 9), keyword_lead: expect.closeTo(10 / 9.5, 9) });
    expect(after.ranked.find((c) => c.fileId === 4)!.fusion!.lifted).toBe(true);
    // Nothing is dropped: the same files, one moved.
    expect([...after.order].sort()).toEqual([...before.order].sort());
  });

  it('keyword confident (its first file at 2.1 times its second): the order stays as without the gate', () => {
    const kw = [20, 9.5, 9, 8.8, 4, 1];
    const after = fuse(PARAPHRASE, GATED, kw);
    expect(after.order).toEqual(fuse(PARAPHRASE, BASE, kw).order);
    expect(after.report.gate).toMatchObject({ opened: false, keyword_lead: expect.closeTo(20 / 9.5, 9) });
    expect(after.order.indexOf(4)).toBe(3);
  });

  it('the vector channel not sure (its first file 0.01 ahead): the order stays', () => {
    const vec = [0.61, 0.6, 0.55, 0.5];
    const after = fuse(PARAPHRASE, GATED, undefined, vec);
    expect(after.order).toEqual(fuse(PARAPHRASE, BASE, undefined, vec).order);
    expect(after.report.gate).toMatchObject({ opened: false });
  });

  it('keyword_any: a keyword answer where no chunk held every term counts as unsure; types limits the gate to stated queries', () => {
    const any: HybridOptions = { ...BASE, gate: { vectorGap: 0.1, keywordLead: 1.01, keywordAny: true, at: 3 } };
    const r = fuse(PARAPHRASE, any, undefined, undefined, 'any');
    expect(r.report.gate?.opened).toBe(true);
    // Lead 1.05 > 1.01 and match `all`: shut.
    expect(fuse(PARAPHRASE, any).report.gate?.opened).toBe(false);
    const stated: HybridOptions = { ...BASE, gate: { ...GATED.gate!, types: ['stated'] } };
    const asked = 'how does the async event handler hold up the caller until it has finished';
    expect(fuse(asked, stated).report.gate).toBeUndefined();
    expect(fuse(asked, stated).order).toEqual(fuse(asked, BASE).order);
    expect(fuse(PARAPHRASE, stated).report.gate?.opened).toBe(true);
  });
});

describe('fusion_gate through a workspace (settings.toml, the shipped code model, explain)', () => {
  const tmp: string[] = [];
  afterAll(() => {
    for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
  });

  it('the gate\'s reading is in explain; opened, the vector channel\'s first file leads the hybrid answer and is marked lifted', async () => {
    // A gate that opens whenever the vector channel's first file is not keyword's first (no keyword condition, at 1).
    const root = sampleSources('hci-fuse-gate-', '[semantic]\nenabled = true\nprovider = "pretrained"\n\n[semantic.fusion_gate]\nvector_gap = 0.000001\nkeyword_lead = 0\nat = 1\n');
    tmp.push(root);
    const w = await openWorkspace(root);
    try {
      await w.index();
      const stated = 'the discount taken off an order when the basket holds many items';
      const kw = await w.search({ query: stated, limit: 10 });
      const hy = await w.search({ query: stated, mode: 'hybrid', limit: 10 });
      expect(hy.status).toBe('ok');
      const e = await w.explain(hy.hits[0].hit_id, { query: stated, mode: 'hybrid' });
      const gate = e.explanation!.fusion!.gate!;
      // On this sample keyword's first file is the pricing engine and the vector channel's another: the gate opens.
      expect(gate).toMatchObject({ vector_gap: expect.any(Number), keyword_lead: expect.any(Number), opened: true });
      expect(gate.file).not.toBe(kw.hits[0].path);
      expect(hy.hits[0].path).toBe(gate.file);
      expect(e.explanation!.fusion!.lifted).toBe(true);
      // Without the setting: no reading.
      fs.writeFileSync(path.join(root, '.hci/settings.toml'), '[semantic]\nenabled = true\nprovider = "pretrained"\n');
    } finally {
      w.close();
    }
    const w2 = await openWorkspace(root);
    try {
      const stated = 'the discount taken off an order when the basket holds many items';
      const hy = await w2.search({ query: stated, mode: 'hybrid', limit: 10 });
      const e = await w2.explain(hy.hits[0].hit_id, { query: stated, mode: 'hybrid' });
      expect(e.explanation!.fusion!.gate).toBeUndefined();
    } finally {
      w2.close();
    }
  });
});
