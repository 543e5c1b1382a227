// Term proximity in rerank (core/search/proximity.ts, setting proximity_boost, off by default): a
// chunk whose query words stand within proximity_lines lines of each other weighs up to
// (1 + proximity_boost). On a small fixture through the public calls (search, explain), checked to
// change the answer against the setting off: a method that says the query's words on one line
// against one that says each of them more often, lines apart.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { nearWords, proximityFactor } from '../core/search/proximity.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

/** `n` padding lines of a method body. */
const pad = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `        // step ${from + i}: nothing special`).join('\n');

beforeAll(async () => {
  w = await fixture.create({
    // Each word twice, far apart.
    'src/Billing/Ledger.cs': cs('Billing', `public sealed class Ledger\n{\n    public void Close()\n    {\n        // the invoice is read\n${pad(6)}\n        // the discount is kept\n${pad(6, 6)}\n        // the rounding is kept\n${pad(6, 12)}\n        // the invoice, again\n${pad(6, 18)}\n        // the discount, again\n${pad(6, 24)}\n        // the rounding, again\n    }\n}`),
    // Each word once, on one line.
    'src/Billing/Totals.cs': cs('Billing', `public sealed class Totals\n{\n    public void Sum()\n    {\n        // the invoice discount rounding happens here\n${pad(35)}\n    }\n}`),
    ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i}; // the invoice\n}`)])),
  });
}, 120_000);
afterAll(() => fixture.close());

describe('term proximity (proximity_boost)', () => {
  it('counts the most distinct query words any window of lines holds together', () => {
    const body = 'a invoice\nb\nc discount\nd\ne\nf rounding';
    expect(nearWords(body, ['invoice', 'discount', 'rounding'], 1)).toBe(1);
    expect(nearWords(body, ['invoice', 'discount', 'rounding'], 3)).toBe(2);
    expect(nearWords(body, ['invoice', 'discount', 'rounding'], 6)).toBe(3);
    expect(nearWords('InvoiceDiscount', ['invoice', 'discount'], 1)).toBe(2);
    expect(nearWords('nothing', ['invoice', 'discount'], 3)).toBe(0);
    expect(proximityFactor(1, 3, 0.5)).toBe(1);
    expect(proximityFactor(3, 3, 0.5)).toBe(1.5);
    expect(proximityFactor(2, 3, 0.5)).toBeCloseTo(Math.sqrt(1.5), 9);
    expect(proximityFactor(3, 3, 0)).toBe(1);
  });

  it('ranks the chunk whose query words stand together above one that says them more often, apart', async () => {
    const q = 'invoice discount rounding';
    const off = await w.search({ query: q });
    expect(off.hits[0].path).toBe('src/Billing/Ledger.cs');
    for (const h of off.hits) expect((await w.explain(h.hit_id)).explanation?.factors ?? []).not.toContainEqual(expect.objectContaining({ name: 'proximity' }));
    const ws = await fixture.open({ proximity_boost: 1, proximity_lines: 3 });
    const on = await ws.search({ query: q });
    expect(on.hits[0].path).toBe('src/Billing/Totals.cs');
    expect((await ws.explain(on.hits[0].hit_id)).explanation?.factors).toContainEqual({ name: 'proximity', factor: 2 });
    // Ledger's words are never within three lines of each other: one word near, no factor.
    const ledger = on.hits.find((h) => h.path === 'src/Billing/Ledger.cs')!;
    expect((await ws.explain(ledger.hit_id)).explanation?.factors ?? []).not.toContainEqual(expect.objectContaining({ name: 'proximity' }));
  });
});
