// What a first search needs of the whole file list, recorded apart from it: the index's files by the
// lower-cased part of their name before the first dot (`Align.cs` and `FATabView.properties.cs` under
// "align" and "fatabview": where declarations.ts looks for the file a name is declared in), the
// project files (roles.ts ProjectMap's input: a file's role) and the counts an answer reports (files,
// chunks, files with parse errors). Worked out by the indexer in the last transaction of every
// whole-tree pass and recorded for that generation (recordFileStems), in a table of its own keyed by
// stem, so that a first search after an open looks up the few stems it asks for (a B-tree seek each)
// and reads those files by id instead of reading the whole file list and grouping it — ~6 ms of each
// first query on Avalonia's 4.8k files — and counts nothing (each count a scan of a table, ~1.5 ms).
// (One JSON or text value of all stems was no cheaper: reading ~110 KB out of WASM and parsing it
// cost as much as the list.)
// Without a current record (a pass over some paths, a later write, an older index, a pack, which
// leaves the table out) or on a remote index the session uses the file list, as before. Owns the
// table and the lookups; what a stem or a project is worth is declarations.ts's and roles.ts's.
import type { Database } from '../sqlite/engine.ts';
import { nameStem } from '../scan/languages.ts';
import type { FileListRow } from '../index/file-list.ts';
import { PROJECT_LANGUAGES } from '../scan/roles.ts';
import { FILE_FLAG } from '../index/schema.ts';
import { CURRENT_GENERATION, currentGeneration as generationOf } from '../index/meta.ts';

/** An indexed file as session.ts's SearchSession.indexedFiles lists it. */
type IndexedFile = { fileId: number; path: string; lang: string; flags: number };

/** What the lookups use of a search session (session.ts's SearchSession, which reads its counts and projects here: not imported). */
interface SearchSession {
  readonly db: Database;
  readonly readsAhead: boolean;
  cached<T>(key: string, make: () => T): T;
  value(sql: string, params?: readonly string[]): unknown;
  arrays(sql: string, params?: readonly string[]): unknown[][];
  indexedFiles(): readonly IndexedFile[];
}

/**
 * The table: a row per stem with its files' ids (`1,62,3419`, id order), and rows under keys no file
 * name's stem can be (a name holds no `/`): the generation recorded, the rows of files in a project
 * language (JSON, id order) and the counts (JSON).
 */
export const FILE_STEMS_TABLE = 'first_search';
const GENERATION_KEY = '/generation';
const PROJECTS_KEY = '/projects';
const COUNTS_KEY = '/counts';

/** The counts an answer reports (workspace.ts freshness): files, chunks, files with parse errors. */
export interface RecordedCounts { files: number; chunks: number; parseErrors: number }

/** The files of `rows` (id order) by their stem, in id order. */
export function stemsOf<T extends { path: string }>(rows: readonly T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const f of rows) {
    const stem = nameStem(f.path).toLowerCase();
    const list = map.get(stem);
    if (list) list.push(f);
    else map.set(stem, [f]);
  }
  return map;
}

/**
 * Records the stems and project files of `db`'s files (`files()`, id order, called only when
 * needed) for its current generation, unless that generation's are there already. The indexer calls
 * it in the last transaction of every whole-tree pass; a later write that does not record them
 * leaves an older generation's rows, which searches do not use. The table is made once and its rows
 * replaced (a schema change makes every open connection prepare its statements again).
 */
