// The CPU part of indexing one file, as pure functions: classify the bytes, hash, split lines and
// find secrets (classifyFile), parse and chunk (the Chunker; its parse, `extract`, may run in a
// runtime's ParsePool), then carve secret lines out of the chunks and set the file's flags (finishFile).
// Owns nothing else: reading, deciding what changed, skip counting and writing stay with the
// indexer. Only the parse, the hash and the secret scan cross to a worker: the parse is most of the
// CPU (tree-sitter), the other two need only the bytes and their text, and what crosses is small (a
// copy of the bytes in; the outline, the hash and the secret lines back), so the file's lines never
// travel between threads.
import type { ScannedFile, SkipReason } from '../scan/walker.ts';
import { classifyContent, splitLines } from '../scan/content.ts';
import { findSecretLines, type SecretFinding } from '../scan/secrets.ts';
import { generatedByContent, isGeneratedPath, isTestPath, projectFacts } from '../scan/roles.ts';
import type { Chunker, ChunkInput, Extracted } from '../chunk/chunker.ts';
import type { ChunkLimits, ChunkResult } from '../chunk/types.ts';
import type { FileOutline, OutlineNode } from '../chunk/outline.ts';
import type { Settings } from '../settings.ts';
import { FILE_FLAG } from './schema.ts';
import { sizeVerdict, type SizeSettings } from '../scan/size-policy.ts';
import type { FileRows, PreparedFile } from './writer.ts';
import type { PackedFts } from './packed-fts.ts';
import { deflateFileText, type DeflateCodec, type DeflatedText } from './file-data.ts';
import { sha256Hex } from './sha256.ts';
import { carveSecrets } from './secret-carve.ts';

export const MAX_CHUNK_BYTES = 64 * 1024;

/** What a worker needs of the settings to make a file's rows as the writer's thread would (ready-rows.ts). */
export interface RowSettings {
  size: SizeSettings;
  binaryProbeBytes: number;
  limits: ChunkLimits;
  /** Keep FileRows.known (the writer fills the literal index or vectors from it too). */
  known: boolean;
}

/** A file's rows (ready-rows.ts) as the writer inserts them, with its FTS values packed (the writer binds those), and what the indexer counts. */
export type ReadyFile =
  | { kind: 'skip'; reason: SkipReason }
  | { kind: 'rows'; rows: FileRows & { fts: PackedFts }; bytes: number; fallback: boolean; parseErrors: boolean; secretsFound: boolean };

export function chunkLimits(s: Pick<Settings, 'chunk_lines' | 'chunk_overlap_lines'>): ChunkLimits {
  return { chunkLines: s.chunk_lines, overlapLines: s.chunk_overlap_lines, maxChunkBytes: MAX_CHUNK_BYTES };
}

/** `secretChunks` > 0 when chunks lost lines to secrets; `secretsFound` when any secret line was seen. */
export type Prepared =
  | { kind: 'skip'; reason: SkipReason }
  | { kind: 'file'; file: PreparedFile; bytes: number; fallback: boolean; parseErrors: boolean; secretsFound: boolean }
  /** Its rows already encoded, FTS values and all, by a parse worker (ready-rows.ts). */
  | Extract<ReadyFile, { kind: 'rows' }>;

/** A file read and classified, waiting for its chunks. */
export interface ClassifiedFile {
  kind: 'text';
  file: ScannedFile;
  bytes: number;
  hash: string;
  invalidUtf8: boolean;
  secrets: SecretFinding[];
  /** What the chunker gets (in-thread or in a pool); its lines are the file's. */
  input: ChunkInput;
}

/**
 * What the chunker is given for a file's decoded text: its lines, and them rejoined with '\n'. The
 * indexer and a pool's worker both build it here, so the worker parses exactly the text that is cut.
 */
function chunkInput(file: { path: string; lang: string }, decoded: string): ChunkInput {
  const lines = splitLines(decoded);
  return { path: file.path, lang: file.lang, lines, text: joinedLines(decoded, lines) };
}

/**
 * `lines.join('\n')`. Without a '\r' in the text, splitLines cut it at '\n' only and dropped one
 * trailing empty line: the join is the text itself less a final '\n', with no new string built (the
 * indexer and every parse worker joined each file's 25 MB of lines on Avalonia again).
 */
export function joinedLines(decoded: string, lines: readonly string[]): string {
  if (decoded.includes('\r')) return lines.join('\n');
  return decoded.endsWith('\n') ? decoded.slice(0, -1) : decoded;
}

