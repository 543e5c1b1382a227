// What the index keeps of each file besides its FTS postings, packed into one `file_data` row: the
// indexed text (lines of dropped secret chunks blanked) and the outline plus the chunk headers,
// deflate-compressed as two streams (the text alone is what literal searches read). Owns that encoding, the codec seam, and reading it back (chunk bodies, outlines,
// the exact FTS values of stored chunks). Which codec runs is the host's choice (WorkspaceHost.deflate),
// passed in by every caller: no module holds one. SQL that writes the rows belongs to the writer;
// ranking and member-key lookups belong to search.
//
// Why compressed per file rather than a text column per chunk: source code deflates 4-6x as a whole
// file but poorly in 1 KB pieces, and chunk headers and member keys repeat within a file. Every
// reader needs only a few files per query (the hits), so inflating them costs well under a
// millisecond. Any SQLite can still open the file: the blobs are a short header and raw deflate (RFC 1951) with the
// preset dictionary of deflate-dictionary.ts.
import type { Database } from '../sqlite/engine.ts';
import { rawRows, type RawRows } from '../sqlite/raw-rows.ts';
import { HciError } from '../platform.ts';
import type { FileOutline, OutlineNode } from '../chunk/outline.ts';
import { ftsValues, indexedHeader, sliceLines, type FtsValues } from './fts-row.ts';
import { FORMAT_3_DICTIONARY } from './deflate-dictionary.ts';
import type { OutlineSymbol } from '../contract/outline.ts';

/** One node of a stored outline: the shape `outline` answers with (core/contract/outline.ts). */
export type { OutlineSymbol };

/** A file's stored data, decoded. */
export interface StoredFile {
  /**
   * The indexed text by line (1-based line N is lines[N-1]); lines outside kept chunks are empty.
   * Split from `text` when first read: ranking reads most files' chunks by line range only
   * (storedLines), and a warm query's split of every file it decoded was a tenth of what it allocated.
   */
  readonly lines: string[];
  /** How many lines the text has (`lines.length`, counted without splitting it). */
  readonly lineCount: number;
  /**
   * The same text whole (`lines` joined by \n): one scan of it answers what a test of every line would
   * (a name that holds no line break). No extra memory: V8's split keeps its longer lines as slices of it.
   */
  text: string;
  /** The UTF-8 length of the meta (headers, keys, file context, outline) as stored, decoded or not (a cache's measure). */
  metaLength?: number;
  /** Chunk headers by chunk ordinal, as indexed: without the file context after the first chunk (see displayHeader). */
  headers: string[];
  /** Chunk member keys by chunk ordinal (null when the chunk has none). */
  keys: Array<string | null>;
  /** The outline's file context lines (see fts-row.ts indexedHeader). */
  fileContext: string[];
  outline: OutlineSymbol[];
}

/** What the writer hands over for one file. */
export interface FileDataInput {
  lines: readonly string[];
  /** The lines joined with '\n', when the caller has it (saves joining them again). */
  text?: string;
  chunks: ReadonlyArray<{ startLine: number; endLine: number; header: string; symbol: { memberKey?: string } | null }>;
  /** False when chunks were dropped (secrets): only lines of kept chunks are stored. */
  allKept: boolean;
  outline: FileOutline | null;
  /** The text already deflated (deflateFileText of `text`, by a parse worker); used when allKept. */
  deflatedText?: DeflatedText;
}

/**
 * Raw deflate with a preset dictionary. fflate (pure JS, fflate-codec.ts) serves every runtime; a host with a native
 * zlib passes it in (Node: 2.7x faster deflate, 5x faster inflate here). Any two codecs read each
 * other's blobs: the format is the deflate stream, not the implementation.
 */
