// One indexing pass: scan → read → prepare (prepare.ts: classify, chunk, drop secret chunks; parsing in a
// runtime's worker pool for big passes) → write, in batches. Owns deciding what changed (size+mtime,
// then content hash), scheduling reads and preparation in scan order, batch sizing (readers wait at
// most one batch), progress and cancellation. Each file's rows are replaced inside one transaction,
// so a crash or a cancel leaves only whole files behind.
import { HciError, type WorkspaceFs } from '../platform.ts';
import type { Settings } from '../settings.ts';
import { scanWorkspace, addSkip, type SkipCounts, type ScannedFile } from '../scan/walker.ts';
import { CHUNKER_VERSION, type Chunker } from '../chunk/chunker.ts';
import type { IndexStore } from './store.ts';
import type { Database } from '../sqlite/engine.ts';
import { RowWriter, fileRows, nextGeneration, readMeta, setMeta, type FileRows } from './writer.ts';
import { planTargeted } from './targeted.ts';
import { syncLiteralIndex } from './literal-index.ts';
import { chunkLimits, classifyFile, finishFile, parseExtracted, prepareFile, type Prepared, type ParsePool, type ParsePoolFactory, type ExtractedJson } from './prepare.ts';
import { cutChunks } from '../chunk/chunker.ts';
import type { IndexSummary } from '../contract/tasks.ts';

export interface IndexProgress {
  phase: 'scan' | 'index' | 'done';
  filesTotal: number;
  filesDone: number;
  chunks: number;
  bytes: number;
}

export interface IndexOptions {
  /** Re-read and re-chunk every file, ignoring stored hashes. */
  full?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /** Target duration of one write transaction (readers wait at most about this long). */
  batchMs?: number;
  /**
   * Only these workspace-relative paths ('/'-separated; a directory means its subtree): each is judged
   * by the walker's rules and indexed, updated or removed, without scanning the rest of the tree
   * (what a file watcher needs). A path outside the workspace throws HciError
   * 'path_outside_workspace'. Falls back to a whole incremental pass when the index is not complete
   * or was cut with other chunking settings. Such a pass leaves the skipped counts of the last
   * whole scan as they are. Not with `full`.
   */
  paths?: string[];
}

/** A run's summary is part of the contract (core/contract/tasks.ts). */
export type { IndexSummary };

/** What the runtime lends a pass beyond the file source and the store. */
export interface IndexEnv {
  /** A worker pool that parses files; used only when a pass has more than POOL_MIN_FILES files to prepare. */
  parsePool?: ParsePoolFactory;
}

/** Below this many files to prepare, a worker's start-up (loading the WASM grammars again) costs more than it saves. */
export const POOL_MIN_FILES = 200;
// Files handed to the pool ahead of the one being written. The main thread stops feeding the pool
// while it commits a batch (up to ~100 ms+): the queue must outlast that, at ~1 ms of parsing per file.
const POOL_AHEAD_FILES = 256;
const POOL_AHEAD_BYTES = 32 * 1024 * 1024;

/** What decides how files are cut: when it changes, every file is re-chunked. */
function chunkingFingerprint(s: Settings, chunker: Chunker): string {
  return JSON.stringify({ v: CHUNKER_VERSION, structural: chunker.structural, lines: s.chunk_lines, overlap: s.chunk_overlap_lines });
}

// Reads run ahead of chunking: while one file is chunked and written, the next few are being read,
// so a pass over an asynchronous file source (Deno, the browser) does not sit idle on each read
// (Node's source, when it still read asynchronously, left a cold pass idle for ~20% of its time).
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

/** read(i) gives files[i]'s bytes (at most maxBytes), reading the next wanted files ahead. */
function readAhead(fs: WorkspaceFs, files: readonly ScannedFile[], maxBytes: number, wanted: (f: ScannedFile) => boolean) {
  return lookahead(files, { files: READ_AHEAD_FILES, bytes: READ_AHEAD_BYTES }, (i) => Math.min(files[i].size, maxBytes), wanted, (i) =>
    // Failures are results, not rejections.
    fs.readFile(files[i].path, maxBytes).then(
      (bytes): ReadResult => ({ ok: true, bytes }),
      (): ReadResult => ({ ok: false }),
    ),
  );
}

