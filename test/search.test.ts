// Keyword search: the contract shape, query analysis and escaping (hostile input never raises),
// filters, ranking rules (identifier splitting, test-path penalty, per-file cap), paging and the
// token budget, and explain.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { parseQuery, ftsExpression } from '../core/search/query.ts';
import { createTmpWorkspace, withTmpWorkspace, type TmpWorkspace, type WorkspaceFiles } from './helpers/tmp-workspace.ts';

const catalogService = `using System.Collections.Generic;
namespace Contoso.Catalog;

public sealed class CatalogService : ICatalogService
{
    private readonly ICatalogRepository _repository;

    public CatalogService(ICatalogRepository repository) => _repository = repository;

    public IReadOnlyList<CatalogItem> GetCatalogItems(int pageSize)
    {
        var max_page_size = 100;
        return _repository.Take(System.Math.Min(pageSize, max_page_size));
    }
}
`;

function manyMethods(n: number): string {
  return `namespace Contoso.Big;\npublic class Repetitive\n{\n${Array.from({ length: n }, (_, i) => `    public void Handler${i}() { Console.WriteLine("widget widget ${i}"); }\n`).join('')}}\n`;
}

let ws: TmpWorkspace;
let w: HciWorkspace;

beforeAll(async () => {
  ws = await createTmpWorkspace({
    'src/Catalog/CatalogService.cs': catalogService,
    'tests/Catalog/CatalogServiceTests.cs': catalogService.replace('class CatalogService', 'class CatalogServiceTests').replace('namespace Contoso.Catalog', 'namespace Contoso.Catalog.Tests'),
    'src/Big/Repetitive.cs': manyMethods(600),
    'src/Web/appsettings.json': '{\n  "ConnectionStrings": {\n    "OrderingDb": "Server=.;Database=Ordering;Integrated Security=true"\n  }\n}\n',
    'docs/pricing.md': '# Pricing\n\nHow the discount rules are applied to an order.\n',
    'src/Web/Pages/Checkout.razor': '@page "/checkout"\n@inject OrderingService Orders\n<button @onclick="Submit">Buy</button>\n',
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/Gadgets/Gadget${i}.cs`, `namespace Contoso.Gadgets;\n// gadget ${i}: a gadget with a long description ${'lorem ipsum '.repeat(20)}\npublic class Gadget${i} { }\n`])),
  });
  w = await openWorkspace(ws.root);
  await w.index();
});

afterAll(async () => {
  w?.close();
  await ws?.cleanup();
});

