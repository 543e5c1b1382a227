// Per-word weights in the keyword score (settings unnamed_term_weight, weak_term_weight;
// core/search/term-weights.ts), on a small fixture through the public calls (index, search, explain).
// "discount rounding explained": `explained` is a word no name, path or identifier part of this
// repository holds, so a notes file that says it over and over ranks above the class that computes
// discounts when every word weighs the same; with the prose word weighed less the class leads, and
// explain lists the weight. `update`, a verb of change, is weighed by weak_term_weight in the same
// way (it stays in the match); with unnamed_term_share a word's weight is graded by the share of
// its chunks that name it; term_weight_types gates them by query type. At the defaults nothing changes and explain lists no weights.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();

beforeAll(async () => {
  await fixture.create({
    'src/Pricing/PriceMath.cs': cs('Pricing', [
      'public sealed class DiscountRounding',
      '{',
      '    // rounding of the discount is explained in the notes',
      '    public decimal Discount(decimal price, decimal discount)',
      '    {',
      '        var discounted = price - price * discount;',
      '        return Rounding(discounted, discount);',
      '    }',
      '    private static decimal Rounding(decimal value, decimal discount) => Math.Round(value * discount, 2);',
      '}',
    ].join('\n')),
    'src/Pricing/Notes.cs': cs('Pricing', [
      'public sealed class Notes',
      '{',
      '    // explained: what a rounding is, explained once more, explained for the discount,',
      '    // explained again so that it is explained, explained, explained: the rounding of a discount.',
      '    public int Count => 0;',
      '}',
    ].join('\n')),
    'src/Catalog/CatalogUpdater.cs': cs('Catalog', [
      'public sealed class CatalogUpdater',
      '{',
      '    // update update update: the catalog prices are updated here, update after update, on every update',
      '    public void Update(object catalog) { }',
      '}',
    ].join('\n')),
    'src/Catalog/CatalogPrices.cs': cs('Catalog', [
      'public sealed class CatalogPrices',
      '{',
      '    // the catalog prices: each catalog price read from the catalog, then the prices sorted (update once)',
      '    public decimal Price(object catalog, string prices) => 0m;',
      '}',
    ].join('\n')),
    'src/Catalog/Sorting.cs': cs('Catalog', [
      'public sealed class Sorting',
      '{',
      '    // sorted, sorted and sorted again: the CatalogUpdater output is sorted here, sorted by name, sorted by price',
      '    public void Sort(object items) { }',
      '}',
    ].join('\n')),
    'src/Catalog/Importer.cs': cs('Catalog', [
      'public sealed class Importer',
      '{',
      '    // the CatalogUpdater runs after the CatalogUpdater of the importer: CatalogUpdater, CatalogUpdater (kept sorted)',
      '    public void Import(object items) { }',
      '}',
    ].join('\n')),
    ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i}; // nothing to see\n}`)])),
  });
}, 120_000);
afterAll(() => fixture.close());

const rank = (hits: ReadonlyArray<{ path: string }>, path: string) => hits.findIndex((h) => h.path === path);

describe('term weights', () => {
  const question = 'discount rounding explained';

  it('ranks the prose notes first when every word weighs the same (the default)', async () => {
    const ws = await fixture.open();
    const res = await ws.search({ query: question });
    expect(res.hits[0]?.path).toBe('src/Pricing/Notes.cs');
    expect((await ws.explain(res.hits[0].hit_id)).explanation?.term_weights).toBeUndefined();
  });

  it('ranks the class first when a word no name holds weighs less, and explain lists the weight', async () => {
    const ws = await fixture.open({ unnamed_term_weight: 0.3 });
    const res = await ws.search({ query: question });
    expect(res.hits[0]?.path).toBe('src/Pricing/PriceMath.cs');
    expect(rank(res.hits, 'src/Pricing/Notes.cs')).toBeGreaterThan(0);
    const ex = (await ws.explain(res.hits[0].hit_id)).explanation;
    expect(ex?.term_weights).toEqual({ explained: 0.3 });
  });

  it('weighs a verb of change by weak_term_weight, kept in the match', async () => {
    const off = await (await fixture.open()).search({ query: 'update catalog prices' });
    expect(off.hits[0]?.path).toBe('src/Catalog/CatalogUpdater.cs');
    const ws = await fixture.open({ weak_term_weight: 0.2 });
    const on = await ws.search({ query: 'update catalog prices' });
    expect(on.hits[0]?.path).toBe('src/Catalog/CatalogPrices.cs');
    const ex = (await ws.explain(on.hits[0].hit_id)).explanation;
    expect(ex?.term_weights).toEqual({ update: 0.2 });
    expect(ex?.matched_terms?.map((t) => t.term)).toContain('update');
  });

  it('weighs only the query types term_weight_types names', async () => {
    // A question (words only) ranks as without weights; a mixed query (an identifier among words) is weighed.
    const ws = await fixture.open({ unnamed_term_weight: 0.3, term_weight_types: ['mixed'] });
    const q = await ws.search({ query: question });
    expect(q.hits[0]?.path).toBe('src/Pricing/Notes.cs');
    expect((await ws.explain(q.hits[0].hit_id)).explanation?.term_weights).toBeUndefined();
    const m = await ws.search({ query: `${question} DiscountRounding` });
    expect((await ws.explain(m.hits[0].hit_id)).explanation?.term_weights).toEqual({ explained: 0.3 });
  });

  it('grades a word by the share of its chunks that name it (unnamed_term_share)', async () => {
    // `rounding` is an identifier part (DiscountRounding) but no chunk's symbol or path says it;
    // `catalog` is in the path of every chunk that holds it.
    const weights = async (settings: Record<string, unknown>) => {
      const ws = await fixture.open(settings);
      const res = await ws.search({ query: 'catalog rounding' });
      return (await ws.explain(res.hits[0].hit_id)).explanation?.term_weights;
    };
    expect(await weights({ unnamed_term_weight: 0.3 })).toBeUndefined();
    expect(await weights({ unnamed_term_weight: 0.3, unnamed_term_share: 0.5 })).toEqual({ rounding: 0.3 });
  });
});
