// Literals without the regex engine (core/search/literal/matcher.ts): an ASCII literal ignoring case is
// matched by indexOf over text folded as RE2 folds it (foldForAsciiLiteral: ſ ~ s, K ~ k), so a
// literal-only search never loads re2js. Checked against RE2 itself on random lines mixing ASCII with
// the characters whose case folding could matter (ſ, K, İ, ı, ß, Å, Σ), line by line and over whole
// texts (the line numbers of linesOf); and a workspace's literal search in a fresh process answers
// without loading the engine, while a regex search loads it.
// @lane cli
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { RE2JS } from 're2js';
import { compilePattern, foldForAsciiLiteral, loadRegexEngine, needsRegexEngine } from '../core/search/literal/matcher.ts';
import { FileText } from '../core/search/literal/file-text.ts';
import { literalNode } from '../core/search/literal/regex-syntax.ts';
import { literalKeys, satisfies, tiledLiteralQuery, trigramQuery, trigramsIn } from '../core/search/literal/trigrams.ts';
import { prng } from './helpers/generate-workspace.ts';
import { createTmpWorkspace } from './helpers/tmp-workspace.ts';

describe('ASCII literals ignoring case, without the engine', () => {
  it('match exactly the lines RE2 matches, in ASCII and non-ASCII text', async () => {
    await loadRegexEngine();
    const rand = prng(2718);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const litChars = ['s', 'S', 'k', 'K', 'i', 'I', 'a', '.', ' ', '1'];
    const textChars = [...litChars, 'ſ', 'K', 'İ', 'ı', 'ß', 'Å', 'å', 'Σ', 'σ', 'x', '\u00e9'];
    let matched = 0;
    let nonAscii = 0;
    for (let i = 0; i < 400; i++) {
      const lit = Array.from({ length: 1 + Math.floor(rand() * 2) }, () => pick(litChars)).join('');
      const c = compilePattern({ kind: 'literal', source: lit }, { caseSensitive: false, wholeWord: false });
      const re = RE2JS.compile(RE2JS.quote(lit), RE2JS.CASE_INSENSITIVE);
      const lines = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => Array.from({ length: Math.floor(rand() * 12) }, () => pick(textChars)).join(''));
      const want = lines.flatMap((l, k) => (re.test(l) ? [k + 1] : []));
      lines.forEach((l, k) => expect(c.line.test(l), `${JSON.stringify(lit)} on ${JSON.stringify(l)}`).toBe(want.includes(k + 1)));
      const text = new FileText(lines.join('\n'));
      if (!text.ascii) nonAscii++;
      expect(c.linesOf?.(text), `${JSON.stringify(lit)} over ${JSON.stringify(text.text)}`).toEqual(want);
      matched += want.length;
    }
    expect(matched).toBeGreaterThan(200);
    expect(nonAscii).toBeGreaterThan(200);
    expect(foldForAsciiLiteral('\u017ftra\u00dfe \u0130\u212aK')).toBe('stra\u00dfe \u0130kk');
  });

  it('needs the engine only for regexes, whole words and non-ASCII literals ignoring case', () => {
    const q = (source: string, kind: 'literal' | 'regex' = 'literal', caseSensitive = false, wholeWord = false) => needsRegexEngine({ patterns: [{ kind, source }], caseSensitive, wholeWord });
    expect(q('HitTest')).toBe(false);
    expect(q('?.Invoke(')).toBe(false);
    expect(q('保存', 'literal', true)).toBe(false);
    expect(q('保存')).toBe(true);
    expect(q('Hit\\w+', 'regex')).toBe(true);
    expect(q('HitTest', 'literal', false, true)).toBe(true);
  });

  it('a literal search in a fresh process does not load re2js; a regex search does', async () => {
    const ws = await createTmpWorkspace({
      'src/Orders.cs': 'namespace Shop.Orders;\npublic sealed class OrderService\n{\n    public void Cancel() { }\n}\n',
      'src/Notes.md': '# Notes\nThe order service cancels orders.\n',
    });
    try {
      const dist = (...p: string[]) => pathToFileURL(path.resolve(__dirname, '..', 'dist', ...p)).href;
      const script = `
        import { openWorkspace } from '${dist('runtimes', 'node', 'index.js')}';
        import { regexEngineLoaded } from '${dist('core', 'search', 'literal', 'matcher.js')}';
        const w = await openWorkspace(process.argv[1], { settings: { literal_index: true } });
        await w.index();
        const lit = await w.search({ query: 'rderSer', mode: 'literal', limit: 3 });
        const afterLiteral = regexEngineLoaded();
        const rx = await w.search({ query: 'Order\\\\w+', mode: 'regex', limit: 3 });
        console.log(JSON.stringify({ lit: lit.status, litHits: lit.hits.length, afterLiteral, rx: rx.status, rxHits: rx.hits.length, afterRegex: regexEngineLoaded() }));
        w.close();
      `;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, ws.root], { encoding: 'utf8' });
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout.trim().split('\n').pop()!);
      expect(out).toMatchObject({ lit: 'ok', litHits: 1, afterLiteral: false, rx: 'ok', afterRegex: true });
      expect(out.rxHits).toBeGreaterThan(0);
    } finally {
      await ws.cleanup();
    }
  }, 60_000);
});

describe('a literal\'s trigrams tiled for the index', () => {
  it('keeps a subset of its trigrams that covers every character, and every text holding the literal satisfies it', () => {
    const rand = prng(3141);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    let shrunk = 0;
    for (let i = 0; i < 300; i++) {
      const lit = Array.from({ length: 3 + Math.floor(rand() * 18) }, () => pick(['a', 'B', 'c', '.', ' ', '(', 'x', 'Y', '1', '保'])).join('');
      const ci = rand() < 0.5;
      const full = trigramQuery(literalNode(lit, ci));
      const tiled = tiledLiteralQuery(full, literalKeys(lit, ci));
      const all = new Set(trigramsIn(full));
      const some = trigramsIn(tiled);
      expect(some.every((t) => all.has(t)), lit).toBe(true);
      if (some.length < all.size) shrunk++;
      // Covered: each character lies in a kept trigram at its place in the literal.
      const keys = literalKeys(lit, ci).map((k) => k ?? '');
      const covered = new Array(keys.length).fill(false);
      for (let at = 0; at + 3 <= keys.length; at++) if (some.includes(keys.slice(at, at + 3).join(''))) covered.fill(true, at, at + 3);
      expect(covered.every(Boolean), `${JSON.stringify(lit)}: ${JSON.stringify(some)}`).toBe(true);
      const text = `x ${ci ? lit.toUpperCase() : lit} y`.toLowerCase();
      expect(satisfies(tiled, (t) => text.includes(t))).toBe(true);
    }
    expect(shrunk).toBeGreaterThan(150);
  });
});