describe('the search contract', () => {
  it('answers with every contract field', async () => {
    const r = await w.search({ query: 'GetCatalogItems' });
    expect(r).toMatchObject({ contract_version: 2, status: 'ok', query: 'GetCatalogItems', mode: 'keyword', match: 'all', truncated: false });
    expect(typeof r.took_ms).toBe('number');
    expect(r.index).toMatchObject({ build_state: 'complete', files: 18, indexer_running: false });
    expect(r.index!.generation).toBeGreaterThanOrEqual(1);
    expect(r.index!.chunks).toBeGreaterThanOrEqual(6);
    expect(Date.parse(r.index!.indexed_at!)).not.toBeNaN();
    expect(r.skipped).toEqual(expect.any(Object));
    const h = r.hits[0];
    expect(h).toMatchObject({ rank: 1, path: 'src/Catalog/CatalogService.cs', hit_kind: 'text_fts', lang: 'csharp', start_line: 1 });
    expect(h.hit_id).toMatch(/^\d+\.[0-9a-z]+$/);
    expect(h.end_line).toBeGreaterThanOrEqual(h.start_line);
    expect(h.score).toBeGreaterThan(0);
    expect(h.fts_score).toBeGreaterThan(0);
    expect(h.vec_score).toBeUndefined();
    expect(h.snippet).toMatch(/^\d+: .*GetCatalogItems/m);
    expect(h.note).toMatch(/compiler/);
    expect(r.hits.map((x) => x.rank)).toEqual(r.hits.map((_, i) => i + 1));
  });

  it('finds identifiers by their parts, and parts by the identifier', async () => {
    expect((await w.search({ query: 'catalog items' })).hits[0]?.path).toBe('src/Catalog/CatalogService.cs');
    expect((await w.search({ query: 'max_page_size' })).hits[0]?.path).toBe('src/Catalog/CatalogService.cs');
    expect((await w.search({ query: 'page size' })).hits[0]?.path).toBe('src/Catalog/CatalogService.cs');
    expect((await w.search({ query: 'OrderingDb' })).hits[0]?.path).toBe('src/Web/appsettings.json');
    expect((await w.search({ query: 'ordering db' })).hits[0]?.path).toBe('src/Web/appsettings.json');
  });

  it('ranks test paths below source for the same match', async () => {
    const r = await w.search({ query: 'GetCatalogItems', limit: 5 });
    const paths = r.hits.map((h) => h.path);
    expect(paths.indexOf('src/Catalog/CatalogService.cs')).toBeLessThan(paths.indexOf('tests/Catalog/CatalogServiceTests.cs'));
  });

  it('drops stop words from natural-language questions and falls back to any term', async () => {
    const r = await w.search({ query: 'where are the discount rules applied to an order' });
    expect(r.status).toBe('ok');
    expect(r.hits[0]?.path).toBe('docs/pricing.md');
    const any = await w.search({ query: 'discount zzzunknownword' });
    expect(any.match).toBe('any');
    expect(any.hits[0]?.path).toBe('docs/pricing.md');
    expect(any.hint).toMatch(/some of them/);
  });

  it('continues a short page of complete matches with partial ones, question or not', async () => {
    const r = await w.search({ query: 'where is the checkout for orders', limit: 5 });
    // Not a question: the page is filled all the same (it used to stop at the complete matches).
    const plain = await w.search({ query: 'checkout orders', limit: 5 });
    expect(plain.match).toBe('all_then_any');
    expect(plain.hits.length).toBeGreaterThan(1);
    expect(r.match).toBe('all_then_any');
    expect(r.hits[0].path).toBe('src/Web/Pages/Checkout.razor');
    expect(r.hits.length).toBeGreaterThan(1);
    expect(r.hint).toMatch(/^only 1 chunk contains all terms/);
    const partial = await w.explain(r.hits[1].hit_id);
    expect(partial.explanation?.unmatched_terms?.length).toBeGreaterThan(0);
  });

  it('keeps quoted phrases as phrases', async () => {
    expect((await w.search({ query: '"discount rules"' })).hits[0]?.path).toBe('docs/pricing.md');
    const r = await w.search({ query: '"rules discount"' });
    expect(r.status).toBe('empty');
  });

  it('filters by path prefix, glob, extension and exclusion (inline and as options)', async () => {
    const all = (r: { hits: Array<{ path: string }> }) => r.hits.map((h) => h.path);
    expect(all(await w.search({ query: 'catalog', paths: ['tests/'] }))).toEqual(['tests/Catalog/CatalogServiceTests.cs']);
    expect(all(await w.search({ query: 'catalog path:tests/' }))).toEqual(['tests/Catalog/CatalogServiceTests.cs']);
    expect(all(await w.search({ query: 'catalog', exclude_paths: ['tests/'] }))).toEqual(['src/Catalog/CatalogService.cs']);
    expect(all(await w.search({ query: 'catalog -path:tests/' }))).toEqual(['src/Catalog/CatalogService.cs']);
    expect(all(await w.search({ query: 'checkout', exts: ['razor'] }))).toEqual(['src/Web/Pages/Checkout.razor']);
    expect(all(await w.search({ query: 'checkout ext:.razor' }))).toEqual(['src/Web/Pages/Checkout.razor']);
    expect(all(await w.search({ query: 'catalog', paths: ['**/*Tests.cs'] }))).toEqual(['tests/Catalog/CatalogServiceTests.cs']);
    expect(all(await w.search({ query: 'catalog', paths: ['*.cs'], exclude_paths: ['src/**'] }))).toEqual(['tests/Catalog/CatalogServiceTests.cs']);
    const outside = await w.search({ query: 'catalog', paths: ['../etc'] });
    expect(outside.status).toBe('error');
    expect(outside.error?.code).toBe('path_outside_workspace');
  });

  it('lists a file’s chunks past max_hits_per_file only after every other file’s hits, and drops none of them', async () => {
    const r = await w.search({ query: 'widget', limit: 10 });
    const big = r.hits.map((h, i) => (h.path === 'src/Big/Repetitive.cs' ? i : -1)).filter((i) => i >= 0);
    const others = r.hits.map((h, i) => (h.path !== 'src/Big/Repetitive.cs' ? i : -1)).filter((i) => i >= 0);
    // Its third chunk and later come after the last hit of any other file.
    for (const i of big.slice(2)) expect(i).toBeGreaterThan(Math.max(-1, ...others));
    // The page is full and says more exists (the file's 600 methods are all still there).
    expect(r.hits).toHaveLength(10);
    expect(r.next_cursor).toBeDefined();
  });

  it('pages with next_cursor and cuts to the token budget', async () => {
    const first = await w.search({ query: 'gadget', limit: 2 });
    expect(first.hits).toHaveLength(2);
    expect(first.next_cursor).toBeDefined();
    const second = await w.search({ query: 'gadget', limit: 2, cursor: first.next_cursor });
    expect(second.hits[0]?.rank).toBe(3);
    const ids = new Set(first.hits.map((h) => h.hit_id));
    expect(second.hits.some((h) => ids.has(h.hit_id))).toBe(false);

    const budget = await w.search({ query: 'gadget', limit: 12, max_tokens: 600 });
    expect(budget.truncated).toBe(true);
    expect(budget.next_cursor).toBeDefined();
    expect(budget.hits.length).toBeGreaterThan(0);
    expect(budget.hits.length).toBeLessThan(12);
    expect(Math.ceil(JSON.stringify(budget).length / 4)).toBeLessThanOrEqual(600);

    const bad = await w.search({ query: 'catalog', cursor: 'garbage' });
    expect(bad.error?.code).toBe('invalid_cursor');
  });

  it('validates requests with structured errors', async () => {
    for (const req of [{ query: 'x', limit: 0 }, { query: 'x', limit: 51 }, { query: 'x', limit: 2.5 }, { query: 'x'.repeat(2001) }, { query: 42 as unknown as string }, { query: 'x', mode: 'fuzzy' as 'keyword' }]) {
      const r = await w.search(req);
      expect(r.status).toBe('error');
      expect(r.error?.code).toBe('invalid_request');
      expect(r.hint).toBeTruthy();
    }
    const semantic = await w.search({ query: 'x', mode: 'semantic' });
    expect(semantic.error?.code).toBe('mode_unavailable');
  });
});

