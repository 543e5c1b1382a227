// The file list an index carries for its first search (core/search/session.ts indexedFiles reads it):
// every file's id, path, language and flags as one JSON value in a table of its own, beside the index
// generation it lists (deflated in a pack). A packed index carries it for a remote reader (core/index/pack.ts
// writes it): from the files table's covering index the list was ~0.37 MB of Avalonia's 4.8k files
// over HTTP, from this ~52 KB. A live index gets it in the last transaction of every whole-tree pass
// (indexer.ts, recordFileList; a pass over some paths leaves it to the search), as JSON text: a first search after an open then parses it instead of
// building the JSON from the files table. Owns the table, its encoding and when a reader may trust it (same
// generation: anything that writes the index bumps it, so a record a later write did not renew — a
// vector or literal fill, a compaction, a pass killed before its last transaction — is not used); the
// list's uses are the session's.
import type { Database } from '../sqlite/engine.ts';
import type { DeflateCodec } from './file-data.ts';

export const PACKED_FILE_LIST = 'pack_file_list';

/** One file: id, path, language, flags (the shape SearchSession.indexedFiles reads). */
export type FileListRow = [number, string, string, number];

const NO_DICTIONARY = new Uint8Array(0);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const GENERATION = "(SELECT value FROM meta WHERE key = 'generation')";

const LIST_JSON = 'SELECT json_group_array(json_array(id, path, lang, flags)) FROM (SELECT id, path, lang, flags FROM files ORDER BY id)';

/** Writes the list of `db`'s files, for its current generation (inside the pack's transaction). */
export function writePackedFileList(db: Database, codec: DeflateCodec): void {
  const json = String(db.selectValue(LIST_JSON) ?? '[]');
  db.exec(`DROP TABLE IF EXISTS ${PACKED_FILE_LIST}; CREATE TABLE ${PACKED_FILE_LIST}(generation TEXT NOT NULL, data BLOB NOT NULL)`);
  db.exec({ sql: `INSERT INTO ${PACKED_FILE_LIST}(generation, data) VALUES (coalesce(${GENERATION}, ''), ?)`, bind: [codec.deflateRaw(encoder.encode(json), NO_DICTIONARY)] });
}

/**
 * Records the list of `db`'s files for its current generation, unless it is there already (a pass
 * that changed nothing bumps no generation): the indexer calls it in the last transaction of every
 * whole-tree pass. The table is made once and its row replaced, so later passes
 * change no schema (a schema change makes every open connection prepare its statements again).
 * Returns the rows it wrote (id order), null when the record was current.
 */
export function recordFileList(db: Database): FileListRow[] | null {
  const generation = String(db.selectValue(`SELECT coalesce(${GENERATION}, '')`));
  db.exec(`CREATE TABLE IF NOT EXISTS ${PACKED_FILE_LIST}(generation TEXT NOT NULL, data BLOB NOT NULL)`);
  if (db.selectValue(`SELECT 1 FROM ${PACKED_FILE_LIST} WHERE generation = ?`, [generation]) !== undefined) return null;
  const json = String(db.selectValue(LIST_JSON) ?? '[]');
  db.exec(`DELETE FROM ${PACKED_FILE_LIST}`);
  // As JSON text, not deflated: deflating Avalonia's 368 KB list cost 5-29 ms of every pass (load 16), inflating it 1.2 ms of a first search; a local reader pays no bytes.
  db.exec({ sql: `INSERT INTO ${PACKED_FILE_LIST}(generation, data) VALUES (?, ?)`, bind: [generation, json] });
  return JSON.parse(json) as FileListRow[];
}

/** The recorded file list in id order, when `db` carries one written at its current generation; else null (none, or a later write's). */
export function readPackedFileList(db: Database, codec: DeflateCodec): FileListRow[] | null {
  if (db.selectValue(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '${PACKED_FILE_LIST}'`) === undefined) return null;
  const data = db.selectValue(`SELECT data FROM ${PACKED_FILE_LIST} WHERE generation = coalesce(${GENERATION}, '') LIMIT 1`);
  // A pack's list is deflated (bytes over HTTP), an indexing pass's is JSON text (recordFileList).
  if (typeof data === 'string') return JSON.parse(data) as FileListRow[];
  if (!(data instanceof Uint8Array)) return null;
  return JSON.parse(decoder.decode(codec.inflateRaw(data, NO_DICTIONARY))) as FileListRow[];
}
