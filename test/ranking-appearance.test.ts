// Noise and appearance in rerank (issue 32), on a small fixture through search and explain: a question
// about how something looks ranks the stylesheet and the XAML style above the component's code
// (style_query_boost, explain `style_query`; off by default: measured, it lost more than it gained), and vendored third-party code ranks with generated code
// below the repository's own (generated_path_penalty, role `generated` "vendored under …").
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { appearanceWords, isStyleChunk } from '../core/search/appearance.ts';
import { parseQuery } from '../core/search/query.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

beforeAll(async () => {
  w = await fixture.create({
    // The component names itself and says "badge" far more often than its stylesheet does.
    'src/Components/Badge.razor.cs': cs('Components', `public partial class Badge\n{\n${Array.from({ length: 10 }, (_, i) => `    // badge part ${i}: the badge renders its content and a badge border`).join('\n')}\n    public string Text { get; set; } = "";\n}`),
    'src/Styles/_badge.scss': '.badge {\n  border: 1px solid var(--line);\n  border-radius: 4px;\n  padding: 0 4px;\n}\n',
    'src/Themes/BadgeStyles.axaml': '<Styles xmlns="https://github.com/avaloniaui">\n  <Style Selector="Border.badge">\n    <Setter Property="BorderThickness" Value="1" />\n  </Style>\n</Styles>\n',
    // The same helper twice: the repository's own, and a vendored copy that says the word more.
    'src/Util/Throttle.cs': cs('Util', 'public static class Throttle\n{\n    // debounce the calls: a debounce of 50 ms\n    public static void Run() { }\n}'),
    'web/vendor/lodash/wait.js': '// debounce the calls, a debounce per key\nfunction wait() {}\n',
    ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i}; // nothing to see\n}`)])),
  });
});

afterAll(() => fixture.close());

describe('appearance questions (style_query_boost)', () => {
  it('ranks a stylesheet above the component’s code for a question about how it looks, and explain names the factor', async () => {
    const q = 'badge border';
    const on = await fixture.open({ style_query_boost: 1.5 });
    const r = await on.search({ query: q, limit: 5 });
    const styles = ['src/Styles/_badge.scss', 'src/Themes/BadgeStyles.axaml'];
    expect(styles).toContain(r.hits[0].path);
    expect(styles).toContain(r.hits[1].path);
    const e = await on.explain(r.hits[0].hit_id, { query: q });
    expect(e.explanation?.factors).toContainEqual({ name: 'style_query', factor: 1.5 });
    // Off by default (1): measured, it lost on more repositories than it gained.
    const off = await w.search({ query: q, limit: 5 });
    expect(off.hits[0].path).toBe('src/Components/Badge.razor.cs');
    // A question about something else weighs styles as any other file.
    const other = await on.search({ query: 'badge text', limit: 5 });
    for (const h of other.hits) expect((await on.explain(h.hit_id, { query: 'badge text' })).explanation?.factors?.some((f) => f.name === 'style_query')).toBe(false);
  });

  it('knows the appearance words and the style chunks', () => {
    expect(appearanceWords(parseQuery("Don't use margin around ContentDialog"))).toEqual(['margin']);
    expect(appearanceWords(parseQuery('Hide blue tap highlight on mobile'))).toEqual(['blue', 'highlight']);
    expect(appearanceWords(parseQuery('ButtonBorderBrush'))).toEqual(['border', 'brush']);
    expect(appearanceWords(parseQuery('retry failed payments'))).toEqual([]);
    expect(isStyleChunk({ lang: 'scss', symbolKind: null })).toBe(true);
    expect(isStyleChunk({ lang: 'axaml', symbolKind: 'style' })).toBe(true);
    expect(isStyleChunk({ lang: 'axaml', symbolKind: 'control' })).toBe(false);
    expect(isStyleChunk({ lang: 'csharp', symbolKind: 'class' })).toBe(false);
  });
});

describe('vendored code is noise', () => {
  it('weighs a vendored copy as generated code, below the repository’s own', async () => {
    const r = await w.search({ query: 'debounce', limit: 5 });
    expect(r.hits[0].path).toBe('src/Util/Throttle.cs');
    const vendored = r.hits.find((h) => h.path === 'web/vendor/lodash/wait.js')!;
    const e = await w.explain(vendored.hit_id, { query: 'debounce' });
    expect(e.explanation?.role).toMatchObject({ role: 'generated', because: 'vendored under vendor/' });
    const off = await (await fixture.open({ generated_path_penalty: 1 })).search({ query: 'debounce', limit: 5 });
    expect(off.hits[0].path).toBe('web/vendor/lodash/wait.js');
  });
});
