// Derives the six FTS column values of one chunk. The FTS table is contentless, so the very same
// values must be produced again to delete a row: this function is the single place that does it.
import { identsOf } from '../text/analyzer.ts';
import { cjkIndexText } from '../search/cjk.ts';

export interface FtsSource {
  path: string;
  symbolKind: string | null;
  symbolName: string | null;
  memberKey: string | null;
  header: string;
  body: string;
  /** Position of the chunk in its file (0 = first). */
  ordinal: number;
  /** The file's context lines (usings, namespace, x:Class …) that head every chunk's header. */
  fileContext: readonly string[];
}

/** The chunks_fts columns, in table order (core/index/schema.ts). */
export type FtsValues = [path: string, symbol: string, header: string, body: string, idents: string, cjk: string];

/** [path, symbol, header, body, idents, cjk] as bound to chunks_fts. */
export function ftsValues(c: FtsSource): FtsValues {
  const symbolText = [c.symbolName, c.memberKey].filter(Boolean).join(' ');
  const symbol = symbolText ? `${symbolText} ${identsOf(symbolText)}` : '';
  const path = `${c.path} ${identsOf(c.path)}`;
  const header = indexedHeader(c.header, c.ordinal, c.fileContext);
  const idents = identsOf(`${header}\n${c.body}`);
  // CJK runs as bigrams (cjk.ts); '' (one byte of row size) for the chunks of code without CJK.
  const cjk = cjkIndexText(`${c.path}\n${symbolText}\n${header}\n${c.body}`);
  return [path, symbol, header, c.body, idents, cjk];
}

/**
 * The header as indexed: the file's context lines count once per file (in its first chunk), not
 * once per chunk. Repeated on every chunk they were a fifth of the index's postings, and they
 * describe the file, which the first chunk already answers for. Shown headers keep them.
 */
export function indexedHeader(header: string, ordinal: number, fileContext: readonly string[]): string {
  if (ordinal === 0 || fileContext.length === 0 || header === '') return header;
  const fromFile = (line: string) =>
    fileContext.some((f) => f === line || (line.endsWith('…') && f.startsWith(line.slice(0, -1))));
  return header.split('\n').filter((l) => !fromFile(l)).join('\n');
}

/** The body of a chunk: its lines of the file, \n-joined. */
export function sliceLines(lines: readonly string[], startLine: number, endLine: number): string {
  return lines.slice(startLine - 1, endLine).join('\n');
}
