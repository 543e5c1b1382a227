// The chunk record every chunker produces and the index stores. Owns the shape only.
import type { FileOutline } from './outline.ts';

export interface ChunkSymbol {
  /** method, constructor, property, class, record, section, key, … */
  kind: string;
  name: string;
  /** A key that survives line drift, e.g. `Contoso.Shop.CatalogService.GetCatalogItemsAsync(int)`. */
  memberKey?: string;
}

export interface ChunkDraft {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** How the chunk was cut: `window` for line windows, or the structural unit (`member`, `section`…). */
  kind: string;
  symbol: ChunkSymbol | null;
  /** Context for search and display: namespace, containing type, heading path, heuristics. */
  header: string;
}

export interface ChunkLimits {
  chunkLines: number;
  overlapLines: number;
  /** Upper bound on a chunk's body in bytes (very long lines shrink a window). */
  maxChunkBytes: number;
}

export interface ChunkResult {
  chunks: ChunkDraft[];
  /** True when a structural chunker failed and line windows were used instead. */
  parseFallback: boolean;
  /** The file's symbol tree, when its language has an extractor. */
  outline: FileOutline | null;
}
