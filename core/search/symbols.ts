// Reads the stored outlines: a file's symbol tree, a member key back to its current line range, and
// the innermost symbol at a file and line. Owns these lookups; the outlines are written by the
// indexer and kept compressed per file (core/index/file-data.ts); the files that may hold a member
// key are found through the FTS index by the key's words.
import type { Database } from '../sqlite/engine.ts';
import { readStoredOutline, walkOutline, type DeflateCodec, type OutlineSymbol } from '../index/file-data.ts';
import { asciiTwin } from '../ascii-regex.ts';

/** A word of a key segment as FTS5's unicode61 cuts it; its ASCII twin on ASCII text (core/ascii-regex.ts). */
const WORD = asciiTwin('[\\p{L}\\p{N}]+', 'gu');

import type { SymbolLocation } from '../contract/outline.ts';

export type { OutlineSymbol };

export type { SymbolLocation };

export function fileInfo(db: Database, path: string): { id: number; lang: string } | undefined {
  return db.selectObject('SELECT id, lang FROM files WHERE path = ?', [path]) as { id: number; lang: string } | undefined;
}

/** The symbol tree of one indexed file, in source order. */
export function readOutline(db: Database, fileId: number, codec: DeflateCodec): OutlineSymbol[] {
  return readStoredOutline(db, fileId, codec) ?? [];
}

function location(path: string, s: OutlineSymbol): SymbolLocation {
  return { path, kind: s.kind, name: s.name, member_key: s.member_key ?? null, start_line: s.start_line, end_line: s.end_line };
}

/**
 * The words a member key's symbol must appear with in its file: identifiers of the key's last two
 * segments (`Ns.Orders.OrderService.Place(int)` → orderservice, place), without parameter lists,
 * generic arguments and constructor markers. Lowercase, split like FTS5's unicode61 splits them.
 */
export function keyWords(memberKey: string): string[] {
  const bare = memberKey.replace(/\([^()]*\)|\[[^\]]*\]|<[^<>]*>/g, '');
  const segments = bare.split(/[.+]/).filter(Boolean).slice(-2);
  const words = segments.flatMap((seg) => seg.toLowerCase().match(WORD.for(seg)) ?? []);
  return [...new Set(words.filter((w) => !CONSTRUCTOR_MARKERS.has(w)))];
}

const CONSTRUCTOR_MARKERS = new Set(['ctor', 'cctor']);

/**
 * Files that may define a member key: those holding every word of the key (found by the FTS index,
 * so no table of keys is kept). Callers confirm the key itself in each file's outline.
 */
export function filesWithKey(db: Database, memberKey: string): Array<{ id: number; path: string; lang: string }> {
  const words = keyWords(memberKey);
  if (!words.length) return [];
  const perWord = words.map(() => 'SELECT c.file_id FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ?');
  return db.selectObjects(
    `SELECT f.id, f.path, f.lang FROM files f WHERE f.id IN (${perWord.join(' INTERSECT ')}) ORDER BY f.path`,
    words.map((w) => `"${w}"`),
  ) as Array<{ id: number; path: string; lang: string }>;
}

/** Where a member key is now (several places for partial types or duplicated keys). */
export function resolveMemberKey(db: Database, memberKey: string, codec: DeflateCodec): SymbolLocation[] {
  const out: SymbolLocation[] = [];
  for (const f of filesWithKey(db, memberKey)) {
    const found: SymbolLocation[] = [];
    for (const { symbol } of walkOutline(readOutline(db, f.id, codec))) {
      if (symbol.member_key === memberKey) found.push(location(f.path, symbol));
    }
    out.push(...found.sort((a, b) => a.start_line - b.start_line));
  }
  return out;
}

/** The innermost symbol of an outline whose range holds the line (null when none does). */
export function innermostSymbol(outline: readonly OutlineSymbol[], line: number): OutlineSymbol | null {
  let best: OutlineSymbol | null = null;
  let bestDepth = -1;
  // Depth-first in walkOutline's order, without its generator's object per symbol (a page's hits walk
  // their files' whole outlines).
  const walk = (nodes: readonly OutlineSymbol[], depth: number): void => {
    for (const s of nodes) {
      if (s.start_line <= line && s.end_line >= line && (!best || depth > bestDepth || (depth === bestDepth && s.end_line - s.start_line < best.end_line - best.start_line))) {
        best = s;
        bestDepth = depth;
      }
      if (s.children) walk(s.children, depth + 1);
    }
  };
  walk(outline, 0);
  return best;
}

/** The innermost symbol whose range holds the line (null when none does). */
export function symbolAt(db: Database, path: string, line: number, codec: DeflateCodec): SymbolLocation | null {
  const file = fileInfo(db, path);
  if (!file) return null;
  const best = innermostSymbol(readOutline(db, file.id, codec), line);
  return best ? location(path, best) : null;
}
