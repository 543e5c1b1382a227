// The CPU part of indexing one file, as a pure function: classify the bytes, hash, split lines,
// chunk, drop chunks that touch secrets, set the file's flags. Owns nothing else: reading, deciding
// what changed, skip counting and writing stay with the indexer, so the same function can run
// in-thread or in a runtime's worker (PreparePool) with identical results.
import type { ScannedFile, SkipReason } from '../scan/walker.ts';
import { classifyContent, splitLines } from '../scan/content.ts';
import { findSecretLines } from '../scan/secrets.ts';
import { isGeneratedPath, isTestPath } from '../scan/languages.ts';
import type { Chunker } from '../chunk/chunker.ts';
import type { Settings } from '../settings.ts';
import { FILE_FLAG } from './schema.ts';
import type { PreparedFile } from './writer.ts';
import { sha256Hex } from './sha256.ts';

export const MAX_CHUNK_BYTES = 64 * 1024;

/** The settings prepareFile reads (a worker receives only these). */
export type PrepareSettings = Pick<Settings, 'max_indexed_file_bytes' | 'binary_probe_bytes' | 'chunk_lines' | 'chunk_overlap_lines'>;

export function prepareSettings(s: Settings): PrepareSettings {
  return {
    max_indexed_file_bytes: s.max_indexed_file_bytes,
    binary_probe_bytes: s.binary_probe_bytes,
    chunk_lines: s.chunk_lines,
    chunk_overlap_lines: s.chunk_overlap_lines,
  };
}

/** Plain data (structured-clone safe). `secretChunks` > 0 when chunks were dropped for secrets; `secretsFound` when any secret line was seen. */
export type Prepared =
  | { kind: 'skip'; reason: SkipReason }
  | { kind: 'file'; file: PreparedFile; bytes: number; fallback: boolean; secretsFound: boolean };

export async function prepareFile(bytes: Uint8Array, f: ScannedFile, settings: PrepareSettings, chunker: Chunker): Promise<Prepared> {
  if (bytes.length > settings.max_indexed_file_bytes) return { kind: 'skip', reason: 'too_large' };
  const content = classifyContent(bytes, settings.binary_probe_bytes);
  if (content.kind === 'binary') return { kind: 'skip', reason: 'binary' };
  const hash = sha256Hex(bytes, 16);
  const lines = splitLines(content.text);
  const { chunks, parseFallback, outline } = await chunker.chunk({ path: f.path, lang: f.lang, lines, text: lines.join('\n') }, {
    chunkLines: settings.chunk_lines,
    overlapLines: settings.chunk_overlap_lines,
    maxChunkBytes: MAX_CHUNK_BYTES,
  });
  const secrets = findSecretLines(content.text, f.lang);
  let kept = chunks;
  let secretChunks = 0;
  if (secrets.length) {
    // Any chunk touching a secret is dropped whole: only kept chunks' text reaches the index file.
    kept = chunks.filter((c) => !secrets.some((s) => s.startLine <= c.endLine && s.endLine >= c.startLine));
    secretChunks = chunks.length - kept.length;
  }
  let flags = 0;
  if (isTestPath(f.path)) flags |= FILE_FLAG.test;
  if (isGeneratedPath(f.path)) flags |= FILE_FLAG.generated;
  if (content.invalidUtf8) flags |= FILE_FLAG.invalidUtf8;
  if (parseFallback) flags |= FILE_FLAG.parseFallback;
  return {
    kind: 'file',
    bytes: bytes.length,
    fallback: parseFallback,
    secretsFound: secrets.length > 0,
    file: { path: f.path, lang: f.lang, size: f.size, mtimeMs: f.mtimeMs, hash, flags, lines, chunks: kept, secretChunks, outline },
  };
}

/**
 * Runs prepareFile somewhere else (a Node worker thread). Results are those of prepareFile with
 * the runtime's own Chunker over the same grammars. A rejection means "not prepared there": the
 * indexer then prepares the file in-thread, so no file is lost to a worker failure.
 */
export interface PreparePool {
  prepare(file: ScannedFile, bytes: Uint8Array): Promise<Prepared>;
  close(): Promise<void>;
}

/** Supplied by a runtime through WorkspaceHost; called at most once per pass, only for passes with many files. */
export type PreparePoolFactory = (settings: PrepareSettings) => PreparePool;
