// The Searcher (core/search/searcher.ts): one per open index, owning its search session; a request
// is checked against the contract's bounds and parsed once before the read transaction, and the
// ranking inside it uses that parse; a query that does not parse is the search's error where the
// pipeline meets it; the same searcher serves search, explain and a host's idle steps. Through a real
// workspace on disk and the real WASM SQLite.
// @lane unit
import { describe, it, expect, afterEach } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { checkRequest } from '../core/search/searcher.ts';
import { SEARCH_LIMIT, QUERY_MAX_CHARS } from '../core/contract/limits.ts';
import { searchRequest } from '../core/contract/search.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

const files: Record<string, string> = {
  'src/Orders/OrderService.cs': 'namespace Shop.Orders;\n\npublic class OrderService\n{\n    public void Place(int id) => Handler?.Invoke(id);\n    public event System.Action<int>? Handler;\n}\n',
  'src/Orders/Refunds.cs': 'namespace Shop.Orders;\n\npublic class Refunds\n{\n    // refunds the order total\n    public decimal Refund(decimal total) => total;\n}\n',
};

describe('Searcher', () => {
  let ws: TmpWorkspace | undefined;
  let w: HciWorkspace | undefined;
  afterEach(async () => {
    w?.close();
    await ws?.cleanup();
    ws = undefined;
  });

  it('parses a request once: the ranking inside the read uses the parse made before it', async () => {
    ws = await createTmpWorkspace(files);
    w = await openWorkspace(ws.root);
    await w.index();
    const searcher = await w.searcher();
    expect(await w.searcher()).toBe(searcher); // one per open index
    // A quoted literal is not expanded: the ranked query is the very object prepare parsed.
    const prepared = await searcher.prepare({ query: '"?.Invoke("' });
    const ranked = await searcher.store.read((db) => prepared.rank(db, (list) => list.length >= 10));
    expect(ranked.parsed).toBe(prepared.query());
    expect(ranked.ranked.map((c) => c.path)).toEqual(['src/Orders/OrderService.cs']);
    // The answer of the facade and of the searcher are one search.
    const viaFacade = await w.search({ query: 'refunds order', limit: 5 });
    const direct = await searcher.search({ query: 'refunds order', limit: 5 });
    expect(direct.hits.map((h) => [h.hit_id, h.score])).toEqual(viaFacade.hits.map((h) => [h.hit_id, h.score]));
  });

  it('reports a query that does not parse as the search\'s error, and explains with the searcher too', async () => {
    ws = await createTmpWorkspace(files);
    w = await openWorkspace(ws.root);
    await w.index();
    const bad = await w.search({ query: 're:(unclosed' });
    expect(bad).toMatchObject({ status: 'error', error: { code: 'invalid_regex' } });
    const hit = (await w.search({ query: 'Refund', limit: 1 })).hits[0];
    const why = await w.explain(hit.hit_id);
    expect(why.explanation?.rank).toBe(1);
    expect(why.explanation?.path).toBe('src/Orders/Refunds.cs');
  });

  it('checks a request against the bounds its schema declares, without the schema', () => {
    const cases: unknown[] = [
      { query: 'x' }, { query: 'x', limit: SEARCH_LIMIT.max }, { query: 'x', limit: SEARCH_LIMIT.max + 1 }, { query: 'x', limit: 0 }, { query: 'x', limit: 1.5 },
      { query: 'x'.repeat(QUERY_MAX_CHARS) }, { query: 'x'.repeat(QUERY_MAX_CHARS + 1) }, { query: 3 }, { query: 'x', max_tokens: 99 }, { query: 'x', max_tokens: 100 },
      { query: 'x', mode: 'regex' }, { query: 'x', mode: 'fuzzy' }, { query: 'x', whole_word: 'yes' }, { query: 'x', case_sensitive: true },
    ];
    for (const req of cases) {
      let checked = true;
      try {
        checkRequest(req as never);
      } catch (e) {
        expect((e as { code: string }).code).toBe('invalid_request');
        checked = false;
      }
      expect(checked, JSON.stringify(req).slice(0, 80)).toBe(searchRequest.safeParse(req).success);
    }
  });
});
