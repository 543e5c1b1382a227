// The text checks of rerank that read a candidate's body in lower case — coverage
// (file-evidence.ts fileCoverage), own evidence (own-evidence.ts ownWords) and exact_text (boosts.ts
// textSignals: the query verbatim, runs of spaces and tabs as one space) — answer what they answered
// when each lowercased its own copy (path, symbol and body joined; the body with its runs made one
// space), and the body is lowercased once per candidate for all three (candidates.ts lowerBody:
// lowercasing it for each, and copying it to squeeze its spaces, was a tenth of what a warm query
// allocated on Avalonia, issue 34).
// @lane unit
import { describe, it, expect, vi } from 'vitest';
import { lowerBody, type Candidate } from '../core/search/candidates.ts';
import { fileCoverage } from '../core/search/file-evidence.ts';
import { ownName, ownWords } from '../core/search/own-evidence.ts';
import { textSignals } from '../core/search/boosts.ts';

const bodies = [
  'public void ResetOnAdd()\n{\n    items.Clear();  // reset on\tadd\n}',
  '  Reset   On \t ADD the Σ items ΣΑΣ\n',
  'İstanbul reset\ton add',
  '\treset on add\t',
  'no match here at all',
  'reset on  add; reset  on add',
  '',
];
const cand = (fileId: number, path: string, symbolName: string | null, body: string | undefined): Candidate =>
  ({ chunkId: fileId * 10, fileId, ordinal: 0, path, hash: 'h', lang: 'csharp', flags: 0, startLine: 1, endLine: 3, symbolKind: 'method', symbolName, body, hitKind: 'text_fts', channels: [], base: 1, score: 1, factors: [] }) as unknown as Candidate;

/** What each check answered when it lowercased its own copy. */
const reference = {
  coverage(cands: readonly Candidate[], words: readonly string[]): Map<number, number> {
    const held = new Map<number, Set<string>>();
    for (const c of cands) {
      let set = held.get(c.fileId);
      if (!set) held.set(c.fileId, (set = new Set()));
      const text = `${c.path}\n${c.symbolName ?? ''}\n${c.body ?? ''}`.toLowerCase();
      for (const w of words) if (text.includes(w)) set.add(w);
    }
    return new Map([...held].map(([id, set]) => [id, set.size / words.length]));
  },
  own: (c: Candidate, words: readonly string[]) => words.filter((w) => `${ownName(c.symbolName)}\n${c.body ?? ''}`.toLowerCase().includes(w)).length,
  exact: (text: string, phrase: string) => text.replace(/[ \t]+/g, ' ').toLowerCase().includes(phrase),
};

describe('rerank text checks over the body in lower case', () => {
  const phrases = ['reset on add', 'reset on add;', 'on add the σ', 'σ items σας', 'istanbul reset', 'i̇stanbul reset on add', 'ms.clear();', 'reset  on add', 'reset\ton add', 'add()\n{'];
  const words = ['reset', 'add', 'items', 'σας', 'istanbul', 'i̇stanbul', 'resetonadd', 'on\tadd', 'clear();\n}'];

  it('exact_text finds the verbatim phrase where the squeezed, lowercased copy of the text held it, given the lower case or not', () => {
    for (const text of bodies) for (const phrase of phrases) {
      const want = phrase.length >= 6 && /\s|[^\p{L}\p{N}_]/u.test(phrase) && reference.exact(text, phrase);
      expect([text, phrase, textSignals(text, phrase, [], new Map()).exact]).toEqual([text, phrase, want]);
      expect([text, phrase, textSignals(text, phrase, [], new Map(), null, text.toLowerCase()).exact]).toEqual([text, phrase, want]);
    }
  });

  it('coverage and own evidence count the words the joined, lowercased copies held (words across a line break too)', () => {
    const cands = bodies.map((b, i) => cand(i % 3, ['src/Σ/ResetItems.cs', 'src/İ/Add.cs', 'Docs/RESET.md'][i % 3], [null, 'Demo.Items.ResetOnAdd', 'ΣΑΣ'][i % 3], b));
    cands.push(cand(4, 'src/Clear.cs', 'Clear', undefined));
    for (const ws of [words, words.slice(0, 3), ['clear();\n}', 'reset'], ['σας', 'items']]) {
      expect(fileCoverage(cands, ws)).toEqual(reference.coverage(cands, ws));
      for (const c of cands) expect([c.body, ownWords(c, ws)]).toEqual([c.body, reference.own(c, ws)]);
    }
  });

  it('lowercases a body once for coverage, own evidence and exact_text together', () => {
    const body = 'public void ResetOnAdd()\n{\n    Items.Add(item);\n}';
    const c = cand(1, 'src/Items.cs', 'Demo.Items.ResetOnAdd', body);
    const lower = vi.spyOn(String.prototype, 'toLowerCase');
    try {
      fileCoverage([c], ['reset', 'items']);
      ownWords(c, ['reset', 'items']);
      textSignals(body, 'reset on add', [], new Map(), null, lowerBody(c));
      expect(lower.mock.contexts.filter((s) => String(s) === body)).toHaveLength(1);
    } finally {
      lower.mockRestore();
    }
    expect(c.bodyLower).toBe(body.toLowerCase());
    // Not loaded yet: '' and nothing kept.
    const unloaded = cand(2, 'src/A.cs', null, undefined);
    expect(lowerBody(unloaded)).toBe('');
    expect(unloaded.bodyLower).toBeUndefined();
  });
});