export async function indexWorkspace(fs: WorkspaceFs, store: IndexStore, settings: Settings, chunker: Chunker, opts: IndexOptions = {}, env: IndexEnv = {}): Promise<IndexSummary> {
  const claim = store.storage.claimIndexer();
  if (!claim) {
    const holder = store.storage.indexerHolder();
    throw new HciError('index_busy', `another process${holder ? ` (pid ${holder.pid})` : ''} is indexing this workspace`, 'wait for it to finish, or search now: results reflect its committed batches');
  }
  try {
    return await runPass(fs, store, settings, chunker, opts, env);
  } finally {
    claim.release();
  }
}

async function runPass(fs: WorkspaceFs, store: IndexStore, settings: Settings, chunker: Chunker, opts: IndexOptions, env: IndexEnv): Promise<IndexSummary> {
  const t0 = Date.now();
  const batchMs = opts.batchMs ?? 100;
  const progress: IndexProgress = { phase: 'scan', filesTotal: 0, filesDone: 0, chunks: 0, bytes: 0 };
  const report = () => opts.onProgress?.({ ...progress });
  const checkCancel = () => {
    if (opts.signal?.aborted) throw new HciError('cancelled', 'indexing was cancelled', 'run `hci index` again to finish; the index holds every file committed so far');
  };
  report();
  if (opts.paths && opts.full) throw new HciError('invalid_request', '`full` rebuilds every file; `paths` limits an incremental pass to some files', 'pass one or the other');
  // The literal index follows the setting before any file is written (filled from the stored text).
  await syncLiteralIndex(store, settings.literal_index, checkCancel, batchMs);
  // With `paths`, only those paths are judged and only their rows loaded (see targeted.ts); null: scan it all.
  const target = opts.paths ? await planTargeted(fs, store, settings, chunkingFingerprint(settings, chunker), opts.paths, opts.signal) : null;
  const scan = target?.scan ?? (await scanWorkspace(fs, settings, { signal: opts.signal }));
  const skipped: SkipCounts = { ...scan.skipped };
  progress.phase = 'index';
  progress.filesTotal = scan.files.length;
  report();

  const prior = target?.prior ?? await store.read((db) => {
    const meta = readMeta(db);
    const rows = db.selectObjects('SELECT id, path, size, mtime_ms, hash FROM files') as Array<{ id: number; path: string; size: number; mtime_ms: number; hash: string }>;
    return { meta, files: new Map(rows.map((r) => [r.path, r])) };
  });
  const full = opts.full || prior.meta.chunking_fingerprint !== chunkingFingerprint(settings, chunker) || prior.meta.build_state === 'empty';
  const summary: IndexSummary = {
    generation: Number(prior.meta.generation ?? 0), files_scanned: target?.scan.considered ?? scan.files.length, files_indexed: 0, files_unchanged: 0,
    files_removed: 0, chunks_written: 0, bytes_read: 0, skipped, parse_fallback: 0, took_ms: 0, batches: 0, max_batch_ms: 0,
    prepared_in_worker: 0,
  };

  type Op = { kind: 'put'; file: FileRows } | { kind: 'touch'; id: number; mtimeMs: number } | { kind: 'delete'; id: number; size?: number };
  let batch: Op[] = [];
  let batchCost = 0;
  // Cost model: FTS work dominates and is roughly linear in the bytes tokenised, both for rows
  // inserted and for rows deleted (a contentless FTS delete re-tokenises the old text), plus a
  // per-chunk overhead. Throughput is re-measured after every commit (smoothed, lock wait excluded).
  // The first estimate is deliberately low (a cold process on 2 slow cores): a high guess made the
  // first batch of a run hold the lock for seconds, and readers wait for a whole batch.
  let costPerMs = 400;
  const costOf = (op: Op): number =>
    op.kind === 'touch' ? 64
    : op.kind === 'delete' ? (op.size ?? 0) + 200
    : op.file.size + 200 * op.file.chunks.length + (prior.files.get(op.file.path)?.size ?? 0);
  const push = (op: Op) => {
    batch.push(op);
    batchCost += costOf(op);
  };
  const batchDue = () => batchCost / costPerMs >= batchMs || batch.length >= 2000;

  const commit = async (final: boolean) => {
    if (batch.length === 0 && !final) return;
    const ops = batch;
    const cost = batchCost;
    batch = [];
    batchCost = 0;
    let started = Date.now();
    await store.write((db) => {
      started = Date.now(); // the lock is ours from here: waiting for it is not work
      const gen = ops.length ? nextGeneration(db) : Number(readMeta(db).generation ?? 0);
      summary.generation = gen;
      const rows = new RowWriter(db, store.engine.sqlite3, store.codec, settings.literal_index);
      try {
        for (const op of ops) {
          if (op.kind === 'touch') {
            db.exec('UPDATE files SET mtime_ms = ? WHERE id = ?', { bind: [Math.trunc(op.mtimeMs), op.id] });
          } else if (op.kind === 'delete') {
            rows.deleteFile(op.id);
          } else {
            const old = prior.files.get(op.file.path);
            if (old) rows.deleteFile(old.id);
            rows.insertFile(op.file, gen);
          }
        }
      } finally {
        rows.close();
      }
      setMeta(db, { build_state: final ? 'complete' : 'partial', chunking_fingerprint: chunkingFingerprint(settings, chunker) });
      if (final) {
        releaseFreePages(db);
        setMeta(db, {
          indexed_at: new Date().toISOString(),
          last_run: JSON.stringify({ ...summary, took_ms: Date.now() - t0, finished_at: new Date().toISOString(), ...(target ? { paths: opts.paths?.length } : {}) }),
        });
      }
      if (final && !target) { // skips describe the last whole scan: a pass over some paths keeps them
        setMeta(db, { skipped_counts: JSON.stringify(skipped) });
        db.exec('DELETE FROM skipped');
        const st = db.prepare('INSERT OR REPLACE INTO skipped(path, reason) VALUES (?, ?)');
        try {
          for (const s of scan.skippedSamples) st.bind([s.path, s.reason]).stepReset();
        } finally {
          st.finalize();
        }
      }
    });
    const took = Date.now() - started;
    summary.batches++;
    summary.max_batch_ms = Math.max(summary.max_batch_ms, took);
    if (cost > 20_000 && took >= 10) costPerMs = Math.max(100, Math.min(200_000, (costPerMs + cost / took) / 2));
  };

  const seen = new Set<string>();
  const unchangedByStat = (f: ScannedFile) => {
    const old = prior.files.get(f.path);
    return !full && !!old && old.size === f.size && old.mtime_ms === Math.trunc(f.mtimeMs);
  };
  const read = readAhead(fs, scan.files, settings.max_indexed_file_bytes + 1, (f) => !unchangedByStat(f));
  const toPrepare = env.parsePool ? scan.files.reduce((n, f) => n + (unchangedByStat(f) ? 0 : 1), 0) : 0;
  const prepared = toPrepare > POOL_MIN_FILES
    ? pooledPrepare(scan.files, read, env.parsePool!({ binaryProbeBytes: settings.binary_probe_bytes }), settings, chunker, (f) => !unchangedByStat(f))
    : { get: async (i: number) => ({ result: await prepareRead(await read(i), scan.files[i], settings, chunker), inWorker: false }), close: async () => {} };
  try {
    for (const [i, f] of scan.files.entries()) {
      checkCancel();
      seen.add(f.path);
      const old = prior.files.get(f.path);
      if (unchangedByStat(f)) {
        summary.files_unchanged++;
      } else {
        const { result: r, inWorker } = await prepared.get(i);
        if (inWorker) summary.prepared_in_worker++;
        if (r.kind === 'skip') addSkip(skipped, r.reason);
        else if (r.secretsFound) addSkip(skipped, 'secret_content', r.file.secretChunks);
        if (r.kind === 'skip') {
          if (old) push({ kind: 'delete', id: old.id, size: old.size });
          seen.delete(f.path);
        } else {
          summary.bytes_read += r.bytes;
          progress.bytes += r.bytes;
          if (!full && old && old.hash === r.file.hash) {
            summary.files_unchanged++;
            push({ kind: 'touch', id: old.id, mtimeMs: f.mtimeMs });
          } else {
            summary.files_indexed++;
            summary.chunks_written += r.file.chunks.length;
            progress.chunks += r.file.chunks.length;
            if (r.fallback) summary.parse_fallback++;
            push({ kind: 'put', file: fileRows(r.file, store.codec) });
          }
        }
      }
      progress.filesDone++;
      if (progress.filesDone % 64 === 0) report();
      if (batchDue()) await commit(false);
    }
    for (const [path, old] of prior.files) {
      if (!seen.has(path)) {
        push({ kind: 'delete', id: old.id, size: old.size });
        summary.files_removed++;
        if (batchDue()) await commit(false);
      }
    }
    summary.took_ms = Date.now() - t0;
    await commit(true);
  } catch (e) {
    await prepared.close();
    if (e instanceof HciError && e.code === 'cancelled') await commit(false);
    throw e;
  }
  await prepared.close();
  summary.took_ms = Date.now() - t0;
  progress.phase = 'done';
  report();
  return summary;
}

