// Decoded per-file data kept between searches on one database connection. Hits of related queries
// land in the same files, and inflating a file costs more than the FTS query that found it; a host
// with idle time fills it ahead of searches (session.ts warmFiles). Owns the bounded LRU only; decoding is file-data.ts's, and the cache's owner is the connection's search
// session (session.ts). Entries are keyed by file id *and* content hash: a changed file gets a new
// row id, and the hash guards against ids restarting in a rebuilt file.
import type { Database } from '../sqlite/engine.ts';
import { blobReader, readStoredFile, type BlobReader, type DeflateCodec, type StoredFile } from '../index/file-data.ts';

/** Most UTF-16 code units of text held across all cached files (about 2 bytes each). */
const MAX_CHARS = 16 * 1024 * 1024;

export class StoredFileCache {
  private readonly entries = new Map<string, { file: StoredFile; chars: number }>();
  private chars = 0;
  /** Lives as long as the connection (the session's): its statement is finalized with it. */
  private readonly blobs: BlobReader;

  /**
   * `knownText`: a file's stored text when this index generation's searches already hold it (the
   * literal channel's text cache): only the rest of its blob is then inflated.
   */
  constructor(
    private readonly db: Database,
    private readonly codec: DeflateCodec,
    private readonly knownText: (fileId: number) => string | undefined = () => undefined,
  ) {
    this.blobs = blobReader(db);
  }

  /** Whether warming should stop: most of the budget is taken (what searches use is never evicted for it). */
  get nearlyFull(): boolean {
    return this.chars >= MAX_CHARS * 0.75;
  }

  has(fileId: number, hash: string): boolean {
    return this.entries.has(`${fileId}:${hash}`);
  }

  get(fileId: number, hash: string): StoredFile | undefined {
    const key = `${fileId}:${hash}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.file;
    }
    const file = readStoredFile(this.db, fileId, this.codec, this.knownText(fileId), (id) => this.blobs.read(id));
    if (!file) return undefined;
    // (Its lines' lengths, each with its line end: the text's length and one.)
    let chars = file.text.length + 1;
    // (The meta by its stored length: measuring its headers would decode it, which ranking does not need.)
    chars += file.metaLength ?? 0;
    if (chars > MAX_CHARS / 4) return file;
    this.entries.set(key, { file, chars });
    this.chars += chars;
    for (const [k, e] of this.entries) {
      if (this.chars <= MAX_CHARS) break;
      this.entries.delete(k);
      this.chars -= e.chars;
    }
    return file;
  }
}
