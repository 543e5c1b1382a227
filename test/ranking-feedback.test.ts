// Ranking mechanisms added for commit-subject and pasted-message queries, each on a small fixture
// through the public calls (search, explain) and each checked to change an answer the search gives
// without it (its setting off): quoted literals that no chunk holds with the other words fall back to
// a keyword search of the same words (quoted_literal_fallback); a `Scope: …` prefix weighs the
// files named or foldered after the scope (scope_match_boost); identifier parts weigh as much as
// body words in BM25 (the idents column weight).
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

beforeAll(async () => {
  w = await fixture.create({
    // The pager prints its empty range as "0 - 0 of 0" (spaces): the pasted subject quotes "0-0 of 0".
    'src/Grid/GridPager.cs': cs('Grid', 'public sealed class GridPager\n{\n    // when there are no items the pager shows an empty range\n    public string Range(int items) => items == 0 ? "0 - 0 of 0" : $"1 - {items} of {items}";\n}'),
    // Scope: a form resets its value in many words; the date picker names itself and resets once
    // (both hold every word of the query, so coverage weighs them alike).
    'src/Pickers/DatePicker.cs': cs('Pickers', 'public sealed class DatePicker\n{\n    public string Text { get; set; } = "";\n    public void Clear() => Text = ""; // reset the value\n}'),
    'src/Forms/Form.cs': cs('Forms', 'public sealed class Form\n{\n    // reset the value of every field, a date picker value too\n    // reset: the value goes back\n    // reset the date picker value first\n    public void Reset() { } // reset value\n}'),
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i}; // nothing to see\n}`)])),
    // Identifier parts: one file names the behaviour as an identifier, another says its words in a comment.
    'src/Lists/ListBox.cs': cs('Lists', 'public sealed class ListBox\n{\n    public bool ClearSelectionOnEscapeEnabled { get; set; } = true;\n    private bool _open;\n    private void OnKey(string key) { if (key == "Esc") ClearSelectionOnEscape(); }\n    private void ClearSelectionOnEscape() => _open = false;\n}'),
    'src/Lists/KeyNotes.cs': cs('Lists', 'public sealed class KeyNotes\n{\n    // keys: clear the selection, then escape\n    public int Count => 1;\n}'),
    'src/Grid/GridRows.cs': cs('Grid', 'public sealed class GridRows\n{\n    public int Count(int items) => items;\n}'),
  });
}, 120_000);
afterAll(() => fixture.close());

describe('quoted literals among other words', () => {
  it('searches the words as keywords when no chunk holds the quoted text with them, and says so in the hint', async () => {
    const q = 'GridPager: when no items, pager now shows "0-0 of 0"';
    const off = await (await fixture.open({ quoted_literal_fallback: false })).search({ query: q });
    expect(off).toMatchObject({ status: 'empty', mode: 'literal' });
    const on = await w.search({ query: q });
    expect(on).toMatchObject({ status: 'ok', mode: 'keyword' });
    expect(on.hits[0].path).toBe('src/Grid/GridPager.cs');
    expect(on.hint).toMatch(/same words as search terms/);
    // A quoted literal that matches stays a literal search; a lone quoted literal that matches nothing stays empty.
    expect(await w.search({ query: 'pager "0 - 0 of 0"' })).toMatchObject({ status: 'ok', mode: 'literal' });
    expect(await w.search({ query: '"0-0 of 0"' })).toMatchObject({ status: 'empty', mode: 'literal' });
  });
});

describe('the scope of a commit-style query', () => {
  it('weighs files foldered or named after a leading "Scope:" and shows query_scope in explain', async () => {
    const q = 'Pickers: reset value';
    const plain = await (await fixture.open({ scope_match_boost: 1 })).search({ query: q });
    expect(plain.hits[0].path).toBe('src/Forms/Form.cs');
    const sw = await fixture.open({ scope_match_boost: 2 });
    const scoped = await sw.search({ query: q });
    expect(scoped.hits[0].path).toBe('src/Pickers/DatePicker.cs');
    const x = await sw.explain(scoped.hits[0].hit_id);
    expect(x.explanation?.factors).toContainEqual({ name: 'query_scope', factor: 2 });
    // The default factor is 1.3, and only files in the scope get it.
    const d = await w.search({ query: q });
    const factors = async (path: string) => (await w.explain(d.hits.find((h) => h.path === path)!.hit_id)).explanation?.factors;
    expect(await factors('src/Pickers/DatePicker.cs')).toContainEqual({ name: 'query_scope', factor: 1.3 });
    expect(await factors('src/Forms/Form.cs')).not.toContainEqual(expect.objectContaining({ name: 'query_scope' }));
    // A part of the file name is a scope too ("Picker:" → DatePicker.cs); words without the colon are none.
    expect((await sw.search({ query: 'Picker: reset value' })).hits[0].path).toBe('src/Pickers/DatePicker.cs');
    expect((await sw.search({ query: 'pickers reset value' })).hits[0].path).toBe('src/Forms/Form.cs');
  });
});

describe('identifier parts in BM25', () => {
  it('ranks the code that names the words as an identifier above a comment that says them (idents weighs as body)', async () => {
    const r = await w.search({ query: 'clear selection escape' });
    expect(r.hits[0].path).toBe('src/Lists/ListBox.cs');
    const x = await w.explain(r.hits[0].hit_id);
    expect(x.explanation?.channels?.fts).toMatchObject({ column_weights: { idents: 1, body: 1 } });
  });
});
