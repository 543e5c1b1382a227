// Questions and commit subjects (issue 32: the loss is in queries in words): words a commit subject
// says about the change ("fix") are dropped like stop words (change_words), so a rare word of the
// subject that no code says does not decide the ranking. Each mechanism is a setting, checked to
// change the answer when it is off, and shown by explain.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import type { HciWorkspace } from '../core/workspace.ts';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { parseQuery } from '../core/search/query.ts';
import { asksForChangeLog, isChangeLog } from '../core/search/change-log.ts';

const fixture = new RankingFixture();
let w: HciWorkspace;

/** Comment lines that say `text`, numbered so no two are the same. */
const says = (text: string, n: number) => Array.from({ length: n }, (_, i) => `        // ${i}: ${text}`).join('\n');

beforeAll(async () => {
  w = await fixture.create({
    // Commit subjects: the dialog manager's race, and a file of old notes that say "fix" and most of the subject's other words.
    'src/Dialogs/DialogManager.cs': cs('Dialogs', `public sealed class DialogManager\n{\n    private readonly object _gate = new();\n    public void Show(Dialog d)\n    {\n        // two callers may race here: the condition is checked under the gate\n        lock (_gate) { Open(d); }\n    }\n}`),
    'src/Notes/Changes.cs': cs('Notes', `public static class Changes\n{\n    public static void Apply()\n    {\n${says('fix: the dialog manager could race (fix for the fix)', 6)}\n    }\n}`),
    // A change log that repeats a commit subject verbatim, and the code the commit changed.
    'CHANGELOG.md': `# Changelog\n\n## 8.4.1\n\n- Retry delay going negative for large retries with exponential delays (#2101)\n- Timeout strategy reports the timeout it used\n`,
    'src/Retry/RetryHelper.cs': cs('Retry', `public static class RetryHelper\n{\n    public static TimeSpan GetRetryDelay(int attempt, TimeSpan baseDelay)\n    {\n        // exponential: the delay doubles with every attempt; large attempt numbers must not overflow\n        var delay = baseDelay * Math.Pow(2, attempt);\n        return delay < TimeSpan.Zero ? TimeSpan.MaxValue : delay;\n    }\n}`),
    // Other code that says the subject's common words, so "fix" is the rarest of them.
    ...Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`src/Views/View${i}.cs`, cs('Views', `public sealed class View${i}\n{\n    // the dialog manager opens view ${i}; a race is never a condition here\n    public void Open() { }\n}`)])),
  });
});

afterAll(() => fixture.close());

async function paths(query: string, ws = w) {
  const r = await ws.search({ query, limit: 8 });
  expect(r.status, JSON.stringify(r.error)).toBe('ok');
  return r.hits.map((h) => h.path);
}

describe('words about the change (change_words)', () => {
  it('drops "fix" from a commit subject, so the code it names outranks notes that say "fix"; explain lists it as dropped', async () => {
    const q = 'Fix race condition in dialog manager';
    const off = await paths(q, await fixture.open({ change_words: [] }));
    expect(off[0], 'with "fix" searched for, the notes come first').toBe('src/Notes/Changes.cs');
    const on = await paths(q);
    expect(on[0]).toBe('src/Dialogs/DialogManager.cs');
    const r = await w.search({ query: q, limit: 8 });
    const e = await w.explain(r.hits[0].hit_id, { query: q });
    expect(e.explanation?.dropped_stop_words).toEqual(['fix', 'in']);
  });

  it('keeps the word when it is the whole query or all that is left, and drops what the setting lists', async () => {
    expect((await paths('fix'))[0]).toBe('src/Notes/Changes.cs');
    expect(parseQuery('fix the', { change_words: ['fix'] }).clauses.map((c) => (c.kind === 'word' ? c.token : ''))).toEqual(['fix', 'the']);
    expect(parseQuery('Fixed race', { change_words: ['fixed'] }).dropped).toEqual(['fixed']);
    expect(parseQuery('Fixed race').dropped).toEqual([]);
  });
});

describe('change logs (change_log_factor)', () => {
  it('knows a change log by its name, prose files only', () => {
    const yes = ['CHANGELOG.md', 'docs/changelog.md', 'src/App/Data/changelog.md', 'RELEASE_NOTES.md', 'release-notes.txt', 'HISTORY.rst', 'CHANGES', 'NEWS.md'];
    const no = ['packages/editor/history.ts', 'src/NewsFeed/News.cs', 'Pages/Changelog.razor', 'docs/changes-to-make.md', 'changelog-check.yml'];
    expect(yes.filter((p) => !isChangeLog(p))).toEqual([]);
    expect(no.filter((p) => isChangeLog(p))).toEqual([]);
    expect(asksForChangeLog(parseQuery('what changed in the changelog for retries'))).toBe(true);
    expect(asksForChangeLog(parseQuery('retry delay going negative'))).toBe(false);
  });

  it('ranks the code a commit subject changed above the change log that repeats the subject; explain names the factor; a query that asks for the change log lifts it', async () => {
    const q = 'retry delay going negative for large retries';
    const off = await paths(q, await fixture.open({ change_log_factor: 1 }));
    expect(off[0], 'without the factor the change log is first').toBe('CHANGELOG.md');
    const on = await paths(q);
    expect(on[0]).toBe('src/Retry/RetryHelper.cs');
    const r = await w.search({ query: q, limit: 8 });
    const log = r.hits.find((h) => h.path === 'CHANGELOG.md')!;
    const e = await w.explain(log.hit_id, { query: q });
    expect(e.explanation?.factors?.find((f) => f.name === 'change_log')?.factor).toBeLessThan(1);
    expect((await paths(`changelog ${q}`))[0]).toBe('CHANGELOG.md');
  });
});