export interface DeflateCodec {
  /** The result (of either call) may be a view into a larger buffer: a caller copies what it keeps. */
  deflateRaw(data: Uint8Array, dictionary: Uint8Array): Uint8Array;
  /** `size`: the inflated length when the caller knows it (a JS inflater then allocates once: fflate 2.3–2.8x faster over the 5k bench corpus). */
  inflateRaw(data: Uint8Array, dictionary: Uint8Array, size?: number): Uint8Array;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const dictionary = encoder.encode(FORMAT_3_DICTIONARY);

/**
 * One blob per file (format 7): the text and the meta deflated apart, so that a literal search
 * reads a candidate's text without inflating its meta (the outline, chunk headers and member keys:
 * about 45% of a file's inflated bytes at 50k chunks):
 *
 *   0x07 · varint text length · varint deflated text length · varint meta length · deflated text · deflated meta
 *
 * (lengths in bytes: inflated, the size hint of codec.inflateRaw). 0x07 cannot begin a deflate
 * stream (block type 3 is reserved), so a blob of the earlier layout — `<meta JSON>\n<text>` as one
 * stream, kept by indexes migrated from format 6 until their file is written again — is told apart
 * by its first byte and read as before. The text keeps every line of a kept chunk; other lines
 * (dropped secret chunks) are empty.
 */
export function encodeFileData(f: FileDataInput, codec: DeflateCodec): Uint8Array {
  return encodeFileDataSized(f, codec).data;
}

/** The first byte of a two-stream blob (see encodeFileData). */
const TWO_STREAMS = 0x07;

/**
 * What decodeFileData gives back for a blob's FTS values (its lines, headers, keys, file context),
 * known when the blob was made: the writer derives the FTS rows it inserts from it instead of
 * inflating the blob it has just deflated (one pass over Avalonia inflated 27 MB of text and 16 MB
 * of meta again, and parsed the outline's JSON, only for that).
 */
export type FtsSourceFile = Pick<StoredFile, 'lines' | 'headers' | 'keys' | 'fileContext'>;

/** A file's blob, with its inflated length (decodeFileData's size hint) and, when known to be exact, its decoded FTS source. */
export interface EncodedFileData {
  data: Uint8Array;
  rawLength: number;
  /**
   * The stored text and the meta's headers, keys and file context as they went into the blob, when
   * decoding the blob gives exactly these back: every string well-formed UTF-16 (TextEncoder turns a
   * lone surrogate into U+FFFD) and the text not starting with U+FEFF (TextDecoder drops a leading
   * BOM). Absent otherwise: the caller decodes the blob.
   */
  known?: { text: string; headers: string[]; keys: Array<string | 0>; fileContext: string[] };
}

/** encodeFileData, with the inflated length (text and meta; decodeFileData's size hint) and the decoded FTS source when exact. */
export function encodeFileDataSized(f: FileDataInput, codec: DeflateCodec): EncodedFileData {
  const stored = f.allKept && f.deflatedText ? null : storedText(f);
  const text = stored === null ? f.deflatedText! : deflateFileText(stored, codec);
  const fileContext = f.outline?.fileContext ?? [];
  const meta: PackedMeta = {
    o: f.outline ? packNodes(f.outline.nodes) : [],
    h: f.chunks.map((c, i) => indexedHeader(c.header, i, fileContext)),
    k: f.chunks.map((c) => c.symbol?.memberKey ?? 0),
    f: fileContext,
  };
  const rawMeta = encoder.encode(JSON.stringify(meta));
  const deflatedMeta = codec.deflateRaw(rawMeta, dictionary);
  const head = [TWO_STREAMS, ...varint(text.rawLength), ...varint(text.deflated.length), ...varint(rawMeta.length)];
  const data = new Uint8Array(head.length + text.deflated.length + deflatedMeta.length);
  data.set(head, 0);
  data.set(text.deflated, head.length);
  data.set(deflatedMeta, head.length + text.deflated.length);
  // The text a given deflatedText holds is the caller's `text` (its contract); without it, not known here.
  const plain = stored ?? f.text;
  const exact = plain !== undefined && plain.charCodeAt(0) !== 0xfeff && wellFormed(plain) && meta.h.every(wellFormed) && meta.f.every(wellFormed) && meta.k.every((k) => k === 0 || wellFormed(k));
  return { data, rawLength: text.rawLength + rawMeta.length, ...(exact ? { known: { text: plain, headers: meta.h, keys: meta.k, fileContext: meta.f } } : {}) };
}

/** No lone surrogate (nor any surrogate: pairs are rare in code, and a false "no" only costs a decode). */
const SURROGATE = /[\uD800-\uDFFF]/;
function wellFormed(s: string): boolean {
  return !SURROGATE.test(s);
}

/** The FTS source of an EncodedFileData's `known` part: what decodeFileData would read from the blob. */
export function knownFtsSource(known: NonNullable<EncodedFileData['known']>): FtsSourceFile {
  return { lines: known.text.split('\n'), headers: known.headers, keys: known.keys.map((k) => k || null), fileContext: known.fileContext };
}

/** The text a blob keeps: every line, or only the lines of kept chunks (the others empty). */
function storedText(f: FileDataInput): string {
  if (f.allKept) return f.text ?? f.lines.join('\n');
  const keep = new Uint8Array(f.lines.length);
  for (const c of f.chunks) keep.fill(1, c.startLine - 1, c.endLine);
  return f.lines.map((l, i) => (keep[i] ? l : '')).join('\n');
}

/** The deflated text stream of a blob whose every line is kept: a parse worker makes it beside the outline. */
export interface DeflatedText {
  /** The text's UTF-8 length (the blob's size hint). */
  rawLength: number;
  deflated: Uint8Array;
}

/** A blob's text stream, deflated: the writer's, or a parse worker's from the same text (chunkInput's). */
export function deflateFileText(text: string, codec: DeflateCodec): DeflatedText {
  const raw = encoder.encode(text);
  return { rawLength: raw.length, deflated: codec.deflateRaw(raw, dictionary) };
}

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** A two-stream blob's parts (null for a blob of the one-stream layout). */
function streams(blob: Uint8Array): { textLength: number; text: Uint8Array; metaLength: number; meta: Uint8Array } | null {
  if (blob[0] !== TWO_STREAMS) return null;
  let at = 1;
  const next = (): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (at >= blob.length) throw new Error('the blob ends inside its header');
      const b = blob[at++];
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 128;
    }
  };
  const textLength = next();
  const deflatedText = next();
  const metaLength = next();
  if (at + deflatedText > blob.length) throw new Error('the blob is shorter than its header says');
  return { textLength, text: blob.subarray(at, at + deflatedText), metaLength, meta: blob.subarray(at + deflatedText) };
}

