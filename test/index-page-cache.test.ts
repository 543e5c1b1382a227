// A pass that writes many files runs with SQLite's smaller indexing page cache (setting
// index_page_cache_kib; issue 34): SQLite's heap in WASM never shrinks, so a cache a cold pass fills
// stays for the life of the process (dotnet-8's 452k chunks: the store's WASM heap 24.1 -> 9.6 MB,
// bench/results/store-memory-mem10.md). Searches get the search cache back when the pass ends; a
// small pass (a watcher's) leaves the cache alone. Real files in a temp folder, real WASM SQLite; the
// cache size is read back from SQLite itself at each change.
// @lane unit
import { describe, it, expect, vi, afterEach } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HciWorkspace } from '../core/workspace.ts';
import { IndexStore, SEARCH_PAGE_CACHE_KIB } from '../core/index/store.ts';
import { POOL_MIN_FILES } from '../core/index/indexer.ts';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { createNodeIndexStorage } from '../runtimes/node/node-storage.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { createTmpWorkspace, csharpClass } from './helpers/tmp-workspace.ts';
import { defaultSettings } from '../core/settings.ts';

afterEach(() => vi.restoreAllMocks());

/** Every page cache size SQLite reported right after the store set one (negative: KiB), in order. */
function watchPageCache(): number[] {
  const seen: number[] = [];
  const set = IndexStore.prototype.setPageCache;
  vi.spyOn(IndexStore.prototype, 'setPageCache').mockImplementation(function (this: IndexStore, kib: number) {
    set.call(this, kib);
    seen.push(Number(this.db.selectValue('PRAGMA cache_size')));
  });
  return seen;
}

describe('the page cache of an indexing pass', () => {
  it('is index_page_cache_kib while a pass writes many files, the search cache after; a small pass leaves it', async () => {
    const files = POOL_MIN_FILES + 10;
    const ws = await createTmpWorkspace(Object.fromEntries(Array.from({ length: files }, (_, i) => [`src/Service${i}.cs`, csharpClass(`Service${i}`)])));
    // No parse pool: the pass parses in this thread, so the rule is the writer's, whatever the runtime.
    const w = await HciWorkspace.open({ fs: createNodeWorkspaceFs(ws.root), storage: createNodeIndexStorage(ws.root), grammars: createNodeGrammarSource() }, { settings: { index_page_cache_kib: 1024 } as never });
    try {
      const seen = watchPageCache();
      const s = await w.index();
      expect(s.files_indexed).toBe(files);
      expect(seen).toEqual([-1024, -SEARCH_PAGE_CACHE_KIB]);
      // A watcher's pass over one edited file: the search cache stays as it is.
      seen.length = 0;
      fs.appendFileSync(path.join(ws.root, 'src/Service3.cs'), '\n// edited\n');
      expect((await w.index()).files_indexed).toBe(1);
      expect(seen).toEqual([]);
      expect((await w.search({ query: 'RunService209', limit: 5 })).hits.map((h) => h.path)).toContain('src/Service209.cs');
    } finally {
      w.close();
      await ws.cleanup();
    }
  });

  it('defaults to 4 MiB, below the search cache', async () => {
    expect(defaultSettings().index_page_cache_kib).toBe(4096);
    expect(defaultSettings().index_page_cache_kib).toBeLessThan(SEARCH_PAGE_CACHE_KIB);
  });
});
