// factor_weights (core/search/rerank.ts factorWeights): exponents on rerank's named factors, in rows
// by query — `all`, the query type's row, `stated` for a question or mixed query not put as one — a
// factor f weighing f^w, shown in explain with its `weight`. Off by default ({}: every factor as
// computed). bench/rerank-fit.ts learns such exponents offline.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { factorWeights } from '../core/search/rerank.ts';
import { mentions, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

const SOURCE = 'src/Billing/InvoiceMath.cs';
const TEST = 'tests/Billing.Tests/InvoiceMathTests.cs';

beforeAll(async () => {
  w = await fixture.create({
    // The test says the word three times as often: only the test path penalty puts the source first.
    [SOURCE]: mentions('Billing', 'InvoiceMath', 'Apply', 'rounding', 2),
    [TEST]: mentions('Billing.Tests', 'InvoiceMathTests', 'AppliesHalfUp', 'rounding', 6),
    // Files without the word, so that it is a rare one.
    ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`src/Misc/Filler${i}.cs`, mentions('Misc', `Filler${i}`, `Run${i}`, 'loop', 1)])),
  });
}, 120_000);

afterAll(() => fixture.close());

const first = async (ws: HciWorkspace, query: string) => (await ws.search({ query })).hits[0];

describe('factor_weights', () => {
  it('off: the test path penalty puts the source first', async () => {
    expect((await first(w, 'rounding')).path).toBe(SOURCE);
    const test = (await w.search({ query: 'rounding' })).hits.find((h) => h.path === TEST)!;
    const factor = ((await w.explain(test.hit_id)).explanation?.factors ?? []).find((f) => f.name === 'test_path_penalty');
    expect(factor?.factor).toBeLessThan(1);
    expect(factor?.weight).toBeUndefined();
  });

  it('an exponent of 0 takes a factor out; explain shows it with its weight', async () => {
    const ws = await fixture.open({ factor_weights: { all: { test_path_penalty: 0 } } });
    const top = await first(ws, 'rounding');
    expect(top.path).toBe(TEST);
    expect((await ws.explain(top.hit_id)).explanation?.factors).toEqual(expect.arrayContaining([{ name: 'test_path_penalty', factor: 1, weight: 0 }]));
  });

  it('a row applies to its query type only; stated over the type for a query not put as one', async () => {
    const ws = await fixture.open({ factor_weights: { question: { test_path_penalty: 0 }, stated: { test_path_penalty: 1 } } });
    expect((await first(ws, 'rounding')).path).toBe(SOURCE);
    expect((await first(ws, 'how does rounding run')).path).toBe(TEST);
    expect((await first(ws, 'rounding steps run')).path).toBe(SOURCE);
  });

  it('rows merge factor by factor; raises and exponents of 1 are left out', () => {
    const rows = { all: { file_chunks: 2, declaration: 0, exact_text: 1 }, mixed: { file_chunks: 0.5 }, stated: { dead_code: 3 } };
    expect([...factorWeights(rows, 'symbol', false)]).toEqual([['file_chunks', 2]]);
    expect([...factorWeights(rows, 'mixed', false)]).toEqual([['file_chunks', 0.5]]);
    expect([...factorWeights(rows, 'mixed', true)]).toEqual([['file_chunks', 0.5], ['dead_code', 3]]);
  });
});
