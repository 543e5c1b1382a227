// core/ascii-regex.ts: an ASCII twin matches exactly what its Unicode pattern matches on ASCII text
// (every pattern core/ makes that way, found by scanning its sources, over random ASCII strings and the edges), and non-ASCII text
// still gets the Unicode pattern.
// @lane unit
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { asciiSource, asciiTwin, isAscii, twinsMade } from '../core/ascii-regex.ts';
import { splitIdentifier, wordsOf } from '../core/text/analyzer.ts';
import { splitCjkWord } from '../core/search/cjk.ts';

/** Every module of core/ that makes a twin (found by its source text, so a new one is checked without being listed here). */
const CORE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'core');
const TWIN_CALL = /\basciiTwin\(/g;
const twinModules = fs
  .readdirSync(CORE, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts') && f !== 'ascii-regex.ts')
  .map((f) => ({ file: path.join(CORE, f), calls: fs.readFileSync(path.join(CORE, f), 'utf8').match(TWIN_CALL)?.length ?? 0 }))
  .filter((m) => m.calls > 0);
for (const m of twinModules) await import(pathToFileURL(m.file).href);
/** The patterns those modules made, each once. */
const PATTERNS: Array<[string, string]> = [...new Map(twinsMade().map((t) => [`${t.flags}/${t.source}`, [t.source, t.flags] as [string, string]])).values()];

/** A small deterministic generator (no Math.random: a failure reproduces). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const ALPHABET = 'aAbBzZqQ09_-:./ \t\n"\'@#()[]<>,;?*+$^|\\{}~`!=%&';
function asciiStrings(n: number): string[] {
  const next = rng(7);
  const out = ['', 'a', 'A', '0', '_', ' ', 'HTTPServer2Go', 'GetCatalogItemsAsync', 'max_items', 'Payments:RetryPolicy:MaxAttempts', 'Payments__Retry', 'DataGrid/TabStrip: fix popups', 'FAControlsGallery', '\x00\x7f'];
  for (let i = 0; i < n; i++) {
    const len = Math.floor(next() * 24);
    let s = '';
    for (let j = 0; j < len; j++) s += next() < 0.1 ? String.fromCharCode(Math.floor(next() * 128)) : ALPHABET[Math.floor(next() * ALPHABET.length)];
    out.push(s);
  }
  return out;
}

/** Everything a regex answers about a text: its matches with positions and groups, test, split. */
function behaviour(re: RegExp, text: string): unknown {
  const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
  return {
    matches: Array.from(text.matchAll(g), (m) => [m.index, ...m]),
    test: new RegExp(re.source, re.flags.replace('g', '')).test(text),
    split: text.split(new RegExp(re.source, re.flags.replace('g', ''))),
  };
}

describe('ascii twins', () => {
  const texts = asciiStrings(3000);

  it('finds every twin core/ makes', () => {
    const calls = twinModules.reduce((n, m) => n + m.calls, 0);
    expect(twinModules.length).toBeGreaterThan(5);
    expect(twinsMade().length).toBeGreaterThanOrEqual(calls);
    expect(PATTERNS.length).toBeGreaterThan(10);
  });

  it.each(PATTERNS)('/%s/%s matches the same on ASCII text', (source, flags) => {
    const twin = asciiTwin(source, flags);
    const unicode = new RegExp(source, flags);
    const ascii = twin.for('ascii');
    expect(ascii.source).not.toContain('\\p{');
    for (const t of texts) expect(behaviour(ascii, t), JSON.stringify(t)).toEqual(behaviour(unicode, t));
  });

  it('gives the Unicode pattern to text with any non-ASCII character', () => {
    const twin = asciiTwin('[\\p{L}\\p{N}]+', 'gu');
    expect(twin.for('Größe').source).toBe('[\\p{L}\\p{N}]+');
    expect(twin.for('保存Command')).toBe(twin.unicodeRegex());
    expect(isAscii('plain ascii ~')).toBe(true);
    expect(isAscii('café')).toBe(false);
    expect(isAscii('\u{1F600}')).toBe(false);
  });

  it('rewrites classes inside and outside brackets, and refuses what it cannot twin', () => {
    expect(asciiSource('[^\\p{L}\\p{N}]+')).toBe('[^A-Za-z0-9]+');
    expect(asciiSource('\\p{Lu}?\\p{Ll}+')).toBe('[A-Z]?[a-z]+');
    expect(asciiSource('[\\p{L}\\p{M}]\\p{M}')).toBe('[A-Za-z][]');
    expect(asciiSource('\\\\p{L}')).toBe('\\\\p{L}');
    expect(() => asciiSource('\\p{Greek}')).toThrow(/no ASCII twin/);
    expect(() => asciiSource('\\P{L}')).toThrow(/not supported/);
  });

  it('keeps the analyzer and the CJK split as they were (Unicode text through the Unicode patterns)', () => {
    expect(splitIdentifier('HTTPServer2Go')).toEqual(['http', 'server', '2', 'go']);
    expect(splitIdentifier('GetCatalogItems_async-x')).toEqual(['get', 'catalog', 'items', 'async', 'x']);
    expect(splitIdentifier('ÄrgerMeldung')).toEqual(['ärger', 'meldung']);
    expect(wordsOf('Save保存 ÄrgerX')).toEqual(['save保存', 'ärgerx']);
    expect(splitCjkWord('OrderService')).toEqual({ runs: [], rest: ['OrderService'] });
    expect(splitCjkWord('')).toEqual({ runs: [], rest: [] });
    expect(splitCjkWord('保存Command')).toEqual({ runs: ['保存'], rest: ['Command'] });
  });
});