/**
 * Hands pages freed by this pass back to the file (indexes created with auto_vacuum=incremental).
 * FTS5 writes its pending segments (and merges old ones, freeing pages) when a transaction commits
 * or a savepoint is released: release one first, so the pages it frees are returned too.
 */
function releaseFreePages(db: Database): void {
  db.exec('SAVEPOINT hci_fts_flush; RELEASE hci_fts_flush');
  if (Number(db.selectValue('PRAGMA freelist_count')) === 0) return;
  // Each step frees one page and yields a row without columns: step to the end.
  const st = db.prepare('PRAGMA incremental_vacuum');
  try {
    while (st.step()) { /* one page per step */ }
  } finally {
    st.finalize();
  }
}

async function prepareRead(read: ReadResult, f: ScannedFile, settings: Settings, chunker: Chunker): Promise<Prepared> {
  if (!read.ok) return { kind: 'skip', reason: 'unreadable' };
  return prepareFile(read.bytes, f, settings, chunker);
}

type Slot = Promise<{ result: Prepared; inWorker: boolean }>;

/**
 * Prepares files with a runtime's parse pool, up to POOL_AHEAD_FILES ahead of the file the indexer
 * is writing: the pool's worker parses each file as soon as it is read (from its own copy of the
 * bytes), while this thread writes; this thread classifies, hashes and scans the file for secrets
 * when it consumes it, then cuts the chunks from the outline the worker returned. Classifying late
 * keeps the file's lines and text short-lived (made just before its batch is written, not a window
 * ahead, where they outlived young-generation collections and piled up in the old one). get(i)
 * must be called with increasing i (the indexer consumes in scan order, so its output does not
 * depend on the pool). A file the pool fails on is parsed in-thread.
 */
