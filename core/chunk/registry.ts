// Which outline extractor serves which language. Each extractor lives in core/chunk/lang/ and
// knows one language; a language without one is cut into line windows.
import type { ChunkInput } from './chunker.ts';
import type { FileOutline } from './outline.ts';
import type { TreeSitterHost } from './treesitter.ts';

/** Builds a file's outline; null means "no structure found" (line windows are used). */
export type OutlineExtractor = (input: ChunkInput, ts: TreeSitterHost) => Promise<FileOutline | null>;

export const EXTRACTORS = new Map<string, OutlineExtractor>([
]);
