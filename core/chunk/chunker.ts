// Picks how a file is cut: its language's outline extractor (tree-sitter or a block splitter), then
// the chunk builder; line windows for languages without one and whenever extraction fails or times
// out (counted as a parse fallback, never a lost file).
import type { ChunkLimits, ChunkResult } from './types.ts';
import { lineWindows } from './line-windows.ts';
import { chunksFromOutline } from './build.ts';
import { EXTRACTORS } from './registry.ts';
import type { TreeSitterHost } from './treesitter.ts';

export interface ChunkInput {
  path: string;
  lang: string;
  lines: readonly string[];
  /** The lines joined with \n (what parsers see; row N is line N + 1). */
  text: string;
}

/** Bump when any extractor or the builder changes what it produces: indexes re-chunk every file. */
export const CHUNKER_VERSION = 2;

export class Chunker {
  constructor(private readonly ts: TreeSitterHost | null) {}

  /** True when structural chunking is available (grammars were supplied by the runtime). */
  get structural(): boolean {
    return this.ts !== null;
  }

  async chunk(input: ChunkInput, limits: ChunkLimits): Promise<ChunkResult> {
    const extractor = this.ts ? EXTRACTORS.get(input.lang) : undefined;
    if (!extractor || input.lines.length === 0) {
      return { chunks: lineWindows(input.lines, limits), parseFallback: false, outline: null };
    }
    try {
      const outline = await extractor(input, this.ts!);
      if (!outline || outline.nodes.length === 0) {
        return { chunks: lineWindows(input.lines, limits), parseFallback: false, outline };
      }
      return { chunks: chunksFromOutline(input.lines, outline, limits), parseFallback: false, outline };
    } catch {
      return { chunks: lineWindows(input.lines, limits), parseFallback: true, outline: null };
    }
  }
}