/**
 * `known`: the file's hash and secret lines as a pool's worker found them in the same bytes
 * (extractFromBytes): they are not computed again here.
 */
export function classifyFile(bytes: Uint8Array, f: ScannedFile, settings: SizeSettings & Pick<Settings, 'binary_probe_bytes'>, known?: Partial<KnownFacts>): ClassifiedFile | { kind: 'skip'; reason: SkipReason } {
  const size = sizeVerdict(settings, f.lang, bytes.length);
  if (size === 'too_large') return { kind: 'skip', reason: 'too_large' };
  const content = classifyContent(bytes, settings.binary_probe_bytes);
  if (content.kind === 'binary') return { kind: 'skip', reason: 'binary' };
  const input = chunkInput(f, content.text);
  if (size === 'windows') input.windowed = true;
  return {
    kind: 'text',
    file: f,
    bytes: bytes.length,
    hash: known?.hash ?? sha256Hex(bytes, 16),
    invalidUtf8: content.invalidUtf8,
    secrets: known?.secrets ?? findSecretLines(content.text, f.lang),
    input,
  };
}

export function finishFile(r: ClassifiedFile, chunked: ChunkResult, deflatedText?: DeflatedText): Prepared {
  const f = r.file;
  // A secret's lines (and a margin) leave their chunk; the rest of it stays (secret-carve.ts). Only
  // kept chunks' lines reach the index file.
  const { kept, touched: secretChunks } = carveSecrets(chunked.chunks, r.secrets, r.input.lines);
  const outline = r.secrets.length && chunked.outline ? redactOutline(chunked.outline, r.secrets, r.input.lines) : chunked.outline;
  let flags = 0;
  if (isTestPath(f.path)) flags |= FILE_FLAG.test;
  if (isGeneratedPath(f.path)) flags |= FILE_FLAG.generated;
  else if (generatedByContent(f.path, r.input.text)) flags |= FILE_FLAG.generated | FILE_FLAG.generatedContent;
  const project = projectFacts(f.path, r.input.text);
  if (project?.test) flags |= FILE_FLAG.projectTest;
  if (project?.exe) flags |= FILE_FLAG.projectExe;
  if (r.invalidUtf8) flags |= FILE_FLAG.invalidUtf8;
  if (chunked.parseFallback) flags |= FILE_FLAG.parseFallback;
  const parseErrors = (chunked.outline?.parseErrors ?? 0) > 0;
  if (parseErrors) flags |= FILE_FLAG.parseErrors;
  if (r.input.windowed) flags |= FILE_FLAG.largeWindows;
  return {
    kind: 'file',
    bytes: r.bytes,
    fallback: chunked.parseFallback,
    parseErrors,
    secretsFound: r.secrets.length > 0,
    file: { path: f.path, lang: f.lang, size: r.bytes, mtimeMs: f.mtimeMs, hash: r.hash, flags, lines: r.input.lines, text: r.input.text, chunks: kept, secretChunks, outline, ...(deflatedText ? { deflatedText } : {}) },
  };
}

/**
 * The outline as stored for a file with secrets: it is kept for the whole file (outline, resolve),
 * and node names, facts and context lines are cut from the lines they start on — a CI step is named
 * by its `run:` command, a config key by its line. A node that starts on a secret line goes (with
 * its subtree); one that only contains a secret line keeps its name but loses its facts; file
 * context lines that share text with a secret line go.
 */
function redactOutline(outline: FileOutline, secrets: readonly SecretFinding[], lines: readonly string[]): FileOutline {
  const inSecret = (line: number) => secrets.some((s) => s.startLine <= line && s.endLine >= line);
  const overlaps = (n: OutlineNode) => secrets.some((s) => s.startLine <= n.endLine && s.endLine >= n.startLine);
  const walk = (nodes: OutlineNode[]): OutlineNode[] =>
    nodes.flatMap((n) => {
      if (!overlaps(n)) return [n];
      if (inSecret(n.startLine)) return [];
      const { facts: _facts, ...rest } = n;
      return [{ ...rest, children: walk(n.children) }];
    });
  const secretTexts = secrets.flatMap((s) => lines.slice(s.startLine - 1, s.endLine)).map((l) => l.trim()).filter(Boolean);
  const fileContext = outline.fileContext?.filter((c) => !secretTexts.some((t) => t.includes(c.trim()) || c.includes(t)));
  return { ...outline, nodes: walk(outline.nodes), ...(fileContext ? { fileContext } : {}) };
}

