// File-level evidence in rerank (core/search/file-evidence.ts), on a small fixture through the public
// calls (search, explain), each checked to change the answer against its setting off: the share of
// the query's words that a file's candidates hold together (query_coverage, coverage_boost) and a
// bonus for a file's several matching chunks (file_chunks, file_chunks_bonus), and coverage read from each
// file's best chunks only (coverage_chunks). Chunks of 12 lines,
// so one file's words fall into different chunks.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { coverageWords } from '../core/search/file-evidence.ts';
import { parseQuery } from '../core/search/query.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

/** `lines` comment lines of a method body, the first `n` of them saying `word`. */
const steps = (word: string, n: number, lines: number) =>
  Array.from({ length: lines }, (_, i) => `        // step ${i}: ${i < n ? `the ${word} is posted` : 'nothing special'}`).join('\n');
const notes = Array.from({ length: 12 }, (_, i) => `    // note ${i}: the accents are shared`).join('\n');

beforeAll(async () => {
  w = await fixture.create({
    // Coverage: the slider class names "slider" and "thumb" in its path, name and member keys (the
    // heavy columns); the theme file says "slider thumb" in one chunk and "color" in another.
    'src/Controls/Slider.cs': cs('Controls', 'public sealed class Slider\n{\n    public double Value { get; set; }\n    public double DragThumb(double x) => x;\n    public void MoveThumb(double by) { Value += by; }\n    public void ResetThumb() { Value = 0; }\n}'),
    'src/Themes/Accents.cs': cs('Themes', `public sealed class Accents\n{\n    // the slider thumb is drawn with the accent: a slider thumb, pressed or not (the slider thumb of every slider)\n    public string ThumbFill()\n    {\n${notes}\n        return "accent";\n    }\n\n    // every accent color comes from the palette\n    public string Tint(string name)\n    {\n${notes}\n        return name;\n    }\n}`),
    // Several chunks: the journal's one method says "ledger" a little more densely than each of the books' three.
    'src/Accounts/Journal.cs': cs('Accounts', `public sealed class Journal\n{\n    public void Post()\n    {\n${steps('ledger', 2, 8)}\n    }\n}`),
    'src/Accounts/Books.cs': cs('Accounts', ['Open', 'Close', 'Audit'].map((m) => `    public void ${m}()\n    {\n${steps('ledger', 2, 10)}\n    }`).join('\n\n').replace(/^/, 'public sealed class Books\n{\n') + '\n}'),
    ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i}; // nothing to see\n}`)])),
  }, { chunk_lines: 12, chunk_overlap_lines: 0 });
}, 120_000);
afterAll(() => fixture.close());

const factorsOf = async (ws: HciWorkspace, hitId: string) => (await ws.explain(hitId)).explanation?.factors ?? [];

describe('query coverage', () => {
  it('ranks the file whose chunks hold every query word together above one whose heavy columns hold some (coverage_boost)', async () => {
    const q = 'slider thumb color';
    const off = await (await fixture.open({ coverage_boost: 0 })).search({ query: q });
    expect(off.hits[0].path).toBe('src/Controls/Slider.cs');
    const on = await w.search({ query: q });
    expect(on.hits[0].path).toBe('src/Themes/Accents.cs');
    // The first chunk holds "slider" and "thumb" only: the file's other chunk brings "color" (the share is the file's).
    expect(on.hits[0].start_line).toBe(1);
    expect(on.hits[0].end_line).toBeLessThan(20);
    // Every word: (1 + coverage_boost) = 4 by default.
    expect(await factorsOf(w, on.hits[0].hit_id)).toContainEqual({ name: 'query_coverage', factor: 4 });
    // Two of three words: 4^(2/3).
    const slider = on.hits.find((h) => h.path === 'src/Controls/Slider.cs')!;
    const f = (await factorsOf(w, slider.hit_id)).find((x) => x.name === 'query_coverage');
    expect(f?.factor).toBeCloseTo(Math.pow(4, 2 / 3), 6);
  });

  it('counts only each file\'s best chunks with coverage_chunks (a long file\'s many chunks hold every word somewhere), of long files only with coverage_long_file', async () => {
    // Accents' best chunk says "slider thumb"; "color" is in its other chunk, which one chunk no longer reaches.
    const ws = await fixture.open({ coverage_chunks: 1 });
    const on = await ws.search({ query: 'slider thumb color' });
    const accents = on.hits.find((h) => h.path === 'src/Themes/Accents.cs')!;
    const f = (await factorsOf(ws, accents.hit_id)).find((x) => x.name === 'query_coverage');
    expect(f?.factor).toBeCloseTo(Math.pow(4, 2 / 3), 6);
    expect(on.hits[0].path).toBe('src/Controls/Slider.cs');
    // With coverage_long_file only a file of more chunks than that is read so: Accents' few chunks are not.
    const short = await fixture.open({ coverage_chunks: 1, coverage_long_file: 50 });
    const all = await short.search({ query: 'slider thumb color' });
    expect(all.hits[0].path).toBe('src/Themes/Accents.cs');
    expect(await factorsOf(short, all.hits[0].hit_id)).toContainEqual({ name: 'query_coverage', factor: 4 });
    const long = await fixture.open({ coverage_chunks: 1, coverage_long_file: 1 });
    const capped = (await long.search({ query: 'slider thumb color' })).hits.find((h) => h.path === 'src/Themes/Accents.cs')!;
    expect((await factorsOf(long, capped.hit_id)).find((x) => x.name === 'query_coverage')?.factor).toBeCloseTo(Math.pow(4, 2 / 3), 6);
  });

  it('leaves a one-word query alone and counts the words of 3+ letters, inflections trimmed', async () => {
    const r = await w.search({ query: 'thumb' });
    for (const h of r.hits) expect(await factorsOf(w, h.hit_id)).not.toContainEqual(expect.objectContaining({ name: 'query_coverage' }));
    expect(coverageWords(parseQuery('Keep visible while hovered or touched'))).toEqual(['keep', 'visible', 'while', 'hover', 'touch']);
    expect(coverageWords(parseQuery('Fix IR crash'))).toEqual(['fix', 'crash']);
    expect(coverageWords(parseQuery('AddMudServices'))).toEqual([]);
  });
});

describe('several matching chunks of one file', () => {
  it('lifts a file with several matching chunks above one with a single, slightly better chunk (file_chunks_bonus)', async () => {
    const off = await (await fixture.open({ file_chunks_bonus: 0 })).search({ query: 'ledger' });
    expect(off.hits[0].path).toBe('src/Accounts/Journal.cs');
    const on = await w.search({ query: 'ledger' });
    expect(on.hits[0].path).toBe('src/Accounts/Books.cs');
    const f = (await factorsOf(w, on.hits[0].hit_id)).find((x) => x.name === 'file_chunks');
    // Two other chunks, each nearly as good as the best: about 1 + 0.03 × 2.
    expect(f?.factor).toBeGreaterThan(1.04);
    expect(f?.factor).toBeLessThanOrEqual(1 + 0.03 * 5);
    const journal = on.hits.find((h) => h.path === 'src/Accounts/Journal.cs')!;
    expect(await factorsOf(w, journal.hit_id)).not.toContainEqual(expect.objectContaining({ name: 'file_chunks' }));
    // The shown scores keep the rank order.
    const scores = on.hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });
});
