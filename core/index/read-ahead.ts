// Work done ahead of the file the indexer is writing: reads run a few files ahead (readAhead) and,
// for big passes, a runtime's parse pool parses up to a few hundred files ahead (pooledPrepare; its
// window is then the only read-ahead: readEach), both handing results out in scan order. Owns the lookahead windows, ending the pool once its last file
// is answered, and the fallback to in-thread parsing; what changed, batching and writing stay with the indexer (indexer.ts).
import type { WorkspaceFs } from '../platform.ts';
import type { Settings } from '../settings.ts';
import type { ScannedFile } from '../scan/walker.ts';
import { cutChunks, type Chunker } from '../chunk/chunker.ts';
import { chunkLimits, classifyFile, finishFile, parseExtracted, prepareFile, type ParsePool, type PoolResult, type Prepared } from './prepare.ts';

// Files handed to the pool ahead of the one being written. The main thread stops feeding the pool
// while it commits a batch (up to ~100 ms+): the queue must outlast that, at ~1 ms of parsing per file.
// Their bytes are held twice until the file is written (this thread's, which it classifies then, and
// the worker's copy, queued), and the worker is the thread a cold pass waits for, so its queue is full
// the whole pass: the byte cap is what a region of large files (Avalonia's control tests, 50-110 KB
// each; its Unicode tables) costs. 4 MiB is still over a second of tree-sitter's parsing (~2-3 MB/s of C#
// per thread), far more than a commit's pause; 32 MiB made up to 64 MiB resident there, 8 MiB up to 16
// (the end of dotnet-8's pass, where its peak is: bench/results/mem-timeline-dotnet-8-mem11.md).
const POOL_AHEAD_FILES = 256;
export const POOL_AHEAD_BYTES = 4 * 1024 * 1024;

// Reads run ahead of chunking: while one file is chunked and written, the next few are being read,
// so a pass over an asynchronous file source (Deno, the browser) does not sit idle on each read
// (Node's source, when it still read asynchronously, left a cold pass idle for ~20% of its time).
// A pooled pass reads each file when the pool's window starts it (readEach): that window already runs
// hundreds of files ahead, and a read-ahead nested under it held up to 8 more files (8 MiB when
// they are large) for nothing.
const READ_AHEAD_FILES = 8;
const READ_AHEAD_BYTES = 8 * 1024 * 1024;

type ReadResult = { ok: true; bytes: Uint8Array } | { ok: false };

/**
 * The work of files ahead of the one being consumed: get(i) returns start(i)'s promise (starting it
 * if needed) and starts the next files `wanted` accepts, in scan order, while fewer than
 * `span.files` are pending and their sizes sum below `span.bytes`. Call get with increasing i.
 */
function lookahead<T>(
  files: readonly ScannedFile[],
  span: { files: number; bytes: number },
  sizeOf: (i: number) => number,
  wanted: (f: ScannedFile) => boolean,
  start: (i: number) => Promise<T>,
): (i: number) => Promise<T> {
  const pending = new Map<number, Promise<T>>();
  let next = 0;
  let aheadBytes = 0; // of the files started ahead, not yet handed out
  const begin = (i: number) => {
    aheadBytes += sizeOf(i);
    const p = start(i);
    p.catch(() => {}); // awaited later, in order: not an unhandled rejection meanwhile
    pending.set(i, p);
  };
  return (i: number): Promise<T> => {
    if (!pending.has(i)) begin(i);
    const mine = pending.get(i)!;
    pending.delete(i);
    aheadBytes -= sizeOf(i);
    next = Math.max(next, i + 1);
    while (next < files.length && pending.size < span.files && aheadBytes < span.bytes) {
      if (wanted(files[next])) begin(next);
      next++;
    }
    return mine;
  };
}

/** read(i) gives files[i]'s bytes (at most maxBytes), read when asked: for a caller that runs its own window ahead (pooledPrepare). */
export function readEach(fs: WorkspaceFs, files: readonly ScannedFile[], maxBytes: number) {
  return (i: number): Promise<ReadResult> =>
    // Failures are results, not rejections.
    fs.readFile(files[i].path, maxBytes).then(
      (bytes): ReadResult => ({ ok: true, bytes }),
      (): ReadResult => ({ ok: false }),
    );
}

/** read(i) gives files[i]'s bytes (at most maxBytes), reading the next wanted files ahead. */
export function readAhead(fs: WorkspaceFs, files: readonly ScannedFile[], maxBytes: number, wanted: (f: ScannedFile) => boolean) {
  return lookahead(files, { files: READ_AHEAD_FILES, bytes: READ_AHEAD_BYTES }, (i) => Math.min(files[i].size, maxBytes), wanted, readEach(fs, files, maxBytes));
}

export async function prepareRead(read: ReadResult, f: ScannedFile, settings: Settings, chunker: Chunker): Promise<Prepared> {
  if (!read.ok) return { kind: 'skip', reason: 'unreadable' };
  return prepareFile(read.bytes, f, settings, chunker);
}

type Slot = Promise<{ result: Prepared; inWorker: boolean }>;

