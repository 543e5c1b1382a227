// A file's rows made ready off the writer's thread: what a parse worker hands back when its pool is
// asked for rows (readyRows: classify, parse and cut, carve secrets, encode the blob, derive every
// FTS value — prepare.ts and writer.ts's own functions, in that order), so the thread that writes
// SQLite only binds and steps. Owns that sequence and the packing of the FTS values for postMessage:
// UTF-8 in one buffer that is transferred, not cloned, and bound to SQLite as it is (no string is
// made or encoded again on the writer's thread). Which files go to a worker is read-ahead.ts's.
import type { Chunker } from '../chunk/chunker.ts';
import type { ScannedFile } from '../scan/walker.ts';
import type { Settings } from '../settings.ts';
import { decodeFileData, knownFtsSource, storedChunkFts, type DeflateCodec } from './file-data.ts';
import { chunkLimits, classifyFile, finishFile, type ReadyFile, type RowSettings } from './prepare.ts';

export type { ReadyFile, RowSettings };
import { fileRows, type FileRows } from './writer.ts';
import { packFts } from './packed-fts.ts';

export function rowSettings(s: Settings, known: boolean): RowSettings {
  return {
    known,
    size: { max_indexed_file_bytes: s.max_indexed_file_bytes, large_file_max_bytes: s.large_file_max_bytes, large_file_langs: [...s.large_file_langs] },
    binaryProbeBytes: s.binary_probe_bytes,
    limits: chunkLimits(s),
  };
}

/**
 * The whole of a file's preparation and encoding, in the thread that calls it (a parse worker): the
 * same functions the writer's thread runs on the same bytes (classifyFile, the Chunker, finishFile,
 * fileRows, storedChunkFts), so the rows are the same whichever thread made them. `codec` must be the
 * index's (the blob's bytes are its output). `known` (RowSettings): the rows keep the blob's decoded
 * source (FileRows.known) for a writer that also fills the literal index or vectors from it.
 */
export async function readyRows(
  bytes: Uint8Array,
  file: Pick<ScannedFile, 'path' | 'lang'>,
  settings: RowSettings,
  chunker: Chunker,
  codec: DeflateCodec,
  contentHash?: (bytes: Uint8Array) => string,
): Promise<ReadyFile> {
  // (The modification time is the scan's, which the worker is not sent: the caller sets rows.mtimeMs.)
  const scanned: ScannedFile = { path: file.path, lang: file.lang, mtimeMs: 0, size: bytes.length, ext: '' };
  const c = classifyFile(bytes, scanned, { ...settings.size, binary_probe_bytes: settings.binaryProbeBytes }, contentHash ? { hash: contentHash(bytes) } : undefined);
  if (c.kind === 'skip') return c;
  const p = finishFile(c, await chunker.chunk(c.input, settings.limits));
  if (p.kind !== 'file') return p;
  const { known, ...rows } = fileRows(p.file, codec);
  if (known && settings.known) (rows as FileRows).known = known;
  // The FTS values as the writer would derive them (writer.ts insertFile): from what the blob holds.
  const decoded = known ? null : decodeFileData(rows.data, codec, rows.rawLength);
  const stored = decoded ?? knownFtsSource(known!);
  const fts = packFts(rows.chunks.map((ch, ordinal) => storedChunkFts(rows.path, stored, { ordinal, ...ch })), decoded ? decoded.text : known!.text, rows.chunks);
  return { kind: 'rows', rows: { ...rows, fts }, bytes: p.bytes, fallback: p.fallback, parseErrors: p.parseErrors, secretsFound: p.secretsFound };
}

/** The buffers of a ReadyFile that postMessage can transfer (the blob may be a view into a larger one: then it is copied first). */
export function transferables(r: ReadyFile): ArrayBuffer[] {
  if (r.kind !== 'rows') return [];
  const data = r.rows.data;
  if (data.byteOffset !== 0 || data.byteLength !== data.buffer.byteLength) r.rows.data = data.slice();
  const { text, bodies, utf8, ends } = r.rows.fts;
  return [r.rows.data.buffer as ArrayBuffer, ...[text, bodies, utf8, ends].map((a) => a.buffer as ArrayBuffer)];
}
