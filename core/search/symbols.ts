// Reads the stored outlines: a file's symbol tree, a member key back to its current line range, and
// the innermost symbol at a file and line. Owns the SQL over the symbols table; the outlines are
// written by the indexer.
import type { Database } from '../sqlite/engine.ts';

export interface OutlineSymbol {
  kind: string;
  name: string;
  member_key?: string;
  start_line: number;
  end_line: number;
  children?: OutlineSymbol[];
}

export interface SymbolLocation {
  path: string;
  kind: string;
  name: string;
  member_key: string | null;
  start_line: number;
  end_line: number;
}

interface Row {
  id: number;
  parent_id: number | null;
  kind: string;
  name: string;
  member_key: string | null;
  start_line: number;
  end_line: number;
}

export function fileInfo(db: Database, path: string): { id: number; lang: string } | undefined {
  return db.selectObject('SELECT id, lang FROM files WHERE path = ?', [path]) as { id: number; lang: string } | undefined;
}

/** The symbol tree of one indexed file, in source order. */
export function readOutline(db: Database, fileId: number): OutlineSymbol[] {
  const rows = db.selectObjects(
    'SELECT id, parent_id, kind, name, member_key, start_line, end_line FROM symbols WHERE file_id = ? ORDER BY ordinal',
    [fileId],
  ) as unknown as Row[];
  const byId = new Map<number, OutlineSymbol>();
  const roots: OutlineSymbol[] = [];
  for (const r of rows) {
    const s: OutlineSymbol = { kind: r.kind, name: r.name, start_line: r.start_line, end_line: r.end_line };
    if (r.member_key) s.member_key = r.member_key;
    byId.set(r.id, s);
    const parent = r.parent_id !== null ? byId.get(r.parent_id) : undefined;
    if (parent) (parent.children ??= []).push(s);
    else roots.push(s);
  }
  return roots;
}

/** Where a member key is now (several places for partial types or duplicated keys). */
export function resolveMemberKey(db: Database, memberKey: string): SymbolLocation[] {
  return db.selectObjects(
    `SELECT f.path, s.kind, s.name, s.member_key, s.start_line, s.end_line
     FROM symbols s JOIN files f ON f.id = s.file_id WHERE s.member_key = ? ORDER BY f.path, s.start_line`,
    [memberKey],
  ) as unknown as SymbolLocation[];
}

/** The innermost symbol whose range holds the line (null when none does). */
export function symbolAt(db: Database, path: string, line: number): SymbolLocation | null {
  const row = db.selectObject(
    `SELECT f.path, s.kind, s.name, s.member_key, s.start_line, s.end_line
     FROM symbols s JOIN files f ON f.id = s.file_id
     WHERE f.path = ? AND s.start_line <= ? AND s.end_line >= ?
     ORDER BY s.depth DESC, (s.end_line - s.start_line) ASC LIMIT 1`,
    [path, line, line],
  ) as unknown as SymbolLocation | undefined;
  return row ?? null;
}