describe('query escaping', () => {
  const alphabet = ['"', "'", '(', ')', '*', ':', '^', '-', '+', '{', '}', '[', ']', 'NEAR', 'NEAR(', 'AND', 'OR', 'NOT', ',', ';', '\\', '/', '.', '@', '#', '$', '%', '&', '|', '~', '`', '<', '>', '=', '?', '!', ' ', '  ', '\t', '\n', '\u0000', '\u202e', 'é', '日本', '🙂', 'catalog', 'GetCatalogItems', 'path:', 'ext:', '-path:', 'x*', 'col:', 'rowid', 'chunks_fts', "'; DROP TABLE files; --", '\uFFFD', 'ǅ', '0', '123', '_'];

  function hostileQueries(n: number, seed: number): string[] {
    let s = seed;
    const rand = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32);
    return Array.from({ length: n }, () => {
      const len = 1 + Math.floor(rand() * 12);
      return Array.from({ length: len }, () => alphabet[Math.floor(rand() * alphabet.length)]).join(rand() < 0.5 ? '' : ' ');
    });
  }

  it('never raises on hundreds of hostile queries, always a structured status', async () => {
    const queries = [...hostileQueries(400, 20261130), '', ' ', '"', '""', '"unbalanced', 'NEAR(a b, 3)', 'a AND', 'OR OR', '*', '^start', 'body:foo', '{path body}: x', 'NOT catalog', '(((', ')))'];
    const statuses = new Map<string, number>();
    for (const q of queries) {
      const r = await w.search({ query: q });
      statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      expect(['ok', 'empty'], `query ${JSON.stringify(q)} gave ${r.status}: ${r.error?.message}`).toContain(r.status);
      if (r.status === 'empty') expect(r.hint).toBeTruthy();
    }
    expect(statuses.get('ok')).toBeGreaterThan(50);
  });

  it('builds FTS expressions only from quoted tokens', () => {
    for (const q of ['a"b', 'NEAR(x y)', 'x OR y', 'col:val', '^a*', '-z', 'GetItems*']) {
      const expr = ftsExpression(parseQuery(q), 'all') ?? '';
      const unquoted = expr.replace(/"[^"]*"/g, '');
      expect(unquoted, `${q} → ${expr}`).toMatch(/^[\s()*]*(?:(?:AND|OR)[\s()*]*)*$/);
    }
    expect(ftsExpression(parseQuery('GetCatalogItems'), 'all')).toBe('("getcatalogitems" OR "get catalog items")');
    expect(ftsExpression(parseQuery('catalog*'), 'all')).toBe('"catalog"*');
    expect(parseQuery('foo path:src/ ext:cs,razor -path:tests/').paths).toEqual(['src/']);
  });
});

