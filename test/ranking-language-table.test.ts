// Ranking reads languages from the language table, not from lists of names of its own: which
// comments a language has (commented-out code, core/search/dead-code.ts) is its row's `comments`, and
// whether its chunks style something (appearance questions, core/search/appearance.ts) its row's
// `stylesheet`. Every row is checked, so a new row gets both by its fields alone — as a language name
// list in ranking (csharp, razor, …, and names no row has: less, sass, xml) did not.
// @lane unit
import { describe, it, expect } from 'vitest';
import { LANGUAGES } from '../core/languages/table.ts';
import { deadLines } from '../core/search/dead-code.ts';
import { isStyleChunk } from '../core/search/appearance.ts';

/** One commented-out line of each syntax, then one live line. */
const SAMPLES = {
  c: ['// Tear(); ', 'Live();'],
  markup: ['<!-- <Button Content="Old" /> -->', '<Button Content="New" />'],
  razor: ['@* <MudText>Old</MudText> *@', '<MudText>New</MudText>'],
} as const;

describe('ranking reads languages from the language table', () => {
  it('marks commented-out code dead in exactly the syntaxes a row declares', () => {
    const declared = { c: 0, markup: 0, razor: 0 };
    for (const row of LANGUAGES) {
      for (const [syntax, lines] of Object.entries(SAMPLES) as Array<[keyof typeof SAMPLES, readonly string[]]>) {
        const has = row.comments?.includes(syntax) ?? false;
        if (has) declared[syntax]++;
        expect([...deadLines(lines, row.id)], `${row.id}: ${syntax}`).toEqual([has ? 1 : 0, 0]);
      }
    }
    // C#, the scripts and the stylesheets have C comments; the markup languages and Razor theirs.
    expect(declared).toEqual({ c: 8, markup: 5, razor: 1 });
    expect([...deadLines(SAMPLES.c, 'text')]).toEqual([0, 0]);
  });

  it('counts every chunk of a stylesheet row, and only those, as styling', () => {
    const sheets = LANGUAGES.filter((r) => r.stylesheet).map((r) => r.id);
    expect(sheets).toEqual(['css', 'scss']);
    for (const row of LANGUAGES) expect(isStyleChunk({ lang: row.id, symbolKind: 'method' }), row.id).toBe(row.stylesheet === true);
    expect(isStyleChunk({ lang: 'axaml', symbolKind: 'style' })).toBe(true);
  });
});
