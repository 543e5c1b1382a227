// What the index holds, read without a query: the list of indexed files (a quick file finder) and one
// file's indexed text with its kinds and paired files (a viewer; an agent expanding a hit). Owns these
// reads; the stored text is core/index/file-data.ts, pairing core/search/pairs.ts, the answers'
// shapes core/contract/browse.ts, freshness and hints the workspace and the service.
import type { Database } from '../sqlite/engine.ts';
import { HciError } from '../platform.ts';
import { FILE_FLAG } from '../index/schema.ts';
import { readStoredFile, type DeflateCodec } from '../index/file-data.ts';
import { pairedFiles } from '../search/pairs.ts';
import { FILES_LIMIT } from '../contract/limits.ts';
import type { FileKind } from '../contract/common.ts';
import type { FileEntry, FileRequest, FileResponse, FilesRequest, FilesResponse } from '../contract/browse.ts';

/** The kinds a file's stored flags mark (absent when none). */
export function kindsOf(flags: number): FileKind[] | undefined {
  const kinds: FileKind[] = [];
  if (flags & FILE_FLAG.test) kinds.push('test');
  if (flags & FILE_FLAG.generated) kinds.push('generated');
  return kinds.length ? kinds : undefined;
}

type Listing = Pick<FilesResponse, 'status' | 'files' | 'total' | 'truncated' | 'hint'>;

/** A files row as the listings read it: path, lang, size, line_count, flags. */
export type FileRow = [string, string, number, number, number];

/** A files row as the answer's file entry (its kinds from its flags). */
export function fileEntryOf([path, lang, size, lines, flags]: FileRow): FileEntry {
  const f: FileEntry = { path, lang, size: Number(size), lines: Number(lines) };
  const kinds = kindsOf(Number(flags));
  if (kinds) f.kinds = kinds;
  return f;
}

/** Indexed files under a folder prefix, in path order. */
export function listFiles(db: Database, req: FilesRequest): Listing {
  const prefix = (req.prefix ?? '').replace(/^\/+/, '');
  const limit = req.limit ?? FILES_LIMIT.default;
  const where = prefix ? 'WHERE substr(path, 1, ?) = ?' : '';
  const bind = prefix ? [prefix.length, prefix] : [];
  const total = Number(db.selectValue(`SELECT count(*) FROM files ${where}`, bind.length ? bind : undefined));
  const rows = db.selectArrays(`SELECT path, lang, size, line_count, flags FROM files ${where} ORDER BY path LIMIT ?`, [...bind, limit]) as FileRow[];
  const files = rows.map(fileEntryOf);
  const out: Listing = { status: files.length ? 'ok' : 'empty', files, total, truncated: total > files.length };
  if (!files.length) out.hint = prefix ? `no indexed file under ${prefix}` : 'the index holds no files yet: run `hci index`';
  return out;
}

type Reading = Omit<FileResponse, 'index' | 'error'>;

/** One file's indexed text (all of it, or a line range), with what the viewer shows around it. */
export function readIndexedFile(db: Database, req: FileRequest, codec: DeflateCodec): Reading {
  const path = req.path;
  const row = db.selectObject('SELECT id, lang, size, line_count, flags, secret_chunks FROM files WHERE path = ?', [path]) as
    | { id: number; lang: string; size: number; line_count: number; flags: number; secret_chunks: number }
    | undefined;
  if (!row) throw new HciError('not_indexed', `${path} is not in the index`, 'see `status` for skipped files, or reindex if the file is new');
  const stored = readStoredFile(db, Number(row.id), codec);
  const lines = stored?.lines ?? [];
  const lineCount = Number(row.line_count);
  const start = req.start_line ?? 1;
  const end = Math.min(req.end_line ?? lineCount, lineCount);
  if (start > Math.max(end, 1)) {
    throw new HciError('invalid_request', `start_line ${start} is past the end of ${path} (${lineCount} lines)`, 'lines are 1-based and inclusive');
  }
  const out: Reading = {
    status: 'ok', path, lang: row.lang, size: Number(row.size), line_count: lineCount, start_line: start, end_line: end,
    text: lines.slice(start - 1, end).join('\n'), secret_chunks: Number(row.secret_chunks),
    paired_files: pairedFiles(db, path, codec),
  };
  const kinds = kindsOf(Number(row.flags));
  if (kinds) out.kinds = kinds;
  if (out.secret_chunks) out.hint = `lines held a secret in ${out.secret_chunks} chunk${out.secret_chunks === 1 ? '' : 's'} of this file: those lines (and one on each side) were left out and are empty here`;
  return out;
}
