// Where a declaration is (core/search/file-facts.ts nameLine, declarations.ts): an outline symbol's
// range starts at its doc comments and attributes, and those may name it — a doc comment
// (`/// Gauge shows one value.`) or a commented-out copy of an older declaration
// (`// public class Gauge : LegacyGauge { }`). The declaration's name line is the first line
// that names it outside comments: else the doc comment's line stood for the declaration, and a
// commented-out copy's (a dead line) dropped the declaration altogether, so the type's own name
// did not reach it. Real files in a temp folder, the real WASM SQLite, the product's search.
// @lane unit
import { describe, it, expect, afterAll } from 'vitest';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { findDeclarations } from '../core/search/declarations.ts';

const fixture = new RankingFixture();
afterAll(() => fixture.close());

/** A class with `n` members, each a few lines (so a file has several chunks). */
const members = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `    public int ${prefix}${i}(int x)\n    {\n        var y = x * ${i};\n        return y + ${i};\n    }\n`).join('\n');

describe('a declaration\'s name line', () => {
  it('is the line that declares the name, not a doc comment or a commented-out copy above it', async () => {
    const gauge = cs('Gauges', [
      '// public class Gauge : LegacyGauge { }',
      '/// <summary>',
      '/// Gauge shows one value.',
      '/// </summary>',
      'public sealed class Gauge',
      '{',
      members('Step', 12),
      '}',
    ].join('\n'));
    const ws = await fixture.create({
      'src/Gauges/Gauge.cs': gauge,
      // Usages of the name elsewhere, so that the declaration must be found to rank first.
      ...Object.fromEntries(Array.from({ length: 6 }, (_, k) => [`src/Panels/Panel${k}.cs`, cs('Panels', `public sealed class Panel${k}\n{\n    public Gauge Gauge { get; } = new Gauge();\n    public Gauge Other() => new Gauge();\n}`)])),
    });
    const declLine = gauge.split('\n').indexOf('public sealed class Gauge') + 1;
    const { session } = await ws.searcher();
    const files = session.db.selectArrays('SELECT id, hash, path, lang FROM files ORDER BY id') as Array<[number, string, string, string]>;
    const found = session.withPathFilter(null, () => findDeclarations(session, ['Gauge'], files.map(([fileId, hash, path, lang]) => ({ fileId: Number(fileId), hash, path, lang }))));
    expect(found.filter((d) => d.level === 'type').map((d) => [d.name, d.line])).toEqual([['Gauge', declLine]]);
    const page = await ws.search({ query: 'Gauge' });
    const top = page.hits[0];
    expect(top.path).toBe('src/Gauges/Gauge.cs');
    expect(top.start_line <= declLine && declLine <= top.end_line).toBe(true);
  });
});