/** The whole of it in this thread. */
export async function prepareFile(bytes: Uint8Array, f: ScannedFile, settings: Settings, chunker: Chunker): Promise<Prepared> {
  const r = classifyFile(bytes, f, settings);
  if (r.kind === 'skip') return r;
  return finishFile(r, await chunker.chunk(r.input, chunkLimits(settings)));
}

/**
 * Runs Chunker.extract somewhere else (a Node worker thread) on the file's text as classifyFile
 * would decode and split it, with the runtime's own Chunker over the same grammars, so results are
 * identical. `bytes` stay the caller's (the pool sends a copy). A result rejects when the file was
 * not parsed there (worker failure, pool closed): the indexer then parses it in-thread, so no file
 * is lost. A binary file yields no outline (the indexer skips it).
 */
export interface ParsePool {
  /** `rows`: this file's rows too (PoolResult.ready), from a pool made with row settings. */
  extract(file: { path: string; lang: string }, bytes: Uint8Array, opts?: { rows?: boolean }): Promise<PoolResult>;
  close(): Promise<void>;
}

/**
 * Supplied by a runtime through WorkspaceHost; called at most once per pass, only for passes with
 * many files. `langs`: the languages of the files it is about to be sent (its worker may load their
 * grammars up front).
 */
export type ParsePoolFactory = (opts: {
  binaryProbeBytes: number;
  langs?: readonly string[];
  /**
   * The settings with which the worker makes a file's rows (PoolResult.ready, with the index's codec)
   * when a request asks for them (extract's `rows`), instead of only its outline and facts.
   */
  rows?: RowSettings;
}) => ParsePool;

/**
 * Extracted as JSON: what a pool hands back. Results wait in the indexer's read-ahead window for a
 * while; as object trees they outlived young-generation collections and filled the old generation
 * with garbage (peak RSS), as one string each they are a single cheap object until parsed, when used.
 */
export type ExtractedJson = string;

/** A file's content hash and secret lines, as classifyFile computes them from its bytes. */
export interface KnownFacts {
  hash: string;
  secrets: SecretFinding[];
}

/**
 * A pool's answer for one file: its outline, its hash and secret lines (`facts`, for a text file), and
 * (from a worker given a codec) its text deflated as the blob stores it.
 */
export interface PoolResult {
  /** The file's rows, when asked for (then `extracted` is '' and the rest absent). */
  ready?: ReadyFile;
  extracted: ExtractedJson;
  facts?: KnownFacts;
  deflatedText?: DeflatedText;
}

/**
 * What a pool's worker runs for each file: the text classifyFile would chunk, then its outline.
 * With a codec it also deflates the text as the index blob stores it (deflateFileText of the very
 * text classifyFile gives the chunker), so the writer's thread does not: in the browser the hci
 * Worker, which reads, cuts, writes SQLite and deflated every file, was the thread a cold pass waited
 * for, and the parse worker had time to spare. The writer uses it only when every line is kept.
 * It also hashes the bytes and scans the text for secrets (`facts`), which classifyFile then takes
 * as they are: the same functions of the same bytes and text, off the writer's thread.
 */
export async function extractFromBytes(
  bytes: Uint8Array,
  file: { path: string; lang: string },
  binaryProbeBytes: number,
  chunker: Chunker,
  opts: {
    /** Deflate the text as the blob stores it (the browser's worker). */
    codec?: DeflateCodec;
    /** The runtime's own sha256Hex(bytes, 16), when it has a faster one (Node: node:crypto). */
    contentHash?: (bytes: Uint8Array) => string;
  } = {},
): Promise<PoolResult> {
  const { codec, contentHash = (b: Uint8Array) => sha256Hex(b, 16) } = opts;
  const content = classifyContent(bytes, binaryProbeBytes);
  if (content.kind === 'binary') return { extracted: JSON.stringify({ outline: null, failed: false } satisfies Extracted) };
  const input = chunkInput(file, content.text);
  const extracted = JSON.stringify(await chunker.extract(input));
  // What classifyFile would compute from the same bytes and text: done here, off the writer's thread.
  const facts: KnownFacts = { hash: contentHash(bytes), secrets: findSecretLines(content.text, file.lang) };
  return codec ? { extracted, facts, deflatedText: deflateFileText(input.text, codec) } : { extracted, facts };
}

export function parseExtracted(json: ExtractedJson): Extracted {
  return JSON.parse(json) as Extracted;
}
