// Picks the chunker for a file. Today every language gets line windows; the structural
// (tree-sitter) chunkers plug in here per language and fall back to windows when they fail.
import type { ChunkLimits, ChunkResult } from './types.ts';
import { lineWindows } from './line-windows.ts';

export interface ChunkInput {
  path: string;
  lang: string;
  lines: readonly string[];
}

export async function chunkFile(input: ChunkInput, limits: ChunkLimits): Promise<ChunkResult> {
  return { chunks: lineWindows(input.lines, limits), parseFallback: false };
}
