// The one place "stated" is decided (query-type.ts isStated / queryForm): the forms every ranking
// policy that differs by how a query is put reads — stated_docs_factor (rerank.ts), term_weight_types
// (term-weights.ts) and fusion_by_type (fuse.ts fusionType) — agree query by query.
// @lane unit
import { describe, it, expect } from 'vitest';
import { isStated, queryForm, queryType } from '../core/search/query-type.ts';
import { fusionType } from '../core/search/fuse.ts';
import { parseQuery } from '../core/search/query.ts';

const CASES: Array<[string, ReturnType<typeof queryForm>, boolean]> = [
  ['MudDataGrid', 'symbol', false],
  ['GetCatalogItemsAsync OrderService', 'symbol', false],
  ['how does the async event handler wait for the caller', 'question', false],
  ['where is the deferral completed?', 'question', false],
  ['let an async event handler hold up the caller until it signals that it has finished', 'stated', true],
  ['Fixed resize canvas black bars', 'stated', true],
  ['FADeferral: wait for the async handler before closing', 'mixed', true],
  ['how is MudDataGrid paged', 'mixed', false],
];

describe('query forms', () => {
  it.each(CASES)('%s → %s (stated: %s)', (raw, form, stated) => {
    const q = parseQuery(raw);
    expect(queryForm(q)).toBe(form);
    expect(isStated(q)).toBe(stated);
    expect(fusionType(q)).toBe(form);
  });

  it('splits only questions: a form is its type unless the type is question', () => {
    for (const [raw] of CASES) {
      const q = parseQuery(raw);
      const type = queryType(q);
      expect(queryForm(q) === type || (type === 'question' && queryForm(q) === 'stated')).toBe(true);
    }
  });
});
