// Line-window chunking: fixed windows of `chunkLines` with `overlapLines` of overlap, shrunk when a
// window's bytes exceed the limit. The fallback for every file no structural chunker covers.
import type { ChunkDraft, ChunkLimits } from './types.ts';

export function lineWindows(lines: readonly string[], limits: ChunkLimits, header = '', from = 1, to = lines.length): ChunkDraft[] {
  const chunks: ChunkDraft[] = [];
  if (to < from) return chunks;
  const step = Math.max(1, limits.chunkLines - limits.overlapLines);
  let start = from;
  for (;;) {
    let end = Math.min(to, start + limits.chunkLines - 1);
    let bytes = 0;
    for (let i = start; i <= end; i++) {
      bytes += lines[i - 1].length + 1;
      if (bytes > limits.maxChunkBytes && i > start) {
        end = i - 1;
        break;
      }
    }
    chunks.push({ startLine: start, endLine: end, kind: 'window', symbol: null, header });
    if (end >= to) break;
    // Keep the overlap only when the window was full-length; after a byte cut, continue right after it.
    start = end - start + 1 >= limits.chunkLines ? start + step : end + 1;
  }
  return chunks;
}
