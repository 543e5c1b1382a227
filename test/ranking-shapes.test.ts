// Definition-first among declarations of one name (rerank.ts DECLARATION_TIER `shape`): TypeScript's
// declaration merging puts an interface beside the class of the same name (`interface Cheerio<T>`
// adds the API modules' methods to `abstract class Cheerio<T>`); the class, the implementation, is
// the answer to the name, although the interface's short chunk scores higher on BM25.
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
