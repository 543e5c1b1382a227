// Remembers recent search requests by a short key, so a hit id (`<chunk>.<key>`) can be explained
// later without repeating the query — in memory, and in a small sidecar beside the index so a CLI
// `explain` after a CLI `search` works too; and reads a hit id back into its chunk and key (parseHitId).
//
// The sidecar is a log, one JSON line per remembered query (`{"key":…,"query":…}`), the last line of
// a key winning: a search that brings a new query appends one line (a single O_APPEND write), and only
// when the log holds twice KEEP lines is it rewritten with the latest KEEP (beside it, then renamed).
// Rewriting the whole file on every search cost a CLI search 0.2–2 ms on an idle disk and ~14 ms in a
// profile on a loaded machine: ext4 flushes a file renamed over an existing one before the rename. Lines another process appends while this one
// compacts may be lost: the log only saves a later `explain` its `--query`.
import { HciError } from '../platform.ts';
import type { IndexStorage } from '../index/storage.ts';
import type { SearchRequest } from './contract.ts';

const SIDECAR = 'recent-queries.ndjson';
const KEEP = 200;

/** A hit id's chunk and query key (`<chunk>.<key>`); `invalid_hit_id` when it is not one. */
export function parseHitId(hitId: string): { chunkId: number; key: string } {
  const m = /^(\d+)\.([0-9a-z]+)$/.exec(String(hitId ?? '').trim());
  if (!m) throw new HciError('invalid_hit_id', `"${hitId}" is not a hit id`, 'pass a hit_id exactly as a search returned it, e.g. 123.k4f9a2');
  return { chunkId: Number(m[1]), key: m[2] };
}

/** A short stable key for a request (FNV-1a over its normalised JSON, base 36). */
export function queryKey(req: SearchRequest): string {
  const parts: unknown[] = [req.query.trim(), req.paths ?? [], req.exts ?? [], req.exclude_paths ?? [], req.mode ?? 'keyword'];
  // Appended only when set, so the keys (and hit ids) of requests without them stay as they were.
  if (req.case_sensitive || req.whole_word) parts.push(!!req.case_sensitive, !!req.whole_word);
  // Unset is smart case, false ignores case: two requests that may answer differently.
  if (req.case_sensitive === false) parts.push('ignore_case');
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
      const { entries, lines, whole } = this.readSidecar();
      // The key is the request's hash: a log that holds it holds this request already.
      if (entries.has(key)) return;
      const line = JSON.stringify({ key, ...entry });
      if (lines + 1 < 2 * KEEP) {
        // After a torn last line (a process killed mid-append) a newline first keeps this one whole.
        this.storage.appendSidecar(SIDECAR, whole ? line : `\n${line}`);
        return;
      }
      entries.set(key, entry);
      const latest = [...entries].slice(-KEEP).map(([k, e]) => JSON.stringify({ key: k, ...e }));
      this.storage.writeSidecar(SIDECAR, `${latest.join('\n')}\n`);
    } catch {
      // The sidecar only helps later explains; a read-only index folder must not fail a search.
    }
  }

  recall(key: string): Stored | undefined {
    return this.mem.get(key) ?? (this.persist ? this.readSidecar().entries.get(key) : undefined);
  }

  /**
   * The log's entries by key (in order of their last line), its line count, and whether it ends in a
   * newline (or is empty); unreadable lines are skipped.
   */
  private readSidecar(): { entries: Map<string, Stored>; lines: number; whole: boolean } {
    const entries = new Map<string, Stored>();
    let lines = 0;
    let text: string | null = null;
    try {
      text = this.storage.readSidecar(SIDECAR);
    } catch {
      // unreadable: as if empty
    }
    for (const raw of (text ?? '').split('\n')) {
      if (!raw) continue;
      lines++;
      try {
        const { key, ...entry } = JSON.parse(raw) as Stored & { key?: unknown };
        if (typeof key !== 'string' || typeof entry.query !== 'string') continue;
        entries.delete(key);
        entries.set(key, entry);
      } catch {
        // a torn or foreign line
      }
    }
    return { entries, lines, whole: !text || text.endsWith('\n') };
  }
}
