// Derives the five FTS column values of one chunk. The FTS table is contentless, so the very same
// values must be produced again to delete a row: this function is the single place that does it.
import { identsOf } from '../search/analyzer.ts';

export interface FtsSource {
  path: string;
  symbolKind: string | null;
  symbolName: string | null;
  memberKey: string | null;
  header: string;
  body: string;
}

/** [path, symbol, header, body, idents] as bound to chunks_fts. */
export function ftsValues(c: FtsSource): [string, string, string, string, string] {
  const symbolText = [c.symbolName, c.memberKey].filter(Boolean).join(' ');
  const symbol = symbolText ? `${symbolText} ${identsOf(symbolText)}` : '';
  const path = `${c.path} ${identsOf(c.path)}`;
  const idents = identsOf(`${c.header}\n${c.body}`);
  return [path, symbol, c.header, c.body, idents];
}

/** The body of a chunk: its lines of the file, \n-joined. */
export function sliceLines(lines: readonly string[], startLine: number, endLine: number): string {
  return lines.slice(startLine - 1, endLine).join('\n');
}
