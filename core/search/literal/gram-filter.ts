// The literal index's candidates: the files whose trigrams (files_tri) hold the query's, narrowed by
// their gram filters (files_grams, core/index/gram-bloom.ts) to those holding every 4- and
// 8-character piece of its literals too — before any text is read. The trigram index says which
// trigrams a file holds but not where: at 50k chunks a literal's trigrams sat together in 500–1,300
// files for 60–120 that hold it, and reading those wrong files was most of the slowest searches.
// One statement yields each candidate with its filter, stepped one row at a time (FTS5 evaluates
// lazily: a search that stops at its hit cap reads no further), the filter tested where SQLite
// holds it (core/sqlite/raw-rows.ts). Owns that stream; which files match is matcher.ts's.
import type { Database } from '../../sqlite/engine.ts';
import { rawRows } from '../../sqlite/raw-rows.ts';
import { bloomHolds, gramProbes } from '../../index/gram-bloom.ts';
import type { TextPattern } from '../query.ts';
import { literalKeys } from './trigrams.ts';

export interface CandidateStream {
  next(): number | null;
  close(): void;
}

/** The gram hashes every file holding all the query's literals holds (none from regexes); empty: no filtering. */
export function literalProbes(patterns: readonly TextPattern[], caseSensitive: boolean): number[] {
  return gramProbes(patterns.filter((p) => p.kind === 'literal').map((p) => literalKeys(p.source, !caseSensitive)));
}

/**
 * The ids of the files matching `expr` (an FTS5 expression over files_tri) whose gram filter holds
 * every probe, in file id order (the index's: scan order, by path, for a first build); `dropped`
 * counts the files the filter ruled out. A file without a filter row is kept (nothing rules it out).
 */
export function trigramCandidates(db: Database, expr: string, filtered: boolean, probes: readonly number[]): CandidateStream & { dropped(): number } {
  // Without probes (regexes) the filters are not read.
  const st = db.prepare(
    (probes.length > 0 ? 'SELECT files_tri.rowid, g.bloom FROM files_tri LEFT JOIN files_grams g ON g.file_id = files_tri.rowid' : 'SELECT files_tri.rowid, NULL FROM files_tri') +
      (filtered ? ' JOIN files f ON f.id = files_tri.rowid WHERE files_tri MATCH ? AND hci_path_ok(f.path)' : ' WHERE files_tri MATCH ?'),
  );
  st.bind([expr]);
  const raw = rawRows(db, st);
  let dropped = 0;
  const holds = (bloom: Uint8Array) => probes.length === 0 || bloom.length === 0 || bloomHolds(bloom, probes);
  return {
    next(): number | null {
      while (raw.step()) {
        if (holds(raw.blobView(1))) return raw.int(0);
        dropped++;
      }
      return null;
    },
    close: () => st.finalize(),
    dropped: () => dropped,
  };
}
