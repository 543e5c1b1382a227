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
  // The paths below the folder, a range of the path index ('/' + 1 is '0': [f/, f0) is exactly what
  // lies below f/); `rest` is the path below it (SQLite counts characters in both length and substr),
  // and a '/' in it means a file of a subfolder.
  const { below, rest, bind } = folder
    ? { below: 'path >= ?1 AND path < ?2', rest: 'substr(path, length(?1) + 1)', bind: [folder, `${folder.slice(0, -1)}0`] }
    : { below: '1', rest: 'path', bind: [] };
  // One pass: a row per subfolder with the files below it, and one (name null, first) for its own files.
  const groups = db.selectArrays(
    `SELECT CASE WHEN instr(${rest}, '/') > 0 THEN substr(${rest}, 1, instr(${rest}, '/') - 1) END AS name, count(*)
     FROM files WHERE ${below} GROUP BY name ORDER BY name`,
    bind,
  ) as Array<[string | null, number]>;
  const folders: TreeFolder[] = [];
  let total = 0;
  let ownTotal = 0;
  for (const [name, n] of groups) {
    total += Number(n);
    if (name === null) ownTotal = Number(n);
    else folders.push({ path: `${folder}${name}/`, name, files: Number(n) });
  }
  const own = ownTotal
    ? (db.selectArrays(`SELECT path, lang, size, line_count, flags FROM files WHERE ${below} AND instr(${rest}, '/') = 0 ORDER BY path LIMIT ?${bind.length + 1}`, [...bind, limit]) as FileRow[])
    : [];
  const out: Listing = { status: total ? 'ok' : 'empty', folder, folders, files: own.map(fileEntryOf), total, truncated: ownTotal > own.length };
  if (!total) out.hint = folder ? `no indexed file under ${folder}` : 'the index holds no files yet: run `hci index`';
  return out;
}