function pooledPrepare(
  files: readonly ScannedFile[],
  read: (i: number) => Promise<ReadResult>,
  pool: ParsePool,
  settings: Settings,
  chunker: Chunker,
  wanted: (f: ScannedFile) => boolean,
) {
  const limits = chunkLimits(settings);
  let closed = false;
  const parsed = lookahead(files, { files: POOL_AHEAD_FILES, bytes: POOL_AHEAD_BYTES }, (i) => files[i].size, wanted, (i) =>
    read(i).then(async (r): Promise<{ r: ReadResult; extracted: ExtractedJson | null }> => {
      if (!r.ok || r.bytes.length > settings.max_indexed_file_bytes) return { r, extracted: null };
      try {
        return { r, extracted: await pool.extract(files[i], r.bytes) };
      } catch {
        return { r, extracted: null }; // parsed in-thread below
      }
    }),
  );
  return {
    async get(i: number): Slot {
      const { r, extracted } = await parsed(i);
      if (!r.ok) return { result: { kind: 'skip', reason: 'unreadable' }, inWorker: false };
      const c = classifyFile(r.bytes, files[i], settings);
      if (c.kind === 'skip') return { result: c, inWorker: false };
      if (extracted) return { result: finishFile(c, cutChunks(c.input, parseExtracted(extracted), limits)), inWorker: true };
      if (closed) return { result: { kind: 'skip', reason: 'unreadable' }, inWorker: false }; // abandoned (cancel): nobody reads it
      return { result: finishFile(c, await chunker.chunk(c.input, limits)), inWorker: false };
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.close();
    },
  };
}
