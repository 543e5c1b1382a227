// Remembers recent search requests by a short key, so a hit id (`<chunk>.<key>`) can be explained
// later without repeating the query — in memory, and in a small sidecar beside the index so a CLI
// `explain` after a CLI `search` works too.
import type { IndexStorage } from '../index/storage.ts';
import type { SearchRequest } from './contract.ts';

const SIDECAR = 'recent-queries.json';
const KEEP = 200;

/** A short stable key for a request (FNV-1a over its normalised JSON, base 36). */
export function queryKey(req: SearchRequest): string {
  const parts: unknown[] = [req.query.trim(), req.paths ?? [], req.exts ?? [], req.exclude_paths ?? [], req.mode ?? 'keyword'];
  // Appended only when set, so the keys (and hit ids) of requests without them stay as they were.
  if (req.case_sensitive || req.whole_word) parts.push(!!req.case_sensitive, !!req.whole_word);
  if (req.exclude_kinds?.length) parts.push(req.exclude_kinds);
  const norm = JSON.stringify(parts);
  let h = 0x811c9dc5;
  for (let i = 0; i < norm.length; i++) {
    h ^= norm.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

type Stored = Pick<SearchRequest, 'query' | 'paths' | 'exts' | 'exclude_paths' | 'exclude_kinds' | 'mode' | 'case_sensitive' | 'whole_word'>;

export class QueryLog {
  private readonly mem = new Map<string, Stored>();

  constructor(
    private readonly storage: IndexStorage,
    private readonly persist: boolean,
  ) {}

  remember(key: string, req: SearchRequest): void {
    if (this.mem.has(key)) return;
    const entry: Stored = { query: req.query, paths: req.paths, exts: req.exts, exclude_paths: req.exclude_paths, mode: req.mode };
    if (req.exclude_kinds?.length) entry.exclude_kinds = req.exclude_kinds;
    if (req.case_sensitive !== undefined) entry.case_sensitive = req.case_sensitive;
    if (req.whole_word !== undefined) entry.whole_word = req.whole_word;
    this.mem.set(key, entry);
    if (this.mem.size > KEEP) this.mem.delete(this.mem.keys().next().value!);
    if (!this.persist) return;
    try {
      const all = this.readSidecar();
      all[key] = entry;
      const keys = Object.keys(all);
      for (const k of keys.slice(0, Math.max(0, keys.length - KEEP))) delete all[k];
      this.storage.writeSidecar(SIDECAR, JSON.stringify(all));
    } catch {
      // The sidecar only helps later explains; a read-only index folder must not fail a search.
    }
  }

  recall(key: string): Stored | undefined {
    return this.mem.get(key) ?? (this.persist ? this.readSidecar()[key] : undefined);
  }

  private readSidecar(): Record<string, Stored> {
    try {
      return JSON.parse(this.storage.readSidecar(SIDECAR) ?? '{}') as Record<string, Stored>;
    } catch {
      return {};
    }
  }
}
