// Definition-first among declarations of one name (rerank.ts DECLARATION_TIER `shape`, `ambient`):
// TypeScript's declaration merging puts an interface beside the class of the same name (`interface
// Cheerio<T>` adds the API modules' methods to `abstract class Cheerio<T>`); a JavaScript library's
// hand-written typings (`types/index.d.ts`) declare what its code implements. The implementation is
// the answer to the name, although the interface's or the typings' short chunk scores higher on
// BM25; a name only the typings declare is still theirs.
// @lane unit
import { it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

/** A class whose members never say its name, then an interface of the same name that says it twice. */
function merged(name: string): string {
  const methods = Array.from({ length: 12 }, (_, i) => `  /** Step ${i} of the run. */\n  step${i}(input: number): number {\n    const next = input + ${i};\n    return this.limit(next);\n  }\n`).join('\n');
  return `/** The runner every plugin extends. */\nexport abstract class ${name}<T> implements Iterable<T> {\n  length = 0;\n\n  abstract limit(n: number): number;\n\n${methods}}\n\n/** Methods the plugins add to ${name}. */\nexport interface ${name}<T> extends Iterable<T> {\n  extra(this: ${name}<T>): void;\n}\n`;
}

beforeAll(async () => {
  w = await fixture.create({
    'src/plotter.ts': merged('Plotter'),
    'src/use.ts': `import { Plotter } from './plotter.js';\n\nexport function run(p: Plotter<number>): number {\n  return p.length;\n}\n`,
    // A JavaScript library: a prototype object's method and a constructor function, and typings of both.
    'lib/base.js': `export function Env(helpers) {\n  this.helpers = helpers || {};\n}\n\nEnv.prototype = {\n  constructor: Env,\n\n${Array.from({ length: 8 }, (_, i) => `  step${i}: function (value) {\n    this.helpers.step${i} = value;\n    return this;\n  },\n`).join('\n')}\n  registerWidget: function (name, widget) {\n    if (!name) {\n      throw new Error('a widget needs a name');\n    }\n    this.helpers[name] = widget;\n  },\n};\n`,
    'lib/badge.js': `// A label drawn over a widget.\nfunction Badge(text) {\n  this.text = text;\n}\n\nBadge.prototype.toString = function () {\n  return '' + this.text;\n};\n\nexport default Badge;\n`,
    'types/index.d.ts': `declare namespace Lib {\n  /** Registers a widget by name. */\n  function registerWidget(name: string, widget: Widget): void;\n\n  /** A label (see Badge). */\n  class Badge {\n    constructor(text: string);\n  }\n\n  interface Widget {\n    draw(): string;\n  }\n}\n\nexport = Lib;\n`,
  });
});

afterAll(() => fixture.close());

it('a class and an interface of one name: the class declaration is the first hit', async () => {
  const r = await w.search({ query: 'Plotter', limit: 5 });
  const first = r.hits[0];
  expect(first?.path).toBe('src/plotter.ts');
  expect(first.start_line, `${first.start_line}-${first.end_line}`).toBeLessThanOrEqual(2);
  const e = await w.explain(first.hit_id, { query: 'Plotter' });
  expect(JSON.stringify(e)).toContain('"kind":"class"');
});

it('typings and the code they describe: the code declares the name first; a name only typings declare stays theirs', async () => {
  for (const [query, want] of [['registerWidget', 'lib/base.js'], ['Badge', 'lib/badge.js'], ['Widget', 'types/index.d.ts']] as const) {
    const r = await w.search({ query, limit: 5 });
    expect(r.hits[0]?.path, `${query}: ${r.hits.map((h) => `${h.path}:${h.start_line}`).join(', ')}`).toBe(want);
  }
});
