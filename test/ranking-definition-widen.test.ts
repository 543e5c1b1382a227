// Definition widening (core/search/definition-widen.ts, setting definition_widen): a short query that
// names an identifier among other words, whose every word more chunks hold than the ranking's depth
// (so the any-term pass never runs), still reaches the chunk that defines the identifier without
// those words — at the first tier, on the first page — and explain says which stage added it.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { parseQuery } from '../core/search/query.ts';
import { targetClauses } from '../core/search/definition-widen.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

beforeAll(async () => {
  const files: Record<string, string> = {
    // The definition: holds the name, not "throttle" or "policy".
    'src/Limits.cs': cs('Net', 'public static class Limits\n{\n    public static int RetryBudget { get; } = 3;\n    public static int PageSize { get; } = 50;\n}'),
  };
  // Other code, so that the query's words are rare ones.
  for (let i = 0; i < 40; i++) files[`src/Other/Part${i}.cs`] = cs('Other', `public sealed class Part${i}\n{\n    public int Size() => ${i};\n}`);
  // More usages holding every word of the query than the ranking's depth (10), in long methods.
  const steps = Array.from({ length: 40 }, (_, j) => `        n += Step(${j});`).join('\n');
  for (let i = 0; i < 14; i++) {
    files[`src/Clients/Client${i}.cs`] = cs('Net', `public sealed class Client${i}\n{\n    public int Attempts()\n    {\n        // the throttle policy caps retries at Limits.RetryBudget\n        var n = Limits.RetryBudget + ${i};\n${steps}\n        return n;\n    }\n}`);
  }
  w = await fixture.create(files);
});

afterAll(() => fixture.close());

const QUERY = 'RetryBudget throttle policy';

describe('definition widening (definition_widen)', () => {
  it('reaches the defining chunk that lacks the other words, on the first page, and explain names the stage', async () => {
    const r = await w.search({ query: QUERY, limit: 8 });
    expect(r.status).toBe('ok');
    expect(r.hits[0].path).toBe('src/Limits.cs');
    const e = await w.explain(r.hits[0].hit_id, { query: QUERY });
    const fts = (e.explanation?.channels as Record<string, Record<string, unknown>> | undefined)?.fts;
    expect(fts?.added).toBe('definition_widen');
    expect(fts?.terms).toBe('any');
    expect(e.explanation?.factors?.some((f) => f.name === 'definition_like')).toBe(true);
    // The page stays full and says more exist.
    expect(r.hits).toHaveLength(8);
    expect(r.next_cursor).toBeTruthy();
  });

  it('without it the first page holds only the usages', async () => {
    const off = await fixture.open({ definition_widen: 0 });
    const r = await off.search({ query: QUERY, limit: 8 });
    expect(r.hits).toHaveLength(8);
    expect(r.hits.some((h) => h.path === 'src/Limits.cs')).toBe(false);
  });

  it('targets only identifiers of a short query', () => {
    const words = (q: string) => targetClauses(parseQuery(q)).map((c) => (c.kind === 'word' ? c.token : ''));
    expect(words(QUERY)).toEqual(['retrybudget']);
    expect(words('retry throttle policy')).toEqual([]);
    expect(words('where does the RetryBudget throttle policy apply')).toEqual([]);
  });
});
