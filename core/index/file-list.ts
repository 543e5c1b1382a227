// The file list an index carries for its first search (core/search/session.ts indexedFiles reads it):
// every file's id, path, language and flags as one JSON value in a table of its own, beside the index
// generation it lists (deflated in a pack). A packed index carries it for a remote reader (core/index/pack.ts
// writes it): from the files table's covering index the list was ~0.37 MB of Avalonia's 4.8k files
// over HTTP, from this ~52 KB. A pack's list also carries each file's content hash: a remote reader's
// keyword passes then take their candidates' file fields from it instead of reading files rows
// (SearchSession.packedFiles, search/channels/fts.ts). A live index gets it in the last transaction of every whole-tree pass
// (indexer.ts, recordFileList; a pass over some paths leaves it to the search), as JSON text: a first search after an open then parses it instead of
// building the JSON from the files table. Owns the list's JSON and when it is recorded; the table,
// its two encodings and the generation check (a record a later write did not renew — a vector or
// literal fill, a compaction, a pass killed before its last transaction — is not used) are
// generation-record.ts's; the list's uses are the session's.
import type { Database } from '../sqlite/engine.ts';
import type { DeflateCodec } from './file-data.ts';
import { readRecord, recordIsCurrent, writeRecord } from './generation-record.ts';

export const PACKED_FILE_LIST = 'pack_file_list';

/** One file: id, path, language, flags, and in a pack's list its content hash (the shape SearchSession.indexedFiles reads). */
export type FileListRow = [number, string, string, number, string?];

const LIST_JSON = 'SELECT json_group_array(json_array(id, path, lang, flags)) FROM (SELECT id, path, lang, flags FROM files ORDER BY id)';
const PACKED_LIST_JSON = 'SELECT json_group_array(json_array(id, path, lang, flags, hash)) FROM (SELECT id, path, lang, flags, hash FROM files ORDER BY id)';

/** Writes the list of `db`'s files with their hashes, for its current generation, deflated (inside the pack's transaction). */
export function writePackedFileList(db: Database, codec: DeflateCodec): void {
  writeRecord(db, PACKED_FILE_LIST, String(db.selectValue(PACKED_LIST_JSON) ?? '[]'), codec);
}

/**
 * Records the list of `db`'s files for its current generation, unless it is there already (a pass
 * that changed nothing bumps no generation): the indexer calls it in the last transaction of every
 * whole-tree pass. Returns the rows it wrote (id order), null when the record was current.
 */
export function recordFileList(db: Database): FileListRow[] | null {
  if (recordIsCurrent(db, PACKED_FILE_LIST)) return null;
  const json = String(db.selectValue(LIST_JSON) ?? '[]');
  // As JSON text, not deflated: deflating Avalonia's 368 KB list cost 5-29 ms of every pass (load 16), inflating it 1.2 ms of a first search; a local reader pays no bytes.
  writeRecord(db, PACKED_FILE_LIST, json);
  return JSON.parse(json) as FileListRow[];
}

/** The recorded file list in id order, when `db` carries one written at its current generation; else null (none, or a later write's). */
export function readPackedFileList(db: Database, codec: DeflateCodec): FileListRow[] | null {
  const json = readRecord(db, PACKED_FILE_LIST, codec);
  return json === null ? null : (JSON.parse(json) as FileListRow[]);
}
