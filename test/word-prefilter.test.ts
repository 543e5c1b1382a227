// The word index as a literal's prefilter (core/search/literal/word-prefilter.ts): only whole words
// inside an ASCII literal count (a word at either edge may be part of a longer token), and the
// expression asks chunk bodies for the words of the literal pattern with the most of them.
// @lane unit
import { describe, it, expect } from 'vitest';
import { innerWords, wordPrefilter } from '../core/search/literal/word-prefilter.ts';

describe('word prefilter', () => {
  it('keeps the words bounded on both sides within the literal', () => {
    expect(innerWords('/catalog/express-wishlists')).toEqual(['catalog', 'express']);
    expect(innerWords('?.Invoke(')).toEqual(['invoke']);
    expect(innerWords('ValidateAsync(')).toEqual([]); // touches the start: maybe `TryValidateAsync`
    expect(innerWords('a b')).toEqual([]);
    expect(innerWords(' sealed class ')).toEqual(['sealed', 'class']);
    expect(innerWords('"größe"')).toEqual([]); // not ASCII: scanned as before
  });

  it('builds one body-column AND over the best literal pattern, or null', () => {
    expect(wordPrefilter([{ kind: 'literal', source: '/api/v1/orders' }])).toBe('{body} : ("api" AND "v1")');
    expect(wordPrefilter([{ kind: 'regex', source: ' (foo|bar) ' }, { kind: 'literal', source: '.x.' }])).toBe('{body} : ("x")');
    expect(wordPrefilter([{ kind: 'literal', source: 'Orders' }, { kind: 'regex', source: '.*' }])).toBeNull();
    expect(wordPrefilter([{ kind: 'literal', source: ' one two three four five six ' }])).toBe('{body} : ("three" AND "five" AND "four" AND "one")');
  });
});