/**
 * `knownText`: the blob's text when the caller already holds it (a literal search read it): a
 * two-stream blob then inflates only its meta. The meta (headers, member keys, file context,
 * outline) of a two-stream blob is inflated and parsed when one of them is first read: ranking reads
 * the text of many candidates' files and the meta of few (the page's hits, the declarations of a
 * name) — meta was half of decoding a file (inflating and parsing 16 MB of it for Avalonia's 27 MB of
 * text). `onDamage` maps an error of that later decoding as the caller maps this one's.
 */
export function decodeFileData(blob: Uint8Array, codec: DeflateCodec, rawLength?: number, knownText?: string, onDamage: (e: unknown) => never = (e) => { throw e; }): StoredFile {
  const parts = streams(blob);
  if (parts) {
    const text = knownText ?? decoder.decode(codec.inflateRaw(parts.text, dictionary, parts.textLength));
    // (A copy: the blob's text stream is not kept for it.)
    const meta = parts.meta.slice();
    return storedFile(text, parts.metaLength, () => {
      try {
        return JSON.parse(decoder.decode(codec.inflateRaw(meta, dictionary, parts.metaLength))) as PackedMeta;
      } catch (e) {
        return onDamage(e);
      }
    });
  }
  const all = decoder.decode(codec.inflateRaw(blob, dictionary, rawLength));
  const nl = all.indexOf('\n');
  const meta = JSON.parse(all.slice(0, nl)) as PackedMeta;
  return storedFile(all.slice(nl + 1), nl, () => meta);
}

