// Decoded per-file data kept between searches on one database connection. Hits of related queries
// land in the same files, and inflating a file costs more than the FTS query that found it. Owns the
// bounded LRU only; decoding is file-data.ts's. Entries are keyed by file id *and* content hash: a
// changed file gets a new row id, and the hash guards against ids restarting in a rebuilt file.
import type { Database } from '../sqlite/engine.ts';
import { readStoredFile, type StoredFile } from '../index/file-data.ts';

/** Most UTF-16 code units of text held across all cached files (about 2 bytes each). */
const MAX_CHARS = 16 * 1024 * 1024;

interface Cache {
  entries: Map<string, { file: StoredFile; chars: number }>;
  chars: number;
}

const caches = new WeakMap<Database, Cache>();

export function cachedStoredFile(db: Database, fileId: number, hash: string): StoredFile | undefined {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { entries: new Map(), chars: 0 }));
  const key = `${fileId}:${hash}`;
  const hit = cache.entries.get(key);
  if (hit) {
    cache.entries.delete(key);
    cache.entries.set(key, hit);
    return hit.file;
  }
  const file = readStoredFile(db, fileId);
  if (!file) return undefined;
  let chars = 0;
  for (const l of file.lines) chars += l.length + 1;
  for (const h of file.headers) chars += h.length;
  if (chars > MAX_CHARS / 4) return file;
  cache.entries.set(key, { file, chars });
  cache.chars += chars;
  for (const [k, e] of cache.entries) {
    if (cache.chars <= MAX_CHARS) break;
    cache.entries.delete(k);
    cache.chars -= e.chars;
  }
  return file;
}