export function recordFileStems(db: Database, files: () => readonly FileListRow[]): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${FILE_STEMS_TABLE}(stem TEXT PRIMARY KEY, ids TEXT NOT NULL) WITHOUT ROWID`);
  const generation = generationOf(db);
  if (db.selectValue(`SELECT ids FROM ${FILE_STEMS_TABLE} WHERE stem = ?`, [GENERATION_KEY]) === generation) return;
  const rows = files();
  const langs = new Set(PROJECT_LANGUAGES);
  db.exec(`DELETE FROM ${FILE_STEMS_TABLE}`);
  const st = db.prepare(`INSERT INTO ${FILE_STEMS_TABLE}(stem, ids) VALUES (?, ?)`);
  try {
    for (const [stem, list] of stemsOf(rows.map(([fileId, path]) => ({ fileId, path })))) st.bind([stem, list.map((f) => f.fileId).join(',')]).stepReset();
    st.bind([PROJECTS_KEY, JSON.stringify(rows.filter((r) => langs.has(r[2])))]).stepReset();
    const counts: RecordedCounts = { files: rows.length, chunks: Number(db.selectValue('SELECT count(*) FROM chunks')), parseErrors: rows.filter((r) => r[3] & FILE_FLAG.parseErrors).length };
    st.bind([COUNTS_KEY, JSON.stringify(counts)]).stepReset();
    st.bind([GENERATION_KEY, generation]).stepReset();
  } finally {
    st.finalize();
  }
}

/** The files in a project language recorded for `db`'s current generation, else null (none, or an older generation's rows). */
export function recordedProjectFiles(db: Database): IndexedFile[] | null {
  return current(db) ? projectRows(db.selectValue(`SELECT ids FROM ${FILE_STEMS_TABLE} WHERE stem = ?`, [PROJECTS_KEY])) : null;
}

function projectRows(json: unknown): IndexedFile[] | null {
  return typeof json === 'string' ? (JSON.parse(json) as FileListRow[]).map(([fileId, path, lang, flags]) => ({ fileId, path, lang, flags })) : null;
}

/** The counts recorded for this generation, for a local index; else null (the session counts). */
export function recordedCounts(session: SearchSession): RecordedCounts | null {
  if (!recorded(session)) return null;
  return session.cached('first-search:counts', () => {
    const json = session.value(`SELECT ids FROM ${FILE_STEMS_TABLE} WHERE stem = ?`, [COUNTS_KEY]);
    return typeof json === 'string' ? JSON.parse(json) as RecordedCounts : null;
  });
}

/** Whether the table holds the current generation's stems (`value`: a statement's first value, the session's cached statements or the database's). */
function current(db: Database, value: (sql: string, params: string[]) => unknown = (sql, params) => (params.length ? db.selectValue(sql, params) : db.selectValue(sql))): boolean {
  if (value("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [FILE_STEMS_TABLE]) === undefined) return false;
  const recordedAt = value(`SELECT ids FROM ${FILE_STEMS_TABLE} WHERE stem = ?`, [GENERATION_KEY]);
  return recordedAt !== undefined && String(recordedAt) === String(value(`SELECT ${CURRENT_GENERATION}`, []));
}

/** Whether this generation's record serves this session (a local index, the rows current; checked once per generation). */
function recorded(session: SearchSession): boolean {
  return session.cached('first-search:current', () => !session.readsAhead && current(session.db, (sql, params) => session.value(sql, params)));
}

/** The files in a project language (ProjectMap.fromFiles' input), in id order: this generation's record, else the file list. */
export function projectLanguageFiles(session: SearchSession): readonly IndexedFile[] {
  return (recorded(session) ? projectRows(session.value(`SELECT ids FROM ${FILE_STEMS_TABLE} WHERE stem = ?`, [PROJECTS_KEY])) : null) ?? session.indexedFiles();
}

/**
 * The index's files named `stem` (lower case), in id order (once per generation and stem): from this
 * generation's record and the files' rows by id when it has one and the index is local, else from
 * the file list grouped by stem (SearchSession.indexedFiles). The rows read by id give their hashes
 * too, to `hashes` (declarations' per-generation hash map).
 */
export function filesNamed(session: SearchSession, stem: string, hashes: Map<number, string>): readonly IndexedFile[] {
  const lookup = session.cached('first-search:stems', (): ((stem: string) => readonly IndexedFile[]) => {
    if (recorded(session)) {
      const read = new Map<string, readonly IndexedFile[]>();
      return (s) => {
        let files = read.get(s);
        if (files) return files;
        const ids = s.startsWith('/') ? undefined : session.value(`SELECT ids FROM ${FILE_STEMS_TABLE} WHERE stem = ?`, [s]);
        const rows = typeof ids === 'string'
          ? session.arrays(`SELECT id, path, lang, flags, hash FROM files WHERE id IN (SELECT value FROM json_each('[' || ? || ']')) ORDER BY id`, [ids]) as Array<[number, string, string, number, string]>
          : [];
        files = rows.map(([id, path, lang, flags, hash]) => {
          hashes.set(Number(id), hash);
          return { fileId: Number(id), path, lang, flags: Number(flags) };
        });
        read.set(s, files);
        return files;
      };
    }
    const map = stemsOf(session.indexedFiles());
    return (s) => map.get(s) ?? [];
  });
  return lookup(stem);
}
