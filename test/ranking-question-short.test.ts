// A question put as one weighs short chunks less (setting question_short_lines; rerank.ts factor
// `question_short`; query-type.ts asksHow), on a small fixture through the public calls (search,
// explain): a one-line property's comment says most of the question's words, the method that does
// what is asked says them all in a 30-line body. BM25's length normalisation ranks the property's
// short file first; with the setting on, the method leads. A commit subject of the same words, and the setting
// at 0, keep the property first.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { asksHow } from '../core/search/query-type.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';

const fixture = new RankingFixture();

const steps = (n: number) => Array.from({ length: n }, (_, i) => `        // step ${i}: the next entry is read`).join('\n');

beforeAll(async () => {
  await fixture.create({
    'src/Sync/Replicator.cs': cs('Sync', [
      'public sealed class Replicator',
      '{',
      '    public void CopyEntries(object source)',
      '    {',
      '        // copy every changed entry to the remote mirror',
      steps(28),
      '    }',
      '}',
    ].join('\n')),
    'src/Sync/MirrorOptions.cs': cs('Sync', 'public sealed class MirrorOptions\n{\n    public bool Enabled { get; set; } // changed entries, remote mirror\n}'),
    ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`src/Misc/Filler${i}.cs`, cs('Misc', `public sealed class Filler${i}\n{\n    public int Count${i} => ${i}; // nothing to see\n}`)])),
  });
}, 120_000);
afterAll(() => fixture.close());

const question = 'how are changed entries copied to the remote mirror';
const subject = 'copy changed entries to remote mirror';

describe('question_short_lines', () => {
  it('tells a question put as one from a commit subject or a paraphrase', () => {
    expect(asksHow({ raw: question })).toBe(true);
    expect(asksHow({ raw: 'entries are copied to the mirror?' })).toBe(true);
    expect(asksHow({ raw: subject })).toBe(false);
    expect(asksHow({ raw: 'Fixed resize canvas black bars' })).toBe(false);
  });

  it('ranks the one-line property first when off', async () => {
    const off = await (await fixture.open({ question_short_lines: 0 })).search({ query: question });
    expect(off.hits[0].path).toBe('src/Sync/MirrorOptions.cs');
  });

  it('ranks the method that does it first when on, and explain shows the factor on the short chunk', async () => {
    // On by default.
    const ws = await fixture.open();
    const on = await ws.search({ query: question });
    expect(on.hits[0].path).toBe('src/Sync/Replicator.cs');
    const short = on.hits.find((h) => h.path === 'src/Sync/MirrorOptions.cs')!;
    const f = (await ws.explain(short.hit_id)).explanation?.factors?.find((x) => x.name === 'question_short');
    expect(f?.factor).toBeLessThan(1);
  });

  it('leaves a commit subject of the same words alone', async () => {
    const ws = await fixture.open();
    const res = await ws.search({ query: subject });
    const factors = (await ws.explain(res.hits[0].hit_id)).explanation?.factors ?? [];
    expect(factors.find((x) => x.name === 'question_short')).toBeUndefined();
  });
});