describe('explain', () => {
  it('shows the chunk, the matched fields and the score parts of a hit', async () => {
    const r = await w.search({ query: 'catalog items', limit: 5 });
    const hit = r.hits.find((h) => h.path === 'src/Catalog/CatalogService.cs')!;
    const e = await w.explain(hit.hit_id);
    expect(e.status).toBe('ok');
    const x = e.explanation!;
    expect(x).toMatchObject({ path: hit.path, start_line: hit.start_line, end_line: hit.end_line, query: 'catalog items', match: 'all', rank: hit.rank });
    expect(x.text).toContain('GetCatalogItems');
    expect(x.score).toBeCloseTo(hit.score, 2);
    expect(x.fts?.column_weights).toMatchObject({ path: expect.any(Number), body: expect.any(Number) });
    expect(x.matched_terms).toEqual(expect.arrayContaining([expect.objectContaining({ term: 'catalog', fields: expect.arrayContaining(['path', 'body']) })]));
    expect(x.factors).toEqual(expect.any(Array));

    const testHit = (await w.search({ query: 'GetCatalogItems', limit: 5 })).hits.find((h) => h.path.startsWith('tests/'))!;
    const te = await w.explain(testHit.hit_id);
    expect(te.explanation?.factors).toEqual(expect.arrayContaining([{ name: 'test_path_penalty', factor: expect.any(Number) }]));
  });

  it('answers bad and stale hit ids with a structured error', async () => {
    expect((await w.explain('nonsense')).error?.code).toBe('invalid_hit_id');
    // A chunk id above any this index ever gave was never a hit here (a re-indexed one is stale_hit: cli-edges.test.ts).
    expect((await w.explain('999999.abc')).error?.code).toBe('invalid_hit_id');
    const unknownQuery = await w.explain(`${(await w.search({ query: 'widget' })).hits[0].hit_id.split('.')[0]}.zzzz`);
    expect(unknownQuery.status).toBe('ok');
    expect(unknownQuery.hint).toMatch(/pass the query/);
  });
});

