// "More like this": from a hit id (its chunk), a file and line (the innermost chunk holding it) or
// a code snippet (embedded as a document) to the nearest chunks, through the same pipeline a
// semantic search runs (a Searcher's prepared search with that query vector: the request's filters,
// rerank, the per-file cap, paging), leaving out the source chunk itself. Owns resolving the source
// and the answer's wording; the Searcher runs it, its host says how fresh the index is.
import { HciError } from '../platform.ts';
import type { Database } from '../sqlite/engine.ts';
import type { IndexFreshness } from '../contract/common.ts';
import type { SimilarRequest, SimilarResponse } from '../contract/similar.ts';
import type { SearchRequest } from '../contract/search.ts';
import type { Searcher } from './searcher.ts';
import { encodeCursor, pageRange } from './page.ts';
import { baseResponse, failedResponse } from './present.ts';
import { parseHitId } from './query-log.ts';

export type { SimilarRequest, SimilarResponse };

/** The hit id key of similar's hits (explain shows their text; there is no query to recall). */
export const SIMILAR_KEY = 'similar';

type Source = NonNullable<SimilarResponse['source']>;

/** What similar needs of the workspace: its Searcher (opened on demand), its path rule and freshness. */
export interface SimilarHost {
  /** The searcher of the open index (after the mode check: mode_unavailable comes before no_index). */
  searcher(): Promise<Searcher>;
  /** A caller's path as a workspace-relative one, or null when it leaves the workspace. */
  normalizePath(p: string): string | null;
  freshnessIn(db: Database): IndexFreshness;
  withRunningFlag(f: IndexFreshness): IndexFreshness;
}

export async function similarTo(req: SimilarRequest, host: SimilarHost): Promise<SimilarResponse> {
  const t0 = Date.now();
  const search: SearchRequest = { query: '', mode: 'semantic', limit: req?.limit, paths: req?.paths, exts: req?.exts, exclude_paths: req?.exclude_paths };
  try {
    const given = [req?.hit_id !== undefined, req?.path !== undefined || req?.line !== undefined, req?.snippet !== undefined].filter(Boolean).length;
    if (given !== 1) throw new HciError('invalid_request', 'similar takes one of: hit_id, path with line, or snippet', 'e.g. {"hit_id": "83.k4f9a2"}, {"path": "src/Orders/OrderService.cs", "line": 42} or {"snippet": "decimal ApplyDiscount(…)"}');
    const searcher = await host.searcher();
    const range = pageRange({ limit: req.limit, cursor: req.cursor });
    const prepared = await searcher.prepare(search, req.snippet ?? null);
    const out = await searcher.store.read((db) => {
      let source: Source;
      let chunkId: number | undefined;
      if (req.snippet !== undefined) source = { kind: 'snippet' };
      else {
        chunkId = req.hit_id !== undefined ? parseHitId(req.hit_id).chunkId : chunkAtLine(db, host.normalizePath, req.path, req.line);
        const row = db.selectArray('SELECT f.path, c.start_line, c.end_line FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id = ?', [chunkId]) as [string, number, number] | undefined;
        if (!row) throw new HciError('stale_hit', `chunk ${chunkId} is no longer in the index (its file was re-indexed)`, 'search again for fresh hit ids');
        source = { kind: req.hit_id !== undefined ? 'hit' : 'line', chunk_id: chunkId, path: row[0], start_line: row[1], end_line: row[2] };
      }
      const { page } = prepared.page(db, range, SIMILAR_KEY, chunkId === undefined ? undefined : { chunkId });
      return { page, source, index: host.freshnessIn(db) };
    });
    const hits = out.page.hits;
    const res: SimilarResponse = {
      ...baseResponse(search), match: hits.length ? 'similar' : 'none', hits, index: host.withRunningFlag(out.index), skipped: {}, took_ms: Date.now() - t0, source: out.source,
    };
    if (out.page.more) res.next_cursor = encodeCursor(range.offset + hits.length);
    if (!hits.length) {
      res.status = 'empty';
      res.hint = 'no other chunk has a vector near this one (within the filters); run `hci index` if vectors are still being built';
    }
    return res;
  } catch (e) {
    return { ...failedResponse(search, e, t0), source: null };
  }
}

/** The innermost chunk holding the line (the shortest range; the first of equals). */
function chunkAtLine(db: Database, normalize: (p: string) => string | null, path: string | undefined, line: number | undefined): number {
  if (path === undefined || line === undefined) throw new HciError('invalid_request', 'path and line go together', 'pass both, e.g. {"path": "src/App.cs", "line": 12}');
  const rel = normalize(path);
  if (rel === null) throw new HciError('path_outside_workspace', `"${path}" is not a path inside the workspace`, 'pass a workspace-relative path');
  const id = db.selectValue(
    'SELECT c.id FROM chunks c JOIN files f ON f.id = c.file_id WHERE f.path = ? AND c.start_line <= ? AND c.end_line >= ? ORDER BY c.end_line - c.start_line, c.id LIMIT 1',
    [rel, line, line],
  ) as number | undefined;
  if (id === undefined) {
    const known = db.selectValue('SELECT 1 FROM files WHERE path = ?', [rel]) !== undefined;
    throw new HciError('not_indexed', known ? `no chunk of ${rel} holds line ${line}` : `${rel} is not in the index`, known ? 'pick a line inside the file' : 'check the path (workspace-relative), or reindex');
  }
  return Number(id);
}
