// The stored text of files as literal and regex searches check it, kept between searches on one
// connection: reading a candidate (its blob from SQLite, inflating, decoding) was the largest part of
// a search's time at 50k chunks, and searches of one session land in the same files (every capped
// search starts at the lowest file ids). Owns the bounded LRU of file views (file-text.ts: the text
// and what searches derive from it) and the reader that goes through it; reading blobs is
// file-data.ts's, the session (session.ts) owns the cache's lifetime: one per index
// generation, so a commit, which may reuse a file id for new text, never meets an old entry.
import type { Database } from '../../sqlite/engine.ts';
import { storedTextReader, type DeflateCodec } from '../../index/file-data.ts';
import { LITERAL_TEXTS, type SearchSession } from '../session.ts';
import { FileText } from './file-text.ts';

/**
 * Most UTF-16 code units the cache holds: texts plus the lowercase copies made of them. V8 keeps an
 * ASCII string at one byte a character, so this is about 40 MB for source code; the 50k-chunk bench
 * corpus's texts (27M characters) fit, with about half of their lowercase copies.
 */
export const MAX_CACHED_CHARS = 40 * 1024 * 1024;

/** A bounded LRU of file texts by file id (valid within one index generation). */
export class TextCache {
  private readonly entries = new Map<number, FileText>();
  private chars = 0;

  /**
   * `maxEntryChars`: a text longer than this is read for each search, never cached (it would push
   * out hundreds of others).
   */
  constructor(
    private readonly maxChars = MAX_CACHED_CHARS,
    private readonly maxEntryChars = maxChars / 16,
  ) {}

  /** The cached text of a file, or undefined (then `read` it and `add` it). */
  get(fileId: number): FileText | undefined {
    const hit = this.entries.get(fileId);
    if (hit) {
      this.entries.delete(fileId);
      this.entries.set(fileId, hit);
    }
    return hit;
  }

  /** `ascii`: whether the text is all ASCII, when the caller knows (else found on first use). */
  add(fileId: number, text: string, ascii?: boolean): FileText {
    const ft = new FileText(text, ascii);
    if (text.length > this.maxEntryChars) return ft;
    this.entries.set(fileId, ft);
    ft.onGrow = (n) => this.grow(n);
    this.grow(text.length);
    return ft;
  }

  /** A file's cached text, without making it the most recently used (undefined when not cached). */
  peekText(fileId: number): string | undefined {
    return this.entries.get(fileId)?.text;
  }

  /** A file's cached view, without making it the most recently used (undefined when not cached). */
  peek(fileId: number): FileText | undefined {
    return this.entries.get(fileId);
  }

  /** Whether the cache holds a file's text (without making it the most recently used). */
  has(fileId: number): boolean {
    return this.entries.has(fileId);
  }

  /** Code units held now (for tests and the bench). */
  get size(): { files: number; chars: number } {
    return { files: this.entries.size, chars: this.chars };
  }

  /** Adds n code units; evicts from the least recently used, never the newest (the one in use). */
  private grow(n: number): void {
    this.chars += n;
    if (this.chars <= this.maxChars) return;
    for (const [id, e] of this.entries) {
      if (this.chars <= this.maxChars || this.entries.size <= 1) break;
      this.entries.delete(id);
      e.onGrow = null;
      this.chars -= e.held;
    }
  }
}

/** The session's text cache (a new one per index generation: session.cached). */
export function sessionTextCache(session: SearchSession): TextCache {
  return session.cached(LITERAL_TEXTS, () => new TextCache());
}

/**
 * Reads candidates' texts through the cache for one search; `close` when done. Missing files
 * (no stored text) give undefined and are not cached.
 */
export function cachedTextReader(db: Database, codec: DeflateCodec, cache: TextCache): { read(fileId: number): FileText | undefined; prefetch(fileIds: readonly number[]): void; close(): void } {
  let reader: ReturnType<typeof storedTextReader> | null = null;
  return {
    /** Reads ahead, in one statement, the blobs of those of these files the cache does not hold. */
    prefetch(fileIds) {
      const missing = fileIds.filter((id) => !cache.has(id));
      if (missing.length === 0) return;
      reader ??= storedTextReader(db, codec);
      reader.prefetch(missing);
    },
    read(fileId) {
      const hit = cache.get(fileId);
      if (hit) return hit;
      reader ??= storedTextReader(db, codec);
      const stored = reader.read(fileId);
      return stored === undefined ? undefined : cache.add(fileId, stored.text, stored.ascii);
    },
    close: () => reader?.close(),
  };
}
