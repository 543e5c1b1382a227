// The literal channel's text cache (core/search/literal/text-cache.ts): the LRU keeps its bound
// (texts and the lowercase copies and line starts made of them), refreshes what it serves and never
// caches a text too large to share the bound; through a real workspace, a search served from the
// cache answers as one that read every blob, and a commit that changes a file is seen by the next
// search (the cache belongs to one index generation); the session's decoded-file cache takes a text
// the literal channel read in the same generation instead of inflating it again.
// @lane unit
import { describe, it, expect, afterEach } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { FileText } from '../core/search/literal/file-text.ts';
import { TextCache, MAX_CACHED_CHARS, sessionTextCache } from '../core/search/literal/text-cache.ts';
import { SearchSession } from '../core/search/session.ts';
import { decodeFileData, encodeFileData, type DeflateCodec } from '../core/index/file-data.ts';
import { loadEngine, type Database } from '../core/sqlite/engine.ts';
import { zlibCodec } from '../runtimes/node/index.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

describe('TextCache', () => {
  it('holds at most its bound, evicting the least recently used first', () => {
    const cache = new TextCache(100, 100);
    cache.add(1, 'a'.repeat(40));
    cache.add(2, 'b'.repeat(40));
    expect(cache.get(1)?.text).toBe('a'.repeat(40)); // 1 is now the most recent
    cache.add(3, 'c'.repeat(40)); // 120 > 100: 2 goes
    expect(cache.get(2)).toBeUndefined();
    expect(cache.get(1)).toBeDefined();
    expect(cache.get(3)).toBeDefined();
    expect(cache.size).toEqual({ files: 2, chars: 80 });
  });

  it('counts the lowercase copy and line starts a search makes of a cached text', () => {
    const cache = new TextCache(100, 100);
    const t = cache.add(1, 'Ab\nCd\nEf'); // 8 chars
    expect(t.lower).toBe('ab\ncd\nef');
    expect(t.starts).toEqual([0, 3, 6]);
    expect(cache.size.chars).toBe(8 + 8 + 3 * 2);
    // Growing one entry past the bound pushes out older ones, not itself.
    const big = cache.add(2, 'x'.repeat(60));
    expect(cache.size.files).toBe(2);
    void big.lower; // 22 + 60 + 60 > 100: entry 1 goes
    expect(cache.get(1)).toBeUndefined();
    expect(cache.get(2)).toBe(big);
    expect(cache.size).toEqual({ files: 1, chars: 120 });
  });

  it('serves a text larger than its entry limit (by default a sixteenth of the bound) without caching it', () => {
    const cache = new TextCache(1600);
    const t = cache.add(7, 'y'.repeat(101));
    expect(t.text.length).toBe(101);
    expect(cache.get(7)).toBeUndefined();
    expect(cache.size).toEqual({ files: 0, chars: 0 });
    expect(MAX_CACHED_CHARS).toBeGreaterThan(16 * 1024 * 1024);
  });

  it('derives ASCII-ness, lowercase and line starts once', () => {
    const t = new FileText('Straße\nX');
    expect(t.ascii).toBe(false);
    expect(new FileText('plain\ntext\n').ascii).toBe(true);
    expect(new FileText('plain\ntext\n').starts).toEqual([0, 6, 11]);
    expect(t.lower).toBe(t.lower);
  });
});

describe('literal search through the text cache', () => {
  let ws: TmpWorkspace | undefined;
  let w: HciWorkspace | undefined;
  afterEach(async () => {
    w?.close();
    w = undefined;
    await ws?.cleanup();
    ws = undefined;
  });

  const files: Record<string, string> = {};
  for (let i = 0; i < 30; i++) {
    files[`src/F${String(i).padStart(2, '0')}.cs`] = `namespace N;\npublic class F${i}\n{\n    // marker_${i % 3} here\n    public int Value${i} => ${i};\n}\n`;
  }

  async function pairs(work: HciWorkspace, query: string, mode: 'literal' | 'regex', caseSensitive?: boolean): Promise<string[]> {
    const r = await work.search({ query, mode, limit: 50, ...(caseSensitive === undefined ? {} : { case_sensitive: caseSensitive }) });
    expect(r.status).not.toBe('error');
    return r.hits.flatMap((h) => (h.match_lines ?? []).map((l) => `${h.path}:${l}`)).sort();
  }

  it('answers from cached texts exactly as from the blobs, and sees a changed file after the next commit', async () => {
    ws = await createTmpWorkspace(files);
    w = await openWorkspace(ws.root, { settings: { literal_index: true } });
    await w.index();
    const first = await pairs(w, 'marker_1', 'literal'); // reads the blobs, fills the cache
    expect(first).toHaveLength(10);
    expect(await pairs(w, 'marker_1', 'literal')).toEqual(first); // served from the cache
    expect(await pairs(w, 'MARKER_\\d here', 'regex', false)).toHaveLength(30);

    // A fresh workspace (an empty cache) gives the same answer.
    const fresh = await openWorkspace(ws.root, { settings: { literal_index: true } });
    try {
      expect(await pairs(fresh, 'marker_1', 'literal')).toEqual(first);
    } finally {
      fresh.close();
    }

    // Change a file: the commit bumps the index generation, the next search reads its new text.
    await ws.write({ 'src/F01.cs': 'namespace N;\npublic class F1\n{\n    // replaced_text here\n}\n' });
    await w.index();
    const after = await pairs(w, 'marker_1', 'literal');
    expect(after).toHaveLength(9);
    expect(after.some((p) => p.startsWith('src/F01.cs:'))).toBe(false);
    expect(await pairs(w, 'replaced_text', 'literal')).toEqual(['src/F01.cs:4']);
  });
});

describe("the session's decoded-file cache beside the text cache", () => {
  it("takes a file's text from the literal channel's cache of this generation and inflates only the rest", async () => {
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    const inflated: number[] = [];
    const counting: DeflateCodec = { deflateRaw: zlibCodec.deflateRaw, inflateRaw: (d, dict, size) => (inflated.push(d.length), zlibCodec.inflateRaw(d, dict, size)) };
    try {
      db.exec("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT); INSERT INTO meta VALUES ('generation', '1'); CREATE TABLE file_data(file_id INTEGER PRIMARY KEY, data BLOB NOT NULL)");
      const lines = ['namespace N;', 'public class A { }'];
      const input = { lines, chunks: [{ startLine: 1, endLine: 2, header: 'namespace N;', symbol: null }], allKept: true, outline: null };
      for (const id of [1, 2]) db.exec('INSERT INTO file_data VALUES (?, ?)', { bind: [id, encodeFileData(input, zlibCodec)] });
      const session = new SearchSession(db as unknown as Database, counting);
      const whole = decodeFileData(encodeFileData(input, zlibCodec), zlibCodec);
      session.withPathFilter(null, () => {
        sessionTextCache(session).add(1, lines.join('\n'));
        expect(session.files.get(1, 'h')).toEqual(whole);
        expect(inflated).toHaveLength(1); // the meta stream only: the text came from the literal cache
        expect(session.files.get(2, 'h')).toEqual(whole);
        expect(inflated).toHaveLength(3); // not cached: text and meta
      });
      // A new generation: the old generation's texts are not used.
      db.exec("UPDATE meta SET value = '2' WHERE key = 'generation'");
      session.withPathFilter(null, () => {
        expect(session.files.get(1, 'other-hash')).toEqual(whole);
        expect(inflated).toHaveLength(5);
      });
    } finally {
      db.close();
    }
  });
});