describe('questions over a large index', () => {
  it('does not widen the any-term pass with words most chunks hold, and cuts short prefix tails', async () => {
    // 1,300 notes all saying "shipment"; three mention the rare words. No note holds every word of
    // the question, so the page continues with partial matches: only the informative ones.
    const files: Record<string, string> = {};
    for (let i = 0; i < 1300; i++) files[`notes/n${i}.md`] = `# Note ${i}\n\nshipment record ${i}\n`;
    files['notes/rare1.md'] = '# Rare\n\nthe zephyrine ledger\n';
    files['notes/rare2.md'] = '# Rare\n\nquixotic zephyrine\n';
    files['notes/rare3.md'] = '# Rare\n\nquixotic pallet\n';
    const big = await createTmpWorkspace(files);
    const bw = await openWorkspace(big.root);
    try {
      await bw.index();
      const r = await bw.search({ query: 'where is the shipment zephyrine quixotic computed', limit: 10 });
      expect(r.match).toBe('any');
      expect(r.hits.map((h) => h.path).sort()).toEqual(['notes/rare1.md', 'notes/rare2.md', 'notes/rare3.md']);
      // With only two words, both count (nothing is dropped).
      const two = await bw.search({ query: 'shipment zephyrine', limit: 10 });
      expect(two.hits.length).toBe(10);
    } finally {
      bw.close();
      await big.cleanup();
    }
  });

  it('matches a compound prefix with a one-letter tail by the phrase of its other parts', () => {
    const q = parseQuery('InternalPriceL*');
    expect(ftsExpression(q, 'all')).toBe('("internalpricel"* OR "internal price")');
    expect(ftsExpression(parseQuery('InternalPriceList*'), 'all')).toBe('("internalpricelist"* OR "internal price list"*)');
  });
});

/** Indexes a fresh workspace of `files`, runs `fn` on it, then closes and removes it. */
async function withIndexed(files: WorkspaceFiles, fn: (w: HciWorkspace) => Promise<void>): Promise<void> {
  await withTmpWorkspace(files, async (tmp) => {
    const w = await openWorkspace(tmp.root);
    try {
      await w.index();
      await fn(w);
    } finally {
      w.close();
    }
  });
}

/** The ranking factors explain shows for a hit. */
async function factors(w: HciWorkspace, hitId: string): Promise<Array<{ name: string; factor: number }>> {
  return (await w.explain(hitId)).explanation?.factors ?? [];
}

describe('config key paths', () => {
  it('ranks the file that defines a key path (nested keys, in order) above docs that quote it', async () => {
    await withIndexed({
      'docs/config.md': '# Settings\n\nSet `Payments:RetryPolicy:MaxAttempts` to change retries. Payments retry policy max attempts.\n',
      'src/appsettings.json': '{\n  "Payments": {\n    "Provider": "stripe",\n    "RetryPolicy": {\n      "MaxAttempts": 5\n    }\n  }\n}\n',
      'deploy/values.yaml': 'payments:\n  maxAttempts: 3\n  retryPolicy: none\n',
    }, async (cw) => {
      const r = await cw.search({ query: 'Payments:RetryPolicy:MaxAttempts', limit: 5 });
      expect(r.hits[0]?.path).toBe('src/appsettings.json');
      expect(await factors(cw, r.hits[0].hit_id)).toEqual(expect.arrayContaining([{ name: 'definition_like', factor: expect.any(Number) }]));
      // The environment-variable form names the same key.
      expect((await cw.search({ query: 'Payments__RetryPolicy__MaxAttempts', limit: 5 })).hits[0]?.path).toBe('src/appsettings.json');
    });
  });

  it('ranks the definition first when the key lives in a chunk cut from inside a big config file', async () => {
    // 24 sections of 7 lines: the JSON chunker cuts each section out of "Catalog", so the chunk that
    // holds RetentionDays does not hold the "Catalog" line; its key path (Catalog:Section7) says where it is.
    const sections = Array.from({ length: 24 }, (_, i) => `    "Section${i}": {\n      "MaxBatchSize": ${i},\n      "RetentionDays": ${30 + i},\n      "MaxRetries": 3,\n      "Mode": "m${i}"\n    }`);
    await withIndexed({
      'docs/catalog.md': '# Catalog\n\nConfiguration lives under `Catalog:Section7`: `MaxBatchSize`, `RetentionDays`, `MaxRetries`.\n',
      'src/appsettings.json': `{\n  "Catalog": {\n    "Enabled": true,\n${sections.join(',\n')}\n  }\n}\n`,
    }, async (cw) => {
      const r = await cw.search({ query: 'Catalog:Section7:RetentionDays', limit: 5 });
      expect(r.hits[0]?.path).toBe('src/appsettings.json');
      // The innermost symbol holding the best-matching line: the key itself, inside the chunk of Catalog:Section7.
      expect(r.hits[0]?.symbol?.name).toBe('Catalog.Section7.RetentionDays');
      expect(await factors(cw, r.hits[0].hit_id)).toEqual(expect.arrayContaining([{ name: 'definition_like', factor: expect.any(Number) }]));
    });
  });
});