/**
 * Which files a pool asked for rows makes whole (ready-rows.ts) and which only parses (the rest is then
 * this thread's: classify, cut, encode, FTS values): the share that keeps both threads busy. Making a
 * file's rows moves about as much CPU again as its parse to the worker (AvaloniaUI/Avalonia: main
 * thread 7.7-8.0 → 4.2-4.7 s, parse worker 5.4-5.5 → 8.4-8.8 s, all files whole: bench/results/
 * ready-rows-avalonia-cold15.md), so neither "all" nor "none" balances a 2-core pass, and the right share
 * depends on the machine and the tree. The signal: when this thread has to wait for the file it
 * consumes, the worker is behind (the share goes down a step); when the file is there, this thread is
 * the slower one or they are even (up a smaller step). It settles where this thread waits for about
 * one file in UP_DOWN_RATIO + 1. Files take the share in turn (error diffusion), so any share is met
 * over a few files. The index is the same whatever the share: both ways run the same functions.
 * The default (setting worker_rows "balanced"): with the same build, only the setting alternated, the main
 * thread and the worker each took 8.7-9.4 s of CPU where "off" left 11.4-12.2 s on the main thread, the
 * process's CPU no higher (same file).
 */
export class RowsShare {
  /** The share of files asked for rows, 0..1 (starts at all). */
  share = 1;
  private carry = 0;

  /** `adaptive` false: the share stays where it is set (1: every file; setting worker_rows "all"). */
  constructor(private readonly adaptive = true) {}
  static readonly STEP_DOWN = 0.004;
  static readonly UP_DOWN_RATIO = 8;

  /** Whether the next file sent is asked for its rows. */
  next(): boolean {
    this.carry += this.share;
    if (this.carry < 1) return false;
    this.carry -= 1;
    return true;
  }

  /** A file consumed: whether this thread waited for the pool's answer. */
  consumed(waited: boolean): void {
    if (!this.adaptive) return;
    const step = waited ? -RowsShare.STEP_DOWN : RowsShare.STEP_DOWN / RowsShare.UP_DOWN_RATIO;
    this.share = Math.min(1, Math.max(0, this.share + step));
  }
}

/**
 * Prepares files with a runtime's parse pool, up to POOL_AHEAD_FILES ahead of the file the indexer
 * is writing: the pool's worker parses each file as soon as it is read (from its own copy of the
 * bytes), while this thread writes; this thread classifies, hashes and scans the file for secrets
 * when it consumes it, then cuts the chunks from the outline the worker returned — or, from a pool
 * asked for rows (ready-rows.ts), takes the file's rows as the worker made them. Classifying late
 * keeps the file's lines and text short-lived (made just before its batch is written, not a window
 * ahead, where they outlived young-generation collections and piled up in the old one). get(i)
 * must be called with increasing i (the indexer consumes in scan order, so its output does not
 * depend on the pool). A file the pool fails on is parsed in-thread.
 */
export function pooledPrepare(
  files: readonly ScannedFile[],
  read: (i: number) => Promise<ReadResult>,
  pool: ParsePool,
  settings: Settings,
  chunker: Chunker,
  wanted: (f: ScannedFile) => boolean,
  /** Ask the pool for files' rows (it was made with row settings), in the share this keeps. */
  rows?: RowsShare,
) {
  const limits = chunkLimits(settings);
  /** Answers already settled, by file index (get learns whether it waited). */
  const settled = new Set<number>();
  let closed = false;
  // The pool ends as soon as its last file is answered, not when the pass does: the main thread still
  // has up to POOL_AHEAD_FILES files to cut and write after that, then the final transaction, and a
  // worker's V8 heap, compiled grammars and tree-sitter memory were resident all that while — the end
  // of a pass, where its peak RSS is reached.
  let toAnswer = files.reduce((n, f) => n + (wanted(f) ? 1 : 0), 0);
  let ending: Promise<void> | null = null;
  const endPool = () => (ending ??= pool.close());
  const answered = () => {
    if (--toAnswer === 0) void endPool();
  };
  const parsed = lookahead(files, { files: POOL_AHEAD_FILES, bytes: POOL_AHEAD_BYTES }, (i) => files[i].size, wanted, (i) =>
    read(i).then(async (r): Promise<{ r: ReadResult; extracted: PoolResult | null }> => {
      try {
        if (!r.ok || r.bytes.length > settings.max_indexed_file_bytes) return { r, extracted: null };
        return { r, extracted: await pool.extract(files[i], r.bytes, rows ? { rows: rows.next() } : undefined) };
      } catch {
        return { r, extracted: null }; // parsed in-thread below
      } finally {
        answered();
        settled.add(i);
      }
    }),
  );
  return {
    async get(i: number): Slot {
      const slot = parsed(i);
      rows?.consumed(!settled.delete(i));
      const { r, extracted } = await slot;
      if (!r.ok) return { result: { kind: 'skip', reason: 'unreadable' }, inWorker: false };
      const ready = extracted?.ready;
      if (ready) {
        if (ready.kind === 'skip') return { result: ready, inWorker: false };
        ready.rows.mtimeMs = Math.trunc(files[i].mtimeMs); // the scan's (the worker was sent only the bytes)
        return { result: ready, inWorker: true };
      }
      const c = classifyFile(r.bytes, files[i], settings, extracted?.facts);
      if (c.kind === 'skip') return { result: c, inWorker: false };
      if (extracted) return { result: finishFile(c, cutChunks(c.input, parseExtracted(extracted.extracted), limits), extracted.deflatedText), inWorker: true };
      if (closed) return { result: { kind: 'skip', reason: 'unreadable' }, inWorker: false }; // abandoned (cancel): nobody reads it
      return { result: finishFile(c, await chunker.chunk(c.input, limits)), inWorker: false };
    },
    async close() {
      if (closed) return;
      closed = true;
      await endPool();
    },
  };
}