/** A decoded file: its text now, its lines (and line offsets) and its meta when first read (the outline unpacked apart, when asked for). */
function storedFile(text: string, metaLength: number, readMeta: () => PackedMeta): StoredFile {
  let meta: PackedMeta | undefined;
  let keys: Array<string | null> | undefined;
  // The outline is unpacked when first asked for: ranking reads many files' chunk text and keys, and
  // only a few hits' outline (unpacking was a third of decoding a file whose text was known).
  let outline: OutlineSymbol[] | undefined;
  const m = () => (meta ??= readMeta());
  let lines: string[] | undefined;
  let starts: Uint32Array | undefined;
  const file = {
    get lines() {
      return (lines ??= text.split('\n'));
    },
    text,
    get lineCount() {
      return (starts ??= lineStarts(text)).length - 1;
    },
    metaLength,
    get headers() {
      return m().h;
    },
    get keys() {
      return (keys ??= m().k.map((k) => k || null));
    },
    get fileContext() {
      return m().f;
    },
    get outline() {
      return (outline ??= unpack(m().o));
    },
  };
  // (Not enumerable: two decodings of one blob compare equal.)
  Object.defineProperty(file, LINE_STARTS, { value: () => (starts ??= lineStarts(text)) });
  return file;
}

/** Where a decoded file keeps its line offsets (storedLines): not part of StoredFile's shape for other readers. */
const LINE_STARTS = Symbol('line starts');

/** The offset in `text` where each line starts, then text.length + 1 (one past the last line's end, as if a \n followed it). */
function lineStarts(text: string): Uint32Array {
  let n = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) n++;
  const out = new Uint32Array(n + 1);
  let i = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) out[i++] = at + 1;
  out[n] = text.length + 1;
  return out;
}

/**
 * Lines `startLine`…`endLine` (1-based, inclusive) of a stored file joined by \n — sliceLines over
 * its lines — as one substring of its text, without splitting it (V8 keeps a substring as a slice
 * of the text: no copy). A range outside the text is cut as the lines' slice would cut it.
 */
export function storedLines(stored: StoredFile, startLine: number, endLine: number): string {
  const starts = (stored as StoredFile & { [LINE_STARTS]?: () => Uint32Array })[LINE_STARTS]?.();
  if (!starts || !Number.isInteger(startLine) || !Number.isInteger(endLine) || startLine < 1 || endLine < 0) return sliceLines(stored.lines, startLine, endLine);
  const count = starts.length - 1;
  const last = Math.min(endLine, count);
  if (startLine > last) return '';
  return stored.text.slice(starts[startLine - 1], starts[last] - 1);
}

/**
 * Only the text of a blob (lines joined by \n), and whether it is all ASCII (its UTF-8 bytes are
 * as many as its characters: known without a scan). For a two-stream blob, its meta is not inflated.
 */
function decodeText(blob: Uint8Array, codec: DeflateCodec): StoredText {
  const parts = streams(blob);
  // The one-stream layout: decode what follows the meta (JSON escapes newlines, and no UTF-8
  // sequence holds a 0x0A byte, so the first \n byte ends it).
  let bytes = parts ? codec.inflateRaw(parts.text, dictionary, parts.textLength) : codec.inflateRaw(blob, dictionary);
  if (!parts) bytes = bytes.subarray(bytes.indexOf(10) + 1);
  const text = decoder.decode(bytes);
  return { text, ascii: text.length === bytes.length };
}

function selectBlob(db: Database, fileId: number): Uint8Array | undefined {
  return db.selectValue('SELECT data FROM file_data WHERE file_id = ?', [fileId]) as Uint8Array | undefined;
}

/** Reads files' blobs, one at a time, through one statement (blobReader). */
export interface BlobReader {
  read(fileId: number): Uint8Array | undefined;
  /** Finalizes the statement (a reader that lives as long as its connection need not). */
  close(): void;
}

/**
 * A reader of files' blobs through one prepared statement, made on first read (for a cache or a search
 * that reads many: preparing one per read, as selectValue does, was about half of reading a file whose
 * text was known). The blob is copied out of WASM memory once (raw-rows.ts); oo1's getBlob copies it twice.
 */
