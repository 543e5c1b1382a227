// The file list a packed index carries for a remote reader (core/index/pack.ts writes it,
// core/search/session.ts indexedFiles reads it): every file's id, path, language and flags as one
// deflated JSON value in a table of its own, beside the index generation it lists. A first search
// reads the whole file list (declarations' stems, variant groups, the project map, the counts);
// from the files table's covering index that was ~0.37 MB of Avalonia's 4.8k files over HTTP, from
// this ~52 KB. Owns the table, its encoding and when a reader may trust it (same generation:
// anything that writes the index bumps it); the list's uses are the session's.
import type { Database } from '../sqlite/engine.ts';
import type { DeflateCodec } from './file-data.ts';

export const PACKED_FILE_LIST = 'pack_file_list';

/** One file: id, path, language, flags (the shape SearchSession.indexedFiles reads). */
export type FileListRow = [number, string, string, number];

const NO_DICTIONARY = new Uint8Array(0);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const GENERATION = "(SELECT value FROM meta WHERE key = 'generation')";

/** Writes the list of `db`'s files, for its current generation (inside the pack's transaction). */
export function writePackedFileList(db: Database, codec: DeflateCodec): void {
  const json = String(db.selectValue('SELECT json_group_array(json_array(id, path, lang, flags)) FROM (SELECT id, path, lang, flags FROM files ORDER BY id)') ?? '[]');
  db.exec(`DROP TABLE IF EXISTS ${PACKED_FILE_LIST}; CREATE TABLE ${PACKED_FILE_LIST}(generation TEXT NOT NULL, data BLOB NOT NULL)`);
  db.exec({ sql: `INSERT INTO ${PACKED_FILE_LIST}(generation, data) VALUES (coalesce(${GENERATION}, ''), ?)`, bind: [codec.deflateRaw(encoder.encode(json), NO_DICTIONARY)] });
}

/** The packed file list in id order, when `db` carries one written at its current generation; else null (a live index). */
export function readPackedFileList(db: Database, codec: DeflateCodec): FileListRow[] | null {
  if (db.selectValue(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '${PACKED_FILE_LIST}'`) === undefined) return null;
  const data = db.selectValue(`SELECT data FROM ${PACKED_FILE_LIST} WHERE generation = coalesce(${GENERATION}, '') LIMIT 1`);
  if (!(data instanceof Uint8Array)) return null;
  return JSON.parse(decoder.decode(codec.inflateRaw(data, NO_DICTIONARY))) as FileListRow[];
}
