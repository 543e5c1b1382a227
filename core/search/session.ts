// What searches keep per open index connection, owned by the workspace that opened it (one session
// per IndexStore): the codec of the index's blobs, the decoded-file cache, the chunk count and the
// project map (path roles) per index generation, and the `hci_path_ok(path)` SQL function with the path filter of the search
// running now. Nothing here lives in a module variable, so two workspaces in one process (or one
// host with several indexes) never see each other's filter, cache or codec. What a search does is
// the pipeline's (pipeline.ts).
import type { Database } from '../sqlite/engine.ts';
import type { DeflateCodec } from '../index/file-data.ts';
import type { PathFilter } from './filters.ts';
import { StoredFileCache } from './file-cache.ts';
import { ProjectMap } from './roles.ts';

export class SearchSession {
  readonly files: StoredFileCache;
  private filter: PathFilter | null = null;
  private counted: { generation: string; count: number } | null = null;
  private projectMap: { generation: string; map: ProjectMap } | null = null;

  constructor(
    readonly db: Database,
    readonly codec: DeflateCodec,
  ) {
    this.files = new StoredFileCache(db, codec);
    // Registered once per connection; it reads this session's filter of the moment.
    db.createFunction('hci_path_ok', (_ctx: number, path: unknown) => (this.filter && !this.filter(String(path)) ? 0 : 1), {
      arity: 1,
      deterministic: false,
    });
  }

  /** Whether a path filter applies now (channels' SQL then calls hci_path_ok). */
  get filtered(): boolean {
    return this.filter !== null;
  }

  /** Runs fn (synchronously, inside the caller's read transaction) with `filter` as hci_path_ok's filter. */
  withPathFilter<T>(filter: PathFilter | null, fn: () => T): T {
    this.filter = filter;
    try {
      return fn();
    } finally {
      this.filter = null;
    }
  }

  private generation(): string {
    return String(this.db.selectValue("SELECT value FROM meta WHERE key = 'generation'") ?? '');
  }

  /** The index's project files and their facts (path roles), read once per index generation. */
  projects(): ProjectMap {
    const generation = this.generation();
    if (this.projectMap?.generation === generation) return this.projectMap.map;
    const map = ProjectMap.read(this.db);
    this.projectMap = { generation, map };
    return map;
  }

  /** The number of chunks, counted once per index generation (every commit bumps it). */
  chunkCount(): number {
    const generation = this.generation();
    if (this.counted?.generation === generation) return this.counted.count;
    const count = Number(this.db.selectValue('SELECT count(*) FROM chunks'));
    this.counted = { generation, count };
    return count;
  }
}