export function blobReader(db: Database): BlobReader {
  let q: { st: ReturnType<Database['prepare']>; rows: RawRows } | null = null;
  return {
    read(fileId) {
      if (!q) {
        const st = db.prepare('SELECT data FROM file_data WHERE file_id = ?');
        q = { st, rows: rawRows(db, st) };
      }
      try {
        q.st.bind([fileId]);
        // An empty blob is returned as one (decoding reports it as damage); no row: not indexed.
        return q.rows.step() ? q.rows.blobView(0).slice() : undefined;
      } finally {
        q.st.reset(true);
      }
    },
    close() {
      q?.st.finalize();
      q = null;
    },
  };
}

/** A file's stored text as literal searches read it. */
export interface StoredText {
  /** The lines joined by \n. */
  text: string;
  ascii: boolean;
}

interface PackedMeta {
  o: Packed[];
  h: string[];
  k: Array<string | 0>;
  f: string[];
}

type Packed = [kind: string, name: string, key: string | 0, start: number, end: number, children?: Packed[]];

function packNodes(nodes: readonly OutlineNode[]): Packed[] {
  return nodes.map((n) => {
    const p: Packed = [n.kind, n.name, n.memberKey ?? 0, n.startLine, n.endLine];
    if (n.children.length) p.push(packNodes(n.children));
    return p;
  });
}

function unpack(nodes: readonly Packed[]): OutlineSymbol[] {
  return nodes.map(([kind, name, key, start, end, children]) => {
    const s: OutlineSymbol = { kind, name, start_line: start, end_line: end };
    if (key) s.member_key = key;
    if (children?.length) s.children = unpack(children);
    return s;
  });
}

/** A chunk's header as shown: the file context lines, then the chunk's own (the first chunk's is whole). */
export function displayHeader(stored: StoredFile, ordinal: number): string {
  const own = stored.headers[ordinal] ?? '';
  if (ordinal === 0 || stored.fileContext.length === 0) return own;
  return [...stored.fileContext, own].filter(Boolean).join('\n');
}

/** Depth-first walk of a stored outline with each symbol's depth. */
export function* walkOutline(nodes: readonly OutlineSymbol[], depth = 0): Generator<{ symbol: OutlineSymbol; depth: number }> {
  for (const s of nodes) {
    yield { symbol: s, depth };
    if (s.children) yield* walkOutline(s.children, depth + 1);
  }
}

/**
 * Reads and decodes one file's stored data (undefined when the file is not indexed). `knownText`:
 * its stored text, when the caller holds it from this index generation (decodeFileData).
 */
export function readStoredFile(db: Database, fileId: number, codec: DeflateCodec, knownText?: string, blobOf: (fileId: number) => Uint8Array | undefined = (id) => selectBlob(db, id)): StoredFile | undefined {
  const blob = blobOf(fileId);
  if (!blob) return undefined;
  // A damaged blob (the file was edited by hand, or bytes rotted): say so, and how to recover — also
  // when its meta is decoded later (decodeFileData).
  const damaged = (e: unknown): never => {
    const path = db.selectValue('SELECT path FROM files WHERE id = ?', [fileId]) ?? `file id ${fileId}`;
    throw new HciError('index_corrupt', `the stored text of ${String(path)} in the index cannot be read (${(e as Error).message})`, 'run `hci index --full` to rebuild the index');
  };
  try {
    return decodeFileData(blob, codec, undefined, knownText, damaged);
  } catch (e) {
    if (e instanceof HciError) throw e;
    return damaged(e);
  }
}

/**
 * Reads only the stored text of files (lines joined by \n), without parsing their meta or splitting
 * them into lines: what a literal or regex search checks, file after file — one prepared statement
 * for all of them (preparing one per file was a tenth of a search's time). Close it when done.
 */
