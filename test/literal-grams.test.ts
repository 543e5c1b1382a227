// The literal index's gram filter (core/index/gram-bloom.ts, files_grams; read by
// core/search/literal/gram-filter.ts): it never rules out a file that holds the literal — random
// texts and literals over an alphabet of cased, uncased, folded (ſ, Kelvin) and astral characters,
// checked by the matcher itself, case-sensitive and not — while it does rule out a file whose
// trigrams hold the literal's but not in one place (the trigram index alone kept it); its rows stay
// in step with the files through edits, deletes and the setting; format 6's index (trigrams only) is
// migrated to format 7 and refilled by the next pass.
// @lane cli
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { bloomHolds, gramBloom, gramProbes } from '../core/index/gram-bloom.ts';
import { FORMAT_VERSION } from '../core/index/schema.ts';
import { compilePattern, loadRegexEngine } from '../core/search/literal/matcher.ts';
import { literalKeys } from '../core/search/literal/trigrams.ts';
import { createTmpWorkspace } from './helpers/tmp-workspace.ts';
import { prng } from './helpers/generate-workspace.ts';

function sqlite3(file: string, sql: string): string {
  const r = spawnSync('sqlite3', [file, sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim();
}

describe('the gram filter', () => {
  it('holds every probe of every literal the matcher finds in the text (random texts, both cases)', async () => {
    await loadRegexEngine();
    const rand = prng(7);
    const alphabet = ['a', 'b', 'A', 'B', 's', 'S', '\u017f', 'k', 'K', '\u212a', 'é', 'É', '中', '文', '😀', '.', ' ', '_', '\n'];
    const recase = (c: string): string => {
      const swaps: Record<string, string[]> = { a: ['A'], A: ['a'], b: ['B'], B: ['b'], s: ['S', '\u017f'], S: ['s', '\u017f'], '\u017f': ['s', 'S'], k: ['K', '\u212a'], K: ['k', '\u212a'], '\u212a': ['k', 'K'] };
      const options = swaps[c];
      return options && rand() < 0.5 ? options[Math.floor(rand() * options.length)] : c;
    };
    let matched = 0;
    for (let round = 0; round < 1500; round++) {
      const chars = Array.from({ length: 5 + Math.floor(rand() * 60) }, () => alphabet[Math.floor(rand() * alphabet.length)]);
      const text = chars.join('');
      const bloom = gramBloom(text);
      const caseSensitive = rand() < 0.4;
      const start = Math.floor(rand() * chars.length);
      const piece = chars.slice(start, start + 4 + Math.floor(rand() * 10)).filter((c) => c !== '\n');
      const literal = (caseSensitive ? piece : piece.map(recase)).join('');
      if (literal.length < 4) continue;
      const q = { caseSensitive, wholeWord: false };
      const c = compilePattern({ kind: 'literal', source: literal }, q);
      if (!text.split('\n').some((line) => c.line.test(line))) continue;
      matched++;
      // With a second literal of the same text: every literal of a query is needed, so every probe is.
      const other = chars.slice(0, 6).filter((x) => x !== '\n').join('');
      const literals = other.length >= 4 && compilePattern({ kind: 'literal', source: other }, q).line.test(text.split('\n')[0]) ? [literal, other] : [literal];
      const probes = gramProbes(literals.map((l) => literalKeys(l, !caseSensitive)));
      expect(bloomHolds(bloom, probes), `${JSON.stringify(literals)} in ${JSON.stringify(text)} (case-sensitive: ${caseSensitive})`).toBe(true);
    }
    expect(matched).toBeGreaterThan(500);
  });

  it('gives no probe for a literal without 4 keyed characters in a row', () => {
    expect(gramProbes([literalKeys('abc', true)])).toEqual([]);
    // é cannot be keyed ignoring case: "abé" + "cd" leaves pieces of 2 and 2.
    expect(gramProbes([literalKeys('abécd', true)])).toEqual([]);
    expect(gramProbes([literalKeys('abécd', false)]).length).toBe(2); // two 4-grams, no 8-gram
  });

  it('rules out almost every file that lacks the literal (false positives, for random words: every gram distinct, the worst case)', () => {
    const rand = prng(3);
    const word = () => Array.from({ length: 3 + Math.floor(rand() * 8) }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join('');
    let passed = 0;
    for (let i = 0; i < 400; i++) {
      const text = Array.from({ length: 300 }, word).join(' ');
      if (bloomHolds(gramBloom(text), gramProbes([literalKeys('qzxj vkpw', true)]))) passed++;
    }
    expect(passed).toBeLessThan(20); // 8 probes at ~0.6 of the bits set: ~2.5%
  });
});

/** The literal channel's account of a search, from explain of its first hit. */
async function literalRun(w: HciWorkspace, query: string): Promise<Record<string, unknown>> {
  const r = await w.search({ query, mode: 'literal', limit: 10 });
  expect(r.status).toBe('ok');
  expect(r.hits.length).toBeGreaterThan(0);
  const e = await w.explain(r.hits[0].hit_id, { query, mode: 'literal' });
  return (e.explanation?.channels as Record<string, Record<string, unknown>>).literal;
}

const files = {
  // Holds every trigram of `ip.Logistics.Tests.C`, and `ip.Logistics.` and `.Tests.C`, but not the literal.
  'src/Wrong.cs': 'namespace Ship.Logistics.Data;\n// see Units.Tests.Cases\nclass Wrong { }\n',
  'src/Right.cs': 'namespace Ship.Logistics.Tests.Cargo;\nclass Right { }\n',
  'src/Other.cs': 'namespace Other;\nclass Other { }\n',
};

describe('the literal index with the gram filter', () => {
  it('skips a trigram candidate that lacks the literal, and stays in step with edits, deletes and the setting', async () => {
    const ws = await createTmpWorkspace(files, 'hci-grams-');
    const db = ws.abs('.hci/index.sqlite');
    let w = await openWorkspace(ws.root, { settings: { literal_index: true } });
    try {
      await w.index();
      expect(sqlite3(db, 'SELECT count(*) FROM files_grams')).toBe('3');
      let run = await literalRun(w, 'ip.Logistics.Tests.C');
      expect(run.via).toBe('trigrams');
      // The trigram index alone lets Wrong.cs through; its grams rule it out before its text is read.
      expect(run.gram_dropped).toBe(1);
      expect(run.checked_files).toBe(1);
      expect(run.matched_files).toBe(1);

      // An edit that puts the literal in Wrong.cs: its filter is rewritten with its text.
      await ws.write({ 'src/Wrong.cs': 'namespace Ship.Logistics.Tests.Core;\nclass Wrong { }\n' });
      await w.index();
      const r = await w.search({ query: 'ip.Logistics.Tests.C', mode: 'literal', limit: 10 });
      expect(r.hits.map((h) => h.path).sort()).toEqual(['src/Right.cs', 'src/Wrong.cs']);
      expect((await literalRun(w, 'ip.Logistics.Tests.C')).gram_dropped).toBe(0);
      await ws.write({ 'src/Wrong.cs': files['src/Wrong.cs'] });
      await w.index();
      expect((await literalRun(w, 'ip.Logistics.Tests.C')).gram_dropped).toBe(1);

      // A deleted file takes its filter with it.
      fs.rmSync(ws.abs('src/Other.cs'));
      await w.index();
      expect(sqlite3(db, 'SELECT count(*) FROM files_grams')).toBe('2');
      expect(sqlite3(db, 'SELECT count(*) FROM files_grams g LEFT JOIN files f ON f.id = g.file_id WHERE f.id IS NULL')).toBe('0');

      // The setting off empties both tables; on again refills both.
      w.close();
      w = await openWorkspace(ws.root, { settings: { literal_index: false } });
      await w.index();
      expect(sqlite3(db, 'SELECT count(*) FROM files_grams')).toBe('0');
      w.close();
      w = await openWorkspace(ws.root, { settings: { literal_index: true } });
      await w.index();
      expect(sqlite3(db, 'SELECT count(*) FROM files_grams')).toBe('2');
      expect((await literalRun(w, 'ip.Logistics.Tests.C')).gram_dropped).toBe(1);
    } finally {
      w.close();
      await ws.cleanup();
    }
  });

  it('migrates a format 6 index (trigrams only): the literal index goes off, and the next pass fills it with the gram filter', async () => {
    const ws = await createTmpWorkspace(files, 'hci-grams-v6-');
    const db = ws.abs('.hci/index.sqlite');
    try {
      const a = await openWorkspace(ws.root, { settings: { literal_index: true } });
      await a.index();
      a.close();
      // Format 6: files_tri filled and on, no files_grams.
      sqlite3(db, "DROP TABLE files_grams; UPDATE meta SET value = '6' WHERE key = 'format_version'");
      const b = await openWorkspace(ws.root, { settings: { literal_index: true } });
      try {
        // Until the next pass the literal index is not used (the word index narrows instead).
        const before = await literalRun(b, 'ip.Logistics.Tests.C');
        expect(before.via).not.toBe('trigrams');
        expect(sqlite3(db, "SELECT value FROM meta WHERE key = 'format_version'")).toBe(String(FORMAT_VERSION));
        expect(FORMAT_VERSION).toBe(7);
        expect(sqlite3(db, "SELECT value FROM meta WHERE key = 'literal_index'")).toBe('off');
        expect(sqlite3(db, 'SELECT count(*) FROM files_grams')).toBe('0');
        const s = await b.index();
        expect(s.files_indexed).toBe(0); // nothing re-read: the fill works from the stored text
        expect(sqlite3(db, "SELECT value FROM meta WHERE key = 'literal_index'")).toBe('on');
        expect(sqlite3(db, 'SELECT count(*) FROM files_grams')).toBe('3');
        expect(sqlite3(db, "INSERT INTO files_tri(files_tri) VALUES('integrity-check'); SELECT 'ok'")).toBe('ok');
        const run = await literalRun(b, 'ip.Logistics.Tests.C');
        expect(run.via).toBe('trigrams');
        expect(run.gram_dropped).toBe(1);
      } finally {
        b.close();
      }
    } finally {
      await ws.cleanup();
    }
  });
});
