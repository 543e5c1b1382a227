// Warming the search ahead of searches (the browser Worker's warm-up, runtimes/browser/warm-up.ts:
// warmUp when a workspace opens, warmStep in idle time, through the core's Searcher):
// first the search cache (SearchSession.warmFiles), a slice a step: it goes on where the last slice
// stopped and says when every file is in; then the index's most frequent symbol names typed key by key
// and the single letters, one search a step; a new index generation starts it over, and searches
// answer exactly as without it. Through a
// real workspace on disk and the real WASM SQLite.
// @lane unit
import { describe, it, expect, afterEach } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { warmStep, warmUp } from '../runtimes/browser/warm-up.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

describe('warm-up', () => {
  let ws: TmpWorkspace | undefined;
  const open: HciWorkspace[] = [];
  afterEach(async () => {
    for (const w of open.splice(0)) w.close();
    await ws?.cleanup();
    ws = undefined;
  });

  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) {
    files[`src/Orders/OrderStep${i}.cs`] = `namespace Shop.Orders;\n\npublic class OrderStep${i}\n{\n    public decimal Total${i}(decimal price) => price * ${i + 1};\n    // settles the order total\n}\n`;
  }

  async function ranked(w: HciWorkspace, query: string): Promise<string[]> {
    const r = await w.search({ query, limit: 20 });
    expect(r.status).toBe('ok');
    return r.hits.map((h) => `${h.path}:${h.start_line}-${h.end_line} ${h.score} ${h.snippet}`);
  }

  it('warmUp runs one search for the first symbol on the open index, remembers nothing and changes no answer', async () => {
    ws = await createTmpWorkspace(files);
    const w = await openWorkspace(ws.root);
    open.push(w);
    await w.index();
    const warmed = await warmUp(w);
    // The first chunk's symbol, searched for real: it finds hits (its own chunk at least).
    expect(warmed?.query).toMatch(/^(Shop\.Orders|OrderStep\d+|Total\d+)$/);
    expect(warmed!.hits).toBeGreaterThan(0);
    const cold = await openWorkspace(ws.root);
    open.push(cold);
    // Not remembered: its hit ids are unknown to explain, as they are on a workspace that never ran it.
    const hit = (await cold.search({ query: warmed!.query, limit: 10 })).hits[0];
    expect((await w.explain(hit.hit_id)).hint).toMatch(/not remembered/);
    for (const q of [warmed!.query, 'order total', 'Total1']) expect(await ranked(w, q)).toEqual(await ranked(cold, q));
    // An index with no symbol: nothing to run.
    const empty = await createTmpWorkspace({ 'README.md': 'plain words only\n' });
    try {
      const e = await openWorkspace(empty.root);
      await e.index();
      expect(await warmUp(e)).toBeNull(); // its one chunk's name, "(preamble)", is no identifier
      e.close();
    } finally {
      await empty.cleanup();
    }
  });

  it('fills the cache slice by slice, starts over for a new generation, and changes no answer', async () => {
    ws = await createTmpWorkspace(files);
    const w = await openWorkspace(ws.root);
    open.push(w);
    await w.index();
    // First the files, a slice a step: no budget decodes nothing (not in yet), then slices until
    // every file is in (40 small files: few).
    expect(await warmStep(w, 0)).toEqual({ done: false, files: false });
    let slices = 0;
    let step = await warmStep(w, 5);
    for (; !step.files; step = await warmStep(w, 5)) {
      expect(step).toEqual({ done: false, files: false });
      expect(++slices).toBeLessThan(200);
    }
    expect(step).toEqual({ done: false, files: true }); // the step that put the last file in searched nothing
    // Then the typed warm-up: the index's most frequent symbol names (here its one name of six or
    // more characters, the namespace, which names every file's one chunk) typed key by key, then
    // every other letter a query can start with (those symbol names start with first: here only
    // "s", typed already, so the rest in order), each step one search.
    const typed: string[] = [];
    for (step = await warmStep(w, 0); step.typed; step = await warmStep(w, 0)) typed.push(step.typed);
    expect(step).toEqual({ done: true, files: true });
    const letters = [...'abcdefghijklmnopqrtuvwxyz'];
    expect(typed).toEqual(['S', 'Sh', 'Sho', 'Shop', 'Shop.', 'Shop.O', 'Shop.Or', 'Shop.Ord', 'Shop.Orde', 'Shop.Order', 'Shop.Orders', ...letters]);
    expect(await warmStep(w, 0)).toEqual({ done: true, files: true }); // done stays done for this generation

    // A warmed workspace answers as a cold one does (same hits, scores and snippets).
    const cold = await openWorkspace(ws.root);
    open.push(cold);
    for (const q of ['OrderStep', 'order total', 'Total1', 'settles', 'Shop']) expect(await ranked(w, q)).toEqual(await ranked(cold, q));

    // A commit bumps the generation: warming starts over, and sees the changed file.
    await ws.write({ 'src/Orders/OrderStep3.cs': 'namespace Shop.Orders;\n\npublic class OrderStep3\n{\n    // refunds the order\n}\n' });
    await w.index();
    expect(await warmStep(w, 0)).toEqual({ done: false, files: false }); // the files again, then the typed warm-up
    step = await warmStep(w, 5);
    for (; !step.typed; step = await warmStep(w, 5)) expect(++slices).toBeLessThan(400);
    expect(step.typed).toBe('S');
    while (!(await warmStep(w, 5)).done) expect(++slices).toBeLessThan(400);
    const after = await w.search({ query: 'refunds', limit: 5 });
    expect(after.hits.map((h) => h.path)).toEqual(['src/Orders/OrderStep3.cs']);
    expect(after.hits[0].snippet).toContain('refunds the order');
  });
});
