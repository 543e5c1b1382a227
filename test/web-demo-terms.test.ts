// The explorer's term marking (web-demo/src/search/terms.ts) follows the core's matching: a query
// term is marked only from a token or identifier-part boundary to another (core/text
// tokenBoundaries), so `Pane` is not marked inside `Panel` nor `fa` inside `OverrideDefaultValue`,
// while an identifier's parts (`Pricing` in `ToPricingLines`), a whole identifier spanning parts
// (`PricingEngine` in `PricingEngineTests`) and a prefix term (`Catal*`) are; exact-text and regex
// modes still mark any substring the pattern matches.
// @lane unit
import { describe, it, expect } from 'vitest';
import { markTerms } from '../web-demo/src/search/terms.ts';
import { tokenBoundaries } from '../core/text/analyzer.ts';

const marks = (text: string, q: string, mode?: 'keyword' | 'literal' | 'regex') =>
  markTerms(text, q, mode ? { mode, caseSensitive: false, wholeWord: false } : undefined).filter((p) => p.mark).map((p) => p.text);

describe('term marking at word and identifier-part boundaries', () => {
  it('finds the boundaries of words and identifier parts', () => {
    expect([...tokenBoundaries('OverrideDefaultValue')].sort((a, b) => a - b)).toEqual([0, 8, 15, 20]);
    expect([...tokenBoundaries('HTTPServer2Go x_y')].sort((a, b) => a - b)).toEqual([0, 4, 10, 11, 13, 14, 15, 16, 17]);
  });

  it('does not mark a term inside another word or across a part', () => {
    expect(marks('public class Panel : PaneBase { Pane p; }', 'Pane')).toEqual(['Pane', 'Pane']);
    expect(marks('[OverrideDefaultValue] fa = FaIcon.Fa', 'fa')).toEqual(['fa', 'Fa', 'Fa']);
    expect(marks('var total = order.Total; // subtotal', 'total')).toEqual(['total', 'Total']);
  });

  it('marks identifier parts, identifiers spanning parts, and prefixes', () => {
    expect(marks('PricingEngine.Quote(Cart.ToPricingLines())', 'PricingEngine')).toEqual(['PricingEngine', 'Pricing']);
    expect(marks('class PricingEngineTests', 'PricingEngine')).toEqual(['PricingEngine']);
    expect(marks('GetCatalogItemsAsync(catalog_items)', 'catalog items')).toEqual(['Catalog', 'Items', 'catalog', 'items']);
    expect(marks('Catalogue CatalogItem xcatal', 'Catal*')).toEqual(['Catal', 'Catal']);
  });

  it('marks any substring in exact-text and regex modes', () => {
    expect(marks('Panel Pane', 'Pane', 'literal')).toEqual(['Pane', 'Pane']);
    expect(marks('GetItemsAsync GetAsync', 'Get\\w+Async', 'regex')).toEqual(['GetItemsAsync']);
  });
});
