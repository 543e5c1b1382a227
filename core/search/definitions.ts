// Go to definition by name: every symbol of the stored outlines whose name is exactly the identifier
// (a type, member, config key or markup element the chunkers named). Files that may hold it are found
// through the FTS index by the name's word, then confirmed in their outlines, so no table of names is
// kept. A common word ("Tell", "Dispose") is in more files than one lookup reads: files whose path or
// chunk symbols (a member's name and key) hold it are read first — where a name is declared in a file
// of many members, or names the file — and the answer says how many files it left unread. Owns this
// lookup; member keys and lines are symbols.ts.
import type { Database } from '../sqlite/engine.ts';
import { walkOutline, type DeflateCodec } from '../index/file-data.ts';
import { readOutline, type SymbolLocation } from './symbols.ts';
import { asciiTwin } from '../ascii-regex.ts';

/** Files read at most per lookup: a name used everywhere ("Dispose") stops here, in path order. */
const MAX_FILES = 400;
/** A word of a name as FTS5's unicode61 cuts it; its ASCII twin on ASCII text (core/ascii-regex.ts). */
const WORD = asciiTwin('[\\p{L}\\p{N}]+', 'gu');

/** Symbols named `name`, in path and line order, and how many files that mention it were not read. */
export interface NamedDefinitions {
  locations: SymbolLocation[];
  /** Files that hold the name's words but were past the lookup's cap (0 when every one was read). */
  unread: number;
}

/** Where symbols named `name` are defined, in path and line order. */
export function definitionsNamed(db: Database, name: string, codec: DeflateCodec, maxFiles = MAX_FILES): NamedDefinitions {
  const words = name.toLowerCase().match(WORD.for(name)) ?? [];
  if (!words.length) return { locations: [], unread: 0 };
  const expr = words.map((w) => `"${w}"`).join(' ');
  const matching = 'SELECT c.file_id FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ?';
  // (count(*) OVER () is every matching file, counted before the LIMIT: what the lookup leaves unread.)
  const files = db.selectObjects(
    `SELECT f.id, f.path, count(*) OVER () AS total FROM files f WHERE f.id IN (${matching})
     ORDER BY f.id NOT IN (${matching}), f.path LIMIT ${maxFiles}`,
    [expr, `{path symbol} : (${expr})`],
  ) as Array<{ id: number; path: string; total: number }>;
  const unread = files.length ? Number(files[0].total) - files.length : 0;
  const out: SymbolLocation[] = [];
  for (const f of files) {
    for (const { symbol: s } of walkOutline(readOutline(db, Number(f.id), codec))) {
      if (s.name === name) out.push({ path: f.path, kind: s.kind, name: s.name, member_key: s.member_key ?? null, start_line: s.start_line, end_line: s.end_line });
    }
  }
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.start_line - b.start_line));
  return { locations: out, unread };
}
