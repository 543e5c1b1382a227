// One folder of the index, a level at a time (the tree verb): its subfolders with the number of
// indexed files below each, and its own files, each list by name. Folders are those of the indexed
// files' paths: a folder with nothing indexed below it is not there. Owns this read; the shapes are
// core/contract/tree.ts, the file entries' fields core/browse/files.ts, freshness and hints the
// workspace and the service.
import type { Database } from '../sqlite/engine.ts';
import { FILES_LIMIT } from '../contract/limits.ts';
import type { TreeFolder, TreeRequest, TreeResponse } from '../contract/tree.ts';
import { fileEntryOf, type FileRow } from './files.ts';

type Listing = Pick<TreeResponse, 'status' | 'folder' | 'folders' | 'files' | 'total' | 'truncated' | 'hint'>;

/** The folder as a prefix of the paths below it: '' (the root) or with one trailing slash. */
export function folderPrefix(folder: string | undefined): string {
  const f = (folder ?? '').replace(/^\/+/, '').replace(/\/+$/, '');
  return f ? `${f}/` : '';
}

/** A folder of the index: its subfolders (with counts) and its own files. */
export function listFolder(db: Database, req: TreeRequest): Listing {
  const folder = folderPrefix(req.folder);
  const limit = req.limit ?? FILES_LIMIT.default;
  // `rest`: the path below the folder; a '/' in it means a file of a subfolder.
  const under = `SELECT path, lang, size, line_count, flags, substr(path, ?1 + 1) AS rest FROM files WHERE substr(path, 1, ?1) = ?2`;
  const bind = [folder.length, folder];
  const total = Number(db.selectValue(`SELECT count(*) FROM (${under})`, bind));
  const folders = (db.selectArrays(
    `SELECT substr(rest, 1, instr(rest, '/') - 1) AS name, count(*) FROM (${under}) WHERE instr(rest, '/') > 0 GROUP BY name ORDER BY name`,
    bind,
  ) as Array<[string, number]>).map(([name, n]): TreeFolder => ({ path: `${folder}${name}/`, name, files: Number(n) }));
  const own = db.selectArrays(`SELECT path, lang, size, line_count, flags FROM (${under}) WHERE instr(rest, '/') = 0 ORDER BY path LIMIT ?3`, [...bind, limit]) as FileRow[];
  const ownTotal = total - folders.reduce((n, f) => n + f.files, 0);
  const out: Listing = { status: total ? 'ok' : 'empty', folder, folders, files: own.map(fileEntryOf), total, truncated: ownTotal > own.length };
  if (!total) out.hint = folder ? `no indexed file under ${folder}` : 'the index holds no files yet: run `hci index`';
  return out;
}
