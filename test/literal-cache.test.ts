// The literal channel's text cache (core/search/literal/text-cache.ts): the LRU keeps its bound
// (texts and the lowercase copies and line starts made of them), refreshes what it serves and never
// caches a text too large to share the bound; through a real workspace, a search served from the
// cache answers as one that read every blob, and a commit that changes a file is seen by the next
// search (the cache belongs to one index generation).
import { describe, it, expect, afterEach } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { FileText } from '../core/search/literal/file-text.ts';
import { TextCache, MAX_CACHED_CHARS } from '../core/search/literal/text-cache.ts';
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

  async function pairs(work: HciWorkspace, query: string, mode: 'literal' | 'regex'): Promise<string[]> {
    const r = await work.search({ query, mode, limit: 50 });
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
    expect(await pairs(w, 'MARKER_\\d here', 'regex')).toHaveLength(30);

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
