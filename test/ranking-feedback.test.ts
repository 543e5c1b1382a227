// Ranking mechanisms added for commit-subject and pasted-message queries, each on a small fixture
// through the public calls (search, explain) and each checked to change an answer the search gives
// without it (its setting off): quoted literals that no chunk holds with the other words fall back to
// a keyword search of the same words (quoted_literal_fallback).
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

beforeAll(async () => {
  w = await fixture.create({
    // The pager prints its empty range as "0 - 0 of 0" (spaces): the pasted subject quotes "0-0 of 0".
    'src/Grid/GridPager.cs': cs('Grid', 'public sealed class GridPager\n{\n    // when there are no items the pager shows an empty range\n    public string Range(int items) => items == 0 ? "0 - 0 of 0" : $"1 - {items} of {items}";\n}'),
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
    expect(on.hint).toMatch(/keyword search of the same words/);
    // A quoted literal that matches stays a literal search; a lone quoted literal that matches nothing stays empty.
    expect(await w.search({ query: 'pager "0 - 0 of 0"' })).toMatchObject({ status: 'ok', mode: 'literal' });
    expect(await w.search({ query: '"0-0 of 0"' })).toMatchObject({ status: 'empty', mode: 'literal' });
  });
});
