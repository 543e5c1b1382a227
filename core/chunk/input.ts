// What an outline extractor is given and what it must be: the chunker's input (a file's path,
// language and lines) and the extractor signature. Owns these shapes only, so core/chunk/lang/*,
// the chunker and the language table all import them from here and none of them imports another
// (no import circle in core/chunk; test/import-cycles.test.ts keeps it so).
import type { FileOutline } from './outline.ts';
import type { TreeSitterHost } from './treesitter.ts';

export interface ChunkInput {
  path: string;
  lang: string;
  lines: readonly string[];
  /** The lines joined with \n (what parsers see; row N is line N + 1). */
  text: string;
  /** Cut into line windows without a parse: a file over max_indexed_file_bytes (core/scan/size-policy.ts). */
  windowed?: boolean;
}

/** Builds a file's outline; null means "no structure found" (line windows are used). */
export type OutlineExtractor = (input: ChunkInput, ts: TreeSitterHost) => Promise<FileOutline | null>;

/** What extract found: `failed` when the extractor threw or timed out (the file falls back to line windows). */
export interface Extracted {
  outline: FileOutline | null;
  failed: boolean;
}
