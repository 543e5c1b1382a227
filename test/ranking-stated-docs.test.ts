// stated_docs_factor (core/search/rerank.ts): a query stated, not asked — a commit subject, a
// paraphrase (query-type.ts: a question or mixed query whose first word does not ask) — names a
// change to code, so a docs page weighs this factor on top of docs_path_penalty (factor
// `stated_docs`); a question put as one ("how do I …") and a query that names docs are left alone.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

beforeAll(async () => {
  w = await fixture.create({
    // The guide says every word of the subject in prose, twice; the code holds them in its names.
    'website/docs/parsing-durations.mdx': '# Duration parser validation\n\nTighten the duration parser validation in your own code.\n',
    'src/Durations/DurationParser.cs': cs('Durations', 'public static class DurationParser\n{\n    // validation of the input\n    public static bool TryParse(string text, out int seconds) { seconds = 0; return text.Length > 0; }\n}'),
    ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i};\n}`)])),
  });
}, 120_000);

afterAll(() => fixture.close());

const factorNames = async (ws: HciWorkspace, hitId: string) => ((await ws.explain(hitId)).explanation?.factors ?? []).map((f) => f.name);

describe('stated_docs_factor', () => {
  it('off (1): the docs page that says every word of a commit subject leads the code it changed', async () => {
    const r = await w.search({ query: 'tighten duration parser validation' });
    expect(r.hits[0].path).toBe('website/docs/parsing-durations.mdx');
  });

  it('on: a stated query puts the code first; the docs page shows the factor', async () => {
    const ws = await fixture.open({ stated_docs_factor: 0.5 });
    const r = await ws.search({ query: 'tighten duration parser validation' });
    expect(r.hits[0].path).toBe('src/Durations/DurationParser.cs');
    const page = r.hits.find((h) => h.path === 'website/docs/parsing-durations.mdx')!;
    expect(await factorNames(ws, page.hit_id)).toContain('stated_docs');
    // A question put as one, and a query that names docs, are left alone.
    const asked = await ws.search({ query: 'how do I tighten duration parser validation' });
    const askedPage = asked.hits.find((h) => h.path === 'website/docs/parsing-durations.mdx')!;
    expect(await factorNames(ws, askedPage.hit_id)).not.toContain('stated_docs');
    const named = await ws.search({ query: 'document duration parser validation docs' });
    const namedPage = named.hits.find((h) => h.path === 'website/docs/parsing-durations.mdx')!;
    expect(await factorNames(ws, namedPage.hit_id)).not.toContain('stated_docs');
  });
});
