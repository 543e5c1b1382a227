// Go to definition by name: every symbol of the stored outlines whose name is exactly the identifier
// (a type, member, config key or markup element the chunkers named). Files that may hold it are found
// through the FTS index by the name's word, then confirmed in their outlines, so no table of names is
// kept. Owns this lookup; member keys and lines are symbols.ts.
import type { Database } from '../sqlite/engine.ts';
import { walkOutline, type DeflateCodec } from '../index/file-data.ts';
import { readOutline, type SymbolLocation } from './symbols.ts';
import { asciiTwin } from '../ascii-regex.ts';

/** Files read at most per lookup: a name used everywhere ("Dispose") stops here, in path order. */
const MAX_FILES = 400;
/** A word of a name as FTS5's unicode61 cuts it; its ASCII twin on ASCII text (core/ascii-regex.ts). */
const WORD = asciiTwin('[\\p{L}\\p{N}]+', 'gu');

/** Where symbols named `name` are defined, in path and line order. */
export function definitionsNamed(db: Database, name: string, codec: DeflateCodec): SymbolLocation[] {
  const words = name.toLowerCase().match(WORD.for(name)) ?? [];
  if (!words.length) return [];
  const expr = words.map((w) => `"${w}"`).join(' ');
  const files = db.selectObjects(
    `SELECT f.id, f.path FROM files f WHERE f.id IN (SELECT c.file_id FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ?)
     ORDER BY f.path LIMIT ${MAX_FILES}`,
    [expr],
  ) as Array<{ id: number; path: string }>;
  const out: SymbolLocation[] = [];
  for (const f of files) {
    for (const { symbol: s } of walkOutline(readOutline(db, Number(f.id), codec))) {
      if (s.name === name) out.push({ path: f.path, kind: s.kind, name: s.name, member_key: s.member_key ?? null, start_line: s.start_line, end_line: s.end_line });
    }
  }
  return out;
}