export function storedTextReader(db: Database, codec: DeflateCodec): { read(fileId: number): StoredText | undefined; prefetch(fileIds: readonly number[]): void; close(): void } {
  const one = blobReader(db);
  let many: ReturnType<Database['prepare']> | null = null;
  let manyRaw: RawRows | null = null;
  /** Blobs read ahead by prefetch, until read (or the reader closes). */
  const ahead = new Map<number, Uint8Array>();
  return {
    /**
     * Reads the blobs of files about to be read in one statement (one lookup per file inside SQLite
     * instead of a bind, step and reset crossing from JavaScript for each); inflated only when read.
     */
    prefetch(fileIds) {
      if (fileIds.length === 0) return;
      many ??= db.prepare('SELECT file_id, data FROM file_data WHERE file_id IN (SELECT value FROM json_each(?))');
      // Read directly (raw-rows.ts): oo1's getBlob copies a blob out of WASM memory twice.
      manyRaw ??= rawRows(db, many);
      try {
        many.bind([JSON.stringify(fileIds)]);
        while (manyRaw.step()) {
          const view = manyRaw.blobView(1);
          if (view.length) ahead.set(manyRaw.int(0), view.slice());
        }
      } finally {
        many.reset(true);
      }
    },
    read(fileId) {
      const blob = ahead.get(fileId) ?? one.read(fileId);
      ahead.delete(fileId);
      if (!blob) return undefined;
      try {
        return decodeText(blob, codec);
      } catch (e) {
        const path = db.selectValue('SELECT path FROM files WHERE id = ?', [fileId]) ?? `file id ${fileId}`;
        throw new HciError('index_corrupt', `the stored text of ${String(path)} in the index cannot be read (${(e as Error).message})`, 'run `hci index --full` to rebuild the index');
      }
    },
    close: () => {
      one.close();
      many?.finalize();
      ahead.clear();
    },
  };
}

/** Reads only the outline of one file. */
export function readStoredOutline(db: Database, fileId: number, codec: DeflateCodec): OutlineSymbol[] | undefined {
  return readStoredFile(db, fileId, codec)?.outline;
}

export interface StoredChunk {
  id: number;
  ordinal: number;
  startLine: number;
  endLine: number;
  symbolKind: string | null;
  symbolName: string | null;
  memberKey: string | null;
  header: string;
  body: string;
}

/** Every stored chunk of a file with its text, in ordinal order. */
export function readStoredChunks(db: Database, fileId: number, stored: StoredFile): StoredChunk[] {
  const rows = db.selectArrays(
    'SELECT id, ordinal, start_line, end_line, symbol_kind, symbol_name FROM chunks WHERE file_id = ? ORDER BY ordinal',
    [fileId],
  ) as Array<[number, number, number, number, string | null, string | null]>;
  return rows.map(([id, ordinal, startLine, endLine, symbolKind, symbolName]) => ({
    id, ordinal, startLine, endLine, symbolKind, symbolName,
    memberKey: stored.keys[ordinal] ?? null,
    header: stored.headers[ordinal] ?? '',
    body: storedLines(stored, startLine, endLine),
  }));
}

/** The FTS column values of every stored chunk of a file, exactly as they were inserted. */
export function storedFtsRows(db: Database, fileId: number, path: string, stored: StoredFile): Array<{ id: number; values: string[] }> {
  return readStoredChunks(db, fileId, stored).map((c) => ({ id: c.id, values: storedChunkFts(path, stored, c) }));
}

/**
 * One chunk's FTS column values from its file's stored data (and its row in `chunks`). The writer
 * inserts these and a delete binds them again, so both derive them here, from the same blob.
 */
export function storedChunkFts(path: string, stored: FtsSourceFile, c: { ordinal: number; startLine: number; endLine: number; symbolKind: string | null; symbolName: string | null }): FtsValues {
  return ftsValues({
    path,
    symbolKind: c.symbolKind,
    symbolName: c.symbolName,
    memberKey: stored.keys[c.ordinal] ?? null,
    header: stored.headers[c.ordinal] ?? '',
    body: sliceLines(stored.lines, c.startLine, c.endLine),
    ordinal: c.ordinal,
    fileContext: stored.fileContext,
  });
}
