// Repository-learned synonyms (setting learned_terms; core/search/learned-terms.ts), on a small
// fixture through the public calls (index, search, explain): three members' doc comments say
// "persisted" above names with `Save`, so this repository links the word to the name part. The
// question "where is the cart persisted" finds no chunk with both words; without the setting a
// summary that says `cart` most often ranks above the store, with it the undocumented
// `OrderStore.SaveOrder` gains the learned term and passes it, and explain names the term. A symbol
// query is never expanded. A whole-tree pass with the setting on records the association for its
// index generation; the next pass renews it.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { crudeStem, LEARNED_TERMS_TABLE, PairCounter } from '../core/search/learned-terms.ts';
import { readRecord } from '../core/index/generation-record.ts';
import { zlibCodec } from '../runtimes/node/index.ts';

const fixture = new RankingFixture();

beforeAll(async () => {
  await fixture.create({
    'src/Storage/Drafts.cs': cs('Storage', [
      'public sealed class Drafts',
      '{',
      '    /// <summary>Keeps the open draft persisted across restarts.</summary>',
      '    public void SaveDraft() { }',
      '',
      '    /// <summary>The user settings are persisted in the profile folder.</summary>',
      '    public void SaveSettings() { }',
      '',
      '    /// <summary>Writes the window layout so that it stays persisted.</summary>',
      '    [Obsolete]',
      '    public void SaveLayout() { }',
      '}',
    ].join('\n')),
    'src/Orders/OrderStore.cs': cs('Orders', 'public sealed class OrderStore\n{\n    public void SaveOrder(object cart)\n    {\n        var json = Serialize(cart);\n        Write(json);\n    }\n}'),
    'src/Ui/Summary.cs': cs('Ui', 'public sealed class Summary\n{\n    // the lines of the cart, the cart total, the cart count\n    public int Lines => 0;\n}'),
    ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i}; // nothing to see\n}`)])),
  });
}, 120_000);
afterAll(() => fixture.close());

const question = 'where is the cart persisted';

describe('learned_terms', () => {
  it('links a documented word to the name parts it documents, not to the ones it merely meets', () => {
    const c = new PairCounter();
    const lines = ['/// <summary>Keeps it persisted.</summary>', 'void SaveA() {}', '/// the state is persisted', 'void SaveB() {}', '// persisted here', 'void SaveC() {}', 'void LoadD() {}'];
    c.addFile(lines, [2, 4, 6, 7].map((l, i) => ({ kind: 'method', name: ['SaveA', 'SaveB', 'SaveC', 'LoadD'][i], start_line: l, end_line: l })));
    expect(crudeStem('persisted')).toBe('persist');
    expect(c.learned().get('persist')?.[0]?.[0]).toBe('save');
    expect(c.learned().get('persist')?.some(([p]) => p === 'load')).toBe(false);
  });

  const rank = (hits: ReadonlyArray<{ path: string }>, path: string) => hits.findIndex((h) => h.path === path);

  it('ranks the summary above the store when off', async () => {
    const off = await (await fixture.open({ learned_terms: 0 })).search({ query: question });
    expect(rank(off.hits, 'src/Ui/Summary.cs')).toBeGreaterThanOrEqual(0);
    expect(rank(off.hits, 'src/Ui/Summary.cs')).toBeLessThan(rank(off.hits, 'src/Orders/OrderStore.cs'));
  });

  it('ranks the undocumented SaveOrder above the summary when on, and explain names the learned term', async () => {
    const ws = await fixture.open({ learned_terms: 2, learned_rare: 1 });
    const on = await ws.search({ query: question });
    const store = rank(on.hits, 'src/Orders/OrderStore.cs');
    expect(store).toBeGreaterThanOrEqual(0);
    expect(store).toBeLessThan(rank(on.hits, 'src/Ui/Summary.cs'));
    const ex = (await ws.explain(on.hits[store].hit_id)).explanation;
    expect(ex?.learned_terms?.[0]).toMatch(/^save←persisted/);
    expect(ex?.fts?.neighbours).toContain('save←persisted');
  });

  it('leaves a symbol query alone', async () => {
    const ws = await fixture.open({ learned_terms: 2, learned_rare: 1 });
    const res = await ws.search({ query: 'OrderStore' });
    expect((await ws.explain(res.hits[0].hit_id)).explanation?.learned_terms).toBeUndefined();
  });

  it('is recorded by a whole-tree pass with the setting on, and renewed by the next pass', async () => {
    const ws = await fixture.open({ learned_terms: 2, learned_rare: 1 });
    const record = async () => (await ws.read((db) => readRecord(db, LEARNED_TERMS_TABLE, zlibCodec))).value;
    expect(await record()).toBeNull();
    await ws.index();
    expect(JSON.parse((await record())!)).toContainEqual(['persist', [['save', 1]]]);
    const docs = ['Flushes the queue to the remote side.', 'Flushes pending writes first.', 'Flushes what is left on close.'];
    fs.writeFileSync(path.join(fixture.root, 'src/Storage/Queue.cs'), cs('Storage', `public sealed class Queue\n{\n${docs.map((d, i) => `    /// <summary>${d}</summary>\n    public void Drain${i}() { }`).join('\n')}\n}`));
    await ws.index();
    const renewed = new Map(JSON.parse((await record())!) as Array<[string, Array<[string, number]>]>);
    expect(renewed.get('flush')?.[0]?.[0]).toBe('drain');
  });
});