describe('the symbol a hit names', () => {
  it('is the type whose declaration line matched, when the type\'s first chunk also holds its first member', async () => {
    // A 60-line class: too long for one chunk, its doc comment and declaration (a short head) are glued
    // to its first field's chunk, which the chunker labels with the field.
    const members = Array.from({ length: 18 }, (_, i) => `    public int Limit${i}\n    {\n        get { return _maxNumberOfRetries + ${i}; }\n    }`);
    const strategy = `namespace Actors;\n\n/// <summary>Applies a directive to the one child that failed.</summary>\npublic class OneForOneStrategy : SupervisorStrategy\n{\n    private readonly int _maxNumberOfRetries;\n\n${members.join('\n\n')}\n}\n`;
    await withIndexed({ 'src/Actors/Strategies.cs': strategy, 'src/Actors/Uses.cs': 'namespace Actors;\npublic class Uses\n{\n    public object Make() => new OneForOneStrategy();\n}\n' }, async (cw) => {
      const byType = await cw.search({ query: 'OneForOneStrategy', limit: 5 });
      expect(byType.hits[0]).toMatchObject({ path: 'src/Actors/Strategies.cs', start_line: 1 });
      expect(byType.hits[0].symbol).toMatchObject({ kind: 'class', name: 'OneForOneStrategy' });
      // The same chunk, found by its field: the field.
      const byField = await cw.search({ query: '_maxNumberOfRetries', limit: 5 });
      const first = byField.hits.find((h) => h.start_line === byType.hits[0].start_line && h.path === 'src/Actors/Strategies.cs');
      expect(first?.symbol).toMatchObject({ kind: 'field', name: '_maxNumberOfRetries' });
    });
  });
});

describe('verbatim queries', () => {
  it('counts a quote inside the query as part of the phrase: a route is not its longer sibling', async () => {
    await withIndexed({
      'Pages/OrderEdit.razor': '@page "/catalog/orders/{Id:guid}"\n@inject IOrderService OrderService\n\n<h1>Edit order</h1>\n\n@code {\n    [Parameter] public Guid Id { get; set; }\n}\n',
      'Pages/OrderList.razor': '@page "/catalog/orders"\n@inject IOrderService OrderService\n\n<h1>Orders</h1>\n',
    }, async (pw) => {
      const r = await pw.search({ query: '@page "/catalog/orders"', limit: 5 });
      expect(r.hits[0]?.path).toBe('Pages/OrderList.razor');
      expect(await factors(pw, r.hits[0].hit_id)).toEqual(expect.arrayContaining([{ name: 'exact_text', factor: expect.any(Number) }]));
      const edit = r.hits.find((h) => h.path === 'Pages/OrderEdit.razor');
      expect(edit).toBeDefined(); // it matches every word: only the verbatim signal tells them apart
      expect((await factors(pw, edit!.hit_id)).map((f) => f.name)).not.toContain('exact_text');
      // A query wholly in quotes is still that phrase.
      const quoted = await pw.search({ query: '"Edit order"', limit: 5 });
      expect(quoted.hits[0]?.path).toBe('Pages/OrderEdit.razor');
    });
  });
});
