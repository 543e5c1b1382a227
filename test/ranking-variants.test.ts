// Variants of one file (core/search/variants.ts, setting collapse_variants): the translations of a
// resource and the per-version copies of a docs page are listed as one file, led by the canonical
// variant (the file without a locale, else English; the current docs page). On a small fixture
// through the public calls (search, explain), checked against the setting off, and the grouping
// itself on lists of paths.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { variantGroups } from '../core/search/variants.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

/** A translation file: the same keys, an English fallback text for untranslated ones (`times` of them say the words). */
const strings = (lang: string, times: number, extra: Record<string, string> = {}) =>
  JSON.stringify({ ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`KEY_${i}`, i < times ? 'Follow the system language' : `Text in ${lang}`])), ...extra }, null, 2);

beforeAll(async () => {
  w = await fixture.create({
    // German, French and Polish still carry the English text more often than English itself says it.
    'src/App/Languages/de.json': strings('de', 4),
    'src/App/Languages/fr.json': strings('fr', 4),
    'src/App/Languages/pl.json': strings('pl', 4, { KEY_EXTRA: 'Sunflower' }),
    'src/App/Languages/en.json': strings('en', 1),
    'src/App/Settings/Preferences.cs': cs('Settings', 'public sealed class Preferences\n{\n    // the language is chosen here\n    public bool Enabled { get; set; }\n    public int Count { get; set; }\n}'),
    ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`src/App/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i};\n}`)])),
  });
}, 120_000);
afterAll(() => fixture.close());

describe('variant groups (collapse_variants)', () => {
  it('lists a resource and its translations as one file, led by the English one', async () => {
    const q = 'follow system language';
    const off = await (await fixture.open({ collapse_variants: false })).search({ query: q });
    const offFiles = [...new Set(off.hits.map((h) => h.path))];
    // Off: the translations fill the first places, English after them.
    expect(offFiles.slice(0, 3).sort()).toEqual(['src/App/Languages/de.json', 'src/App/Languages/fr.json', 'src/App/Languages/pl.json']);
    const on = await (await fixture.open({ collapse_variants: true })).search({ query: q });
    const onFiles = [...new Set(on.hits.map((h) => h.path))];
    expect(onFiles[0]).toBe('src/App/Languages/en.json');
    // Nothing is dropped: the other translations follow it.
    const translations = ['src/App/Languages/de.json', 'src/App/Languages/fr.json', 'src/App/Languages/pl.json'];
    expect(onFiles.filter((p) => translations.includes(p)).sort()).toEqual(translations);
    const ws = await fixture.open({ collapse_variants: true });
    const again = await ws.search({ query: q });
    const lead = (await ws.explain(again.hits[0].hit_id)).explanation?.factors ?? [];
    expect(lead.find((f) => f.name === 'canonical_variant')?.factor).toBeGreaterThan(1);
    const de = again.hits.find((h) => h.path === 'src/App/Languages/de.json')!;
    expect((await ws.explain(de.hit_id)).explanation?.factors).toContainEqual(expect.objectContaining({ name: 'variant_of_listed' }));
    // The shown scores keep the rank order.
    const scores = on.hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('lets the variant that holds more of the query lead its group', async () => {
    // Only the Polish file says "sunflower": it holds more of the query than English, and stays first.
    const ws = await fixture.open({ collapse_variants: true });
    const r = await ws.search({ query: 'follow system language sunflower' });
    expect(r.hits[0].path).toBe('src/App/Languages/pl.json');
    const en = r.hits.find((h) => h.path === 'src/App/Languages/en.json')!;
    const factors = (await ws.explain(en.hit_id)).explanation?.factors ?? [];
    expect(factors).not.toContainEqual(expect.objectContaining({ name: 'canonical_variant' }));
    expect(factors).toContainEqual(expect.objectContaining({ name: 'variant_of_listed' }));
  });

  it('groups translations by folder and name, with the canonical variant; docs pages by version', () => {
    const g = variantGroups([
      'Loc/de.json', 'Loc/fr-FR.json', 'Loc/pt-br.json', 'Loc/en.json', 'Loc/index.ts',
      'Res/Strings.resx', 'Res/Strings.de.resx', 'Res/Strings.zh-Hans.resx', 'Res/Strings.ru.resx',
      // Two locales are not a folder of translations; `ui` and `app` are no languages.
      'Two/de.json', 'Two/fr.json', 'Ui/ui.json', 'Ui/app.json', 'Ui/it.json',
      'website/docs/guide/start.md', 'website/versioned_docs/version-2.1.0/guide/start.md', 'website/versioned_docs/version-3.0.1/guide/start.md',
      'src/Api/v2.1/Client.cs',
    ]);
    expect(g.get('Loc/en.json')).toEqual({ key: 'Loc/{locale}.json', canonical: true });
    expect(g.get('Loc/pt-br.json')).toEqual({ key: 'Loc/{locale}.json', canonical: false });
    expect(g.get('Loc/fr-FR.json')?.canonical).toBe(false);
    expect(g.has('Loc/index.ts')).toBe(false);
    expect(g.get('Res/Strings.resx')).toEqual({ key: 'Res/Strings.{locale}.resx', canonical: true });
    expect(g.get('Res/Strings.zh-Hans.resx')).toEqual({ key: 'Res/Strings.{locale}.resx', canonical: false });
    for (const p of ['Two/de.json', 'Ui/ui.json', 'Ui/it.json', 'src/Api/v2.1/Client.cs']) expect(g.has(p)).toBe(false);
    expect(g.get('website/docs/guide/start.md')).toEqual({ key: 'v:website/docs/guide/start.md', canonical: true });
    expect(g.get('website/versioned_docs/version-3.0.1/guide/start.md')).toEqual({ key: 'v:website/docs/guide/start.md', canonical: false });
    // No canonical: the group's best candidate leads it.
    expect([...variantGroups(['L/de.json', 'L/fr.json', 'L/pl.json']).values()].every((v) => !v.canonical)).toBe(true);
  });
});
