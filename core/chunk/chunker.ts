// Picks how a file is cut, in two steps: extract (its language's outline extractor: tree-sitter or a
// block splitter; the costly part, which a runtime may run in a worker) then cut (the chunk builder
// over that outline); line windows for languages without one, for files the size rule windows
// (ChunkInput.windowed), and whenever extraction fails or times out (counted as a parse fallback,
// never a lost file).
import type { ChunkLimits, ChunkResult } from './types.ts';
import type { ChunkInput, Extracted } from './input.ts';
import { lineWindows } from './line-windows.ts';
import { chunksFromOutline } from './build.ts';
import { extractorFor } from './registry.ts';
import { languageById } from '../languages/table.ts';
import type { TreeSitterHost } from './treesitter.ts';

export type { ChunkInput, Extracted } from './input.ts';
export { CHUNKER_VERSION } from './version.ts';

export class Chunker {
  constructor(private readonly ts: TreeSitterHost | null) {}

  /** True when structural chunking is available (grammars were supplied by the runtime). */
  get structural(): boolean {
    return this.ts !== null;
  }

  /** Loads the extractors and grammars of these languages (table ids) ahead of their first file; failures are left for that file. */
  async preload(langs: readonly string[]): Promise<void> {
    if (!this.ts) return;
    const grammars = new Set(langs.flatMap((l) => languageById(l)?.grammars ?? []));
    await Promise.all([this.ts.preload([...grammars]), ...langs.map((l) => extractorFor(l).catch(() => undefined))]);
  }

  async chunk(input: ChunkInput, limits: ChunkLimits): Promise<ChunkResult> {
    return cutChunks(input, await this.extract(input), limits);
  }

  /** The parse: the file's outline from its language's extractor (null without one). Throws only when an extractor module fails to load. */
  async extract(input: ChunkInput): Promise<Extracted> {
    const extractor = this.ts && input.lines.length > 0 && !input.windowed ? await extractorFor(input.lang) : undefined;
    if (!extractor) return { outline: null, failed: false };
    try {
      return { outline: await extractor(input, this.ts!), failed: false };
    } catch {
      return { outline: null, failed: true };
    }
  }
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
