// Files left out of the index whose path names the query: a first page with few hits names them
// (the answer's `skipped_files` and its hint), so an agent learns that what it asked for may sit in a
// file the index does not hold (too large, binary, secret, past the file limit) instead of reading a
// short page as the whole truth. Owns the match rule; the samples it matches are the indexer's (the
// `skipped` table: up to SAMPLES_PER_REASON paths per reason of the last whole scan), read and split
// once per index generation (the search session's per-generation cache).
import type { SearchSession } from './session.ts';

/** At most this many files are named. */
export const SKIPPED_FILE_MATCHES = 5;

/** Reasons a person chose (ignore files, denied folders): naming those files would be noise. */
const UNNAMED_REASONS = ['ignored', 'denied_path'];

const STOP = new Set(['the', 'and', 'for', 'with', 'where', 'what', 'which', 'how', 'does', 'file', 'files', 'from', 'that', 'this', 'into', 'when']);

/** The query's words worth matching against a path: lowercased runs of letters and digits, 3+ long. */
function queryWords(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length >= 3 && !STOP.has(w)))];
}

/** A skipped file as the match reads it: its path split and lowercased once per generation. */
interface SkippedRow {
  path: string;
  reason: string;
  /** Lowercased folder names, file name, and file name without its last extension. */
  folders: string[];
  base: string;
  stem: string;
}

/** The per-generation key of the skipped files' rows (SearchSession.cached). */
export const SKIPPED_ROWS = 'skipped-files';

const SKIPPED_SQL = `SELECT path, reason FROM skipped WHERE reason NOT IN (${UNNAMED_REASONS.map(() => '?').join(', ')})`;

function readRows(session: SearchSession): SkippedRow[] {
  return session.arrays(SKIPPED_SQL, UNNAMED_REASONS).map(([path, reason]) => {
    const folders = String(path).toLowerCase().split('/');
    const base = folders.pop() ?? '';
    return { path: String(path), reason: String(reason), folders, base, stem: base.replace(/\.[^.]*$/, '') };
  });
}

/**
 * How well a path names the query's words: 3 for a word that is the file's stem, 2 for a word in
 * the stem (or a stem in a word), 1 for a word that is a folder's name. A file is named from 2 on.
 */
function pathScore(row: SkippedRow, words: readonly string[]): number {
  const { folders, base, stem } = row;
  let score = 0;
  for (const w of words) {
    if (w === stem || w === base) score += 3;
    else if ((w.length >= 4 && stem.includes(w)) || (stem.length >= 4 && w.includes(stem))) score += 2;
    else if (folders.includes(w)) score += 1;
  }
  return score;
}

/**
 * Skipped files whose path names the query, best first. The rows are read once per index generation
 * (a search with a short first page asked for the whole table every time: 14–39 of 135–271 CPU
 * samples of such searches in Chromium's Worker, FluentAvalonia). Call inside the session's
 * withPathFilter, which checks the generation.
 */
export function skippedFilesMatching(session: SearchSession, query: string): Array<{ path: string; reason: string }> {
  const words = queryWords(query);
  if (!words.length) return [];
  const rows = session.cached(SKIPPED_ROWS, () => readRows(session));
  const named: Array<{ path: string; reason: string; score: number }> = [];
  for (const r of rows) {
    const score = pathScore(r, words);
    if (score >= 2) named.push({ path: r.path, reason: r.reason, score });
  }
  return named
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .slice(0, SKIPPED_FILE_MATCHES)
    .map(({ path, reason }) => ({ path, reason }));
}

/** The hint's sentence for them. */
export function skippedFilesHint(files: ReadonlyArray<{ path: string; reason: string }>): string {
  return `not in the index but named like the query: ${files.map((f) => `${f.path} (${f.reason.replace(/_/g, ' ')})`).join(', ')}`;
}
