// Picks how a file is cut, in two steps: extract (its language's outline extractor: tree-sitter or a
// block splitter; the costly part, which a runtime may run in a worker) then cut (the chunk builder
// over that outline); line windows for languages without one and whenever extraction fails or times
// out (counted as a parse fallback, never a lost file).
import type { ChunkLimits, ChunkResult } from './types.ts';
import type { FileOutline } from './outline.ts';
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
    return cutChunks(input, await this.extract(input), limits);
  }

  /** The parse: the file's outline from its language's extractor (null without one). Never throws. */
  async extract(input: ChunkInput): Promise<Extracted> {
    const extractor = this.ts ? EXTRACTORS.get(input.lang) : undefined;
    if (!extractor || input.lines.length === 0) return { outline: null, failed: false };
    try {
      return { outline: await extractor(input, this.ts!), failed: false };
    } catch {
      return { outline: null, failed: true };
    }
  }
}

/** What extract found: `failed` when the extractor threw or timed out (the file falls back to line windows). */
export interface Extracted {
  outline: FileOutline | null;
  failed: boolean;
}

/** The cut, from an outline (no parsing: cheap, and the same wherever the outline was extracted). */
export function cutChunks(input: ChunkInput, x: Extracted, limits: ChunkLimits): ChunkResult {
  if (!x.outline || x.outline.nodes.length === 0) return { chunks: lineWindows(input.lines, limits), parseFallback: x.failed, outline: x.outline };
  try {
    return { chunks: chunksFromOutline(input.lines, x.outline, limits), parseFallback: false, outline: x.outline };
  } catch {
    return { chunks: lineWindows(input.lines, limits), parseFallback: true, outline: null };
  }
}
