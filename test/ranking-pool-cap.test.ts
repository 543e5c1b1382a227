// Setting pool_file_cap (issue 32; off by default): a file gives at most that many chunks to each
// pass's candidate pool, filled from channel lists four times as deep. Here twelve test files of
// fifteen methods each say "retry cancellation" in short chunks whose paths hold the words too: their
// 180 chunks outscore the one source file that handles it by BM25 and fill the first tier's pool
// (144 candidates at depth 10), so the source file — which the test role's factor would put first —
// never reaches the first tier's rerank and is listed 11th, from the next tier. With the cap the
// tests give six chunks each, the source file is a candidate, and ranks first; explain says the cap
// applied. (800 other files keep the two words rare: BM25's IDF.)
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const TARGET = 'src/Strategies/Runner.cs';
const fixture = new RankingFixture();
let off: HciWorkspace;
let on: HciWorkspace;

beforeAll(async () => {
  const files: Record<string, string> = {};
  for (let f = 0; f < 12; f++) {
    const methods = Array.from({ length: 15 }, (_, m) => `    public void Case${m}()\n    {\n        // retry cancellation ${m}: retry then cancellation\n        var a${m} = ${m};\n        var b${m} = a${m} + 1;\n        var c${m} = b${m} * 2;\n        Check(c${m});\n    }`).join('\n\n');
    files[`tests/Retry/RetryCancellationSpecs${f}.cs`] = cs('Specs', `public sealed class RetryCancellationSpecs${f}\n{\n${methods}\n}`);
  }
  // Other code, so that the two words are rare in the index (BM25's IDF).
  for (let f = 0; f < 800; f++) files[`src/Parts/Part${f}.cs`] = cs('Parts', `public sealed class Part${f}\n{\n    // the freight ${f} is weighed here\n}`);
  const body = Array.from({ length: 6 }, (_, i) => (i === 3 ? '        // on retry cancellation the loop stops at once' : `        // step ${i}: the attempt is scheduled and awaited here`)).join('\n');
  files[TARGET] = cs('Strategies', `public sealed class RetryRunner\n{\n    public void Execute()\n    {\n${body}\n    }\n}`);
  off = await fixture.create(files);
  on = await fixture.open({ pool_file_cap: 6 });
}, 180_000);

afterAll(() => fixture.close());

describe('pool_file_cap', () => {
  it('lets a file past many files\' many chunks reach rerank', async () => {
    const before = await off.search({ query: 'retry cancellation', limit: 10 });
    expect(before.hits.map((h) => h.path)).not.toContain(TARGET);
    const after = await on.search({ query: 'retry cancellation', limit: 10 });
    expect(after.hits[0].path).toBe(TARGET);
    const e = (await on.explain(after.hits[0].hit_id)).explanation;
    expect(e?.pool_file_cap).toBe(6);
    expect((await off.explain(before.hits[0].hit_id)).explanation?.pool_file_cap).toBeUndefined();
  });

  it('changes nothing where no file fills the pool', async () => {
    const q = { query: 'attempt scheduled awaited', limit: 10 };
    expect((await on.search(q)).hits.map((h) => h.path)).toEqual((await off.search(q)).hits.map((h) => h.path));
  });
});
