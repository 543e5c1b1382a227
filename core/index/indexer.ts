// One indexing pass: scan → read → prepare (prepare.ts: classify, chunk, drop secret chunks; read-ahead.ts:
// reads, and for big passes a runtime's parse pool, running ahead in scan order) → write, in batches.
// Owns deciding what changed (size+mtime, then content hash; a row keeps the size of the bytes read,
// so a file changed between scan and read converges on the next pass; rechunk.ts: which rows a chunking change
// left stale), batch sizing (a write transaction holds the lock for about batchMs, and is cut after
// batchMs plus one file), progress and cancellation. Each file's rows are replaced inside one
// transaction, so a crash or a cancel leaves only whole files behind.
import { HciError, type WorkspaceFs } from '../platform.ts';
import type { Settings } from '../settings.ts';
import { scanWorkspace, addSkip, type SkipCounts, type ScannedFile } from '../scan/walker.ts';
import { maxReadBytes } from '../scan/size-policy.ts';
import type { Chunker } from '../chunk/chunker.ts';
import { SEARCH_PAGE_CACHE_KIB, type IndexStore } from './store.ts';
import type { Database } from '../sqlite/engine.ts';
import { RowWriter, fileRows, type ChunkVectorSink, type FileRows } from './writer.ts';
import { nextGeneration, readMeta, setMeta } from './meta.ts';
import { planTargeted, type PriorFile } from './targeted.ts';
import { syncLiteralIndex } from './literal-index.ts';
import type { IndexSummary } from '../contract/tasks.ts';
import { chunkingFingerprint, planChunking, recordChunking } from './rechunk.ts';
import type { ParsePoolFactory } from './prepare.ts';
import { pooledPrepare, prepareRead, readAhead, readEach, RowsShare } from './read-ahead.ts';
import { rowSettings } from './ready-rows.ts';
import { addChurn, compactIfDue, releaseFreePages } from './compact.ts';
import { recordAffixes } from '../search/affixes.ts';
import { readPackedFileList, recordFileList, type FileListRow } from './file-list.ts';
import { recordVariantGroups } from '../search/variants.ts';
import { recordLearnedTerms } from '../search/learned-terms.ts';
import { recordFileStems } from '../search/first-search-record.ts';
import { beginFileFacts, carryFileFacts, recordFileFacts } from '../search/file-facts.ts';
import { beginColdBuild, endColdBuild } from './cold-build.ts';

export interface IndexProgress {
  phase: 'scan' | 'index' | 'vectors' | 'done';
  filesTotal: number;
  filesDone: number;
  chunks: number;
  bytes: number;
  /** The vector phase (semantic search on): chunks embedded so far of those that need it, the rate and the time left. */
  vectorsDone?: number;
  vectorsTotal?: number;
  vectorsPerS?: number;
  etaS?: number;
}

export interface IndexOptions {
  /** Re-read and re-chunk every file, ignoring stored hashes. */
  full?: boolean;
  signal?: AbortSignal;
  onProgress?: (p: IndexProgress) => void;
  /**
   * Target duration of one write transaction (default 100 ms). A transaction still going after it
   * commits the files written so far and the rest follow after a short pause, so a reader waits
   * about this long plus one file's write.
   */
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

export type { IndexSummary };

/** What the runtime lends a pass beyond the file source and the store. */
export interface IndexEnv {
  /** A worker pool that parses files; used only when a pass has more than POOL_MIN_FILES files to prepare. */
  parsePool?: ParsePoolFactory;
  /** Vectors written with their chunks, in each batch's transaction (core/vector/inline.ts). */
  vectors?: { begin(db: Database): ChunkVectorSink & { close(): void } };
  /**
   * Runs after the keyword pass, still holding the indexer claim (the vector phase:
   * core/vector/indexing.ts). Whatever it does, the keyword pass is already committed.
   */
  afterPass?: (summary: IndexSummary) => Promise<void>;
  /**
   * Called after each write batch (and once before afterPass, with `force` when the pass wrote files): lets the runtime hand
   * the pass's garbage back before it piles up (Node: a full collection past a step of growth).
   */
  relieveMemory?: (force: boolean) => void;
}

/** Below this many files to prepare, a worker's start-up (loading the WASM grammars again) costs more than it saves. */
export const POOL_MIN_FILES = 200;

export async function indexWorkspace(fs: WorkspaceFs, store: IndexStore, settings: Settings, chunker: Chunker, opts: IndexOptions = {}, env: IndexEnv = {}): Promise<IndexSummary> {
  const claim = store.storage.claimIndexer();
  if (!claim) {
    const holder = store.storage.indexerHolder();
    throw new HciError('index_busy', `another process${holder ? ` (pid ${holder.pid})` : ''} is indexing this workspace`, 'wait for it to finish, or search now: results reflect its committed batches');
  }
  try {
    // Into an index with no file yet, without syncs (cold-build.ts): ended before the vector phase,
    // so a crash of the machine there keeps the whole keyword index.
    const unsynced = await beginColdBuild(store);
    let summary: IndexSummary;
    try {
      summary = await runPass(fs, store, settings, chunker, opts, env);
    } finally {
      if (unsynced) await endColdBuild(store);
    }
    if (env.afterPass) {
      // The keyword pass's garbage goes before the vector phase makes its big arrays — forced only after
      // a pass that wrote files (a pass with nothing new, e.g. a watcher's, pays no full collection).
      env.relieveMemory?.(summary.files_indexed > 0);
      await env.afterPass(summary);
    }
    return summary;
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
  // A rebuild in place keeps whatever damage it does not touch: check first (the caller starts a
  // --full pass over from an empty file on index_corrupt).
  if (opts.full) await store.verify();
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
    const rows = db.selectObjects('SELECT id, path, size, mtime_ms, hash, generation FROM files') as unknown as PriorFile[];
    return { meta, files: new Map(rows.map((r) => [r.path, r])) };
  });
  const chunking = planChunking(prior.meta, chunkingFingerprint(settings, chunker), !!opts.full);
  const full = chunking.full;
  /** A stored row to re-cut even when its file did not change: --full, or left behind by a cut-short re-chunk. */
  const stale = (old: PriorFile) => full || old.generation < chunking.staleBefore;
  const summary: IndexSummary = {
    generation: Number(prior.meta.generation ?? 0), files_scanned: target?.scan.considered ?? scan.files.length, files_indexed: 0, files_unchanged: 0,
    files_removed: 0, chunks_written: 0, bytes_read: 0, skipped, parse_fallback: 0, parse_errors: 0, took_ms: 0, batches: 0, max_batch_ms: 0,
    prepared_in_worker: 0,
  };

  type Op = { kind: 'put'; file: FileRows } | { kind: 'touch'; id: number; size: number; mtimeMs: number; flags: number } | { kind: 'delete'; id: number; size?: number };
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

  /** Source bytes whose FTS rows this pass deleted or replaced (compact.ts merges when they add up). */
  let churn = 0;
  const apply = (rows: RowWriter, db: Database, op: Op, gen: number) => {
    if (op.kind === 'touch') {
      // Flags too: the same content can be read with newer rules (a format migration asks for that).
      db.exec('UPDATE files SET size = ?, mtime_ms = ?, flags = ? WHERE id = ?', { bind: [op.size, Math.trunc(op.mtimeMs), op.flags, op.id] });
    } else if (op.kind === 'delete') {
      rows.deleteFile(op.id);
      churn += op.size ?? 0;
    } else {
      const old = prior.files.get(op.file.path);
      if (old) {
        rows.deleteFile(old.id);
        churn += old.size;
      }
      rows.insertFile(op.file, gen);
    }
  };

  /** Writes the batch; several transactions when it holds the lock past batchMs (see below). */
  const commit = async (final: boolean) => {
    if (batch.length === 0 && !final) return;
    let ops = batch;
    batch = [];
    batchCost = 0;
    for (;;) {
      let started = Date.now();
      let applied = 0;
      let cost = 0;
      await store.write((db) => {
        started = Date.now(); // the lock is ours from here: waiting for it is not work
        // Whether the record of file facts is current before this transaction's writes (search/file-facts.ts): then it is after them.
        const facts = beginFileFacts(db);
        const gen = ops.length ? nextGeneration(db) : Number(readMeta(db).generation ?? 0);
        summary.generation = gen;
        const sink = env.vectors?.begin(db);
        const rows = new RowWriter(db, store.engine.sqlite3, store.codec, { vectors: sink, literal: settings.literal_index });
        try {
          for (const op of ops) {
            // The cost model sizes batches to batchMs, but a loaded machine (or a bad estimate) can
            // make one take many times that, and every reader waits for it: past batchMs the rest
            // of the batch goes to the next transaction. Whole files only, as always.
            if (applied > 0 && Date.now() - started >= batchMs) break;
            apply(rows, db, op, gen);
            applied++;
            cost += costOf(op);
          }
        } finally {
          rows.close();
          sink?.close();
        }
        carryFileFacts(db, facts);
        const last = applied === ops.length;
        recordChunking(db, chunking, final && last);
        if (final && last) finish(db);
      });
      const took = Date.now() - started;
      summary.batches++;
      summary.max_batch_ms = Math.max(summary.max_batch_ms, took);
      if (cost > 20_000 && took >= 10) costPerMs = Math.max(100, Math.min(200_000, (costPerMs + cost / took) / 2));
      if (applied === ops.length) break;
      ops = ops.slice(applied);
      // A cut batch goes on at once: leave the lock free long enough for a polling reader (it
      // retries every few ms, store.ts) to take it first.
      await sleep(READER_GAP_MS);
    }
    // A pass whose reads and parses resolve as microtasks never lets the event loop turn: Ctrl-C's
    // handler (the CLI aborts the signal), timers and an MCP server's in-process requests would all
    // wait for the end of the pass. One macrotask turn per batch lets them run between batches.
    env.relieveMemory?.(false);
    if (!final) await nextTurn();
  };

  /** What the final transaction adds: counts, freed pages, the run's record, skipped samples. */
  const finish = (db: Database) => {
    // Chunks left out for secrets stay out until their file changes: the count is the files'
    // (files.secret_chunks), not this pass's, so an incremental pass that re-read none still reports them.
    const secretChunks = Number(db.selectValue('SELECT coalesce(sum(secret_chunks), 0) FROM files'));
    if (!target) setSecretCount(skipped, secretChunks);
    else setMeta(db, { skipped_counts: JSON.stringify(setSecretCount(storedSkipCounts(db), secretChunks)) });
    addChurn(db, churn);
    // What a first search of this generation would build from the whole file list (file-list.ts,
    // search/variants.ts, search/first-search-record.ts), recorded by a whole-tree pass: on Avalonia it costs ~7-10 ms (load 16-21, min), which
    // a pass over one saved file (the watcher's, ~14 ms) would pay on every save; after one, a search builds them as before.
    if (!target) {
      const files = recordFileList(db);
      let read: FileListRow[] | null = files;
      const list = () => (read ??= readPackedFileList(db, store.codec) ?? []);
      recordVariantGroups(db, () => list().map((f) => f[1]));
      recordFileStems(db, list);
      // Each file's declared names and dead-line mark, filled from the stored files when the record is not current (an older index's first whole pass).
      recordFileFacts(db, store.codec);
    }
    releaseFreePages(db);
    setMeta(db, {
      indexed_at: new Date().toISOString(),
      last_run: JSON.stringify({ ...summary, took_ms: Date.now() - t0, finished_at: new Date().toISOString(), ...(target ? { paths: opts.paths?.length } : {}) }),
    });
    if (target) return; // skips describe the last whole scan: a pass over some paths keeps them
    // What every search of this generation would learn from the names (search/affixes.ts).
    recordAffixes(db);
    // What a question's words are called in this repository's names (search/learned-terms.ts): read from
    // every stored file (Avalonia, 4.8k files: ~1.8 s CPU), so only where the setting asks for it.
    if (settings.learned_terms > 0) recordLearnedTerms(db, store.codec);
    setMeta(db, { skipped_counts: JSON.stringify(skipped) });
    db.exec('DELETE FROM skipped');
    const st = db.prepare('INSERT OR REPLACE INTO skipped(path, reason) VALUES (?, ?)');
    try {
      for (const s of scan.skippedSamples) st.bind([s.path, s.reason]).stepReset();
    } finally {
      st.finalize();
    }
  };

  const seen = new Set<string>();
  const unchangedByStat = (f: ScannedFile) => {
    const old = prior.files.get(f.path);
    return !!old && !stale(old) && old.size === f.size && old.mtime_ms === Math.trunc(f.mtimeMs);
  };
  const toWrite = scan.files.filter((f) => !unchangedByStat(f));
  const toPrepare = env.parsePool ? toWrite : [];
  // A pass that writes many files runs with a smaller page cache: SQLite's heap in WASM never shrinks,
  // and a cold pass filled 16 MiB of it for no speed (bench/results/store-memory-mem10.md). Searches
  // get theirs back when the pass ends, however it ends.
  const bigPass = toWrite.length > POOL_MIN_FILES;
  const pooled = toPrepare.length > POOL_MIN_FILES;
  // The pool's window reads ahead itself: a read-ahead under it would hold a second window of bytes.
  const read = pooled ? readEach(fs, scan.files, maxReadBytes(settings) + 1) : readAhead(fs, scan.files, maxReadBytes(settings) + 1, (f) => !unchangedByStat(f));
  // Files' rows made in the worker (ready-rows.ts; setting worker_rows): this thread then only writes
  // them. The blob's decoded source comes along where this thread fills the literal index or vectors from it.
  const rowsShare = pooled && settings.worker_rows !== 'off' ? new RowsShare(settings.worker_rows === 'balanced') : undefined;
  const prepared = pooled
    ? pooledPrepare(scan.files, read, env.parsePool!({
        binaryProbeBytes: settings.binary_probe_bytes,
        langs: [...new Set(toPrepare.map((f) => f.lang))],
        ...(rowsShare ? { rows: rowSettings(settings, settings.literal_index || !!env.vectors) } : {}),
      }), settings, chunker, (f) => !unchangedByStat(f), rowsShare)
    : { get: async (i: number) => ({ result: await prepareRead(await read(i), scan.files[i], settings, chunker), inWorker: false }), close: async () => {} };
  if (bigPass) store.setPageCache(settings.index_page_cache_kib);
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
        if (r.kind === 'skip') {
          addSkip(skipped, r.reason);
          if (old) push({ kind: 'delete', id: old.id, size: old.size });
          seen.delete(f.path);
        } else {
          // A worker's ready rows or this thread's prepared file: the same head fields either way.
          const head = r.kind === 'rows' ? r.rows : r.file;
          if (r.secretsFound) addSkip(skipped, 'secret_content', head.secretChunks); // this pass's; a whole pass ends with the total
          summary.bytes_read += r.bytes;
          progress.bytes += r.bytes;
          if (old && !stale(old) && old.hash === head.hash) {
            summary.files_unchanged++;
            push({ kind: 'touch', id: old.id, size: head.size, mtimeMs: f.mtimeMs, flags: head.flags });
          } else {
            summary.files_indexed++;
            summary.chunks_written += head.chunks.length;
            progress.chunks += head.chunks.length;
            if (r.fallback) summary.parse_fallback++;
            if (r.parseErrors) summary.parse_errors++;
            push({ kind: 'put', file: r.kind === 'rows' ? r.rows : fileRows(r.file, store.codec) });
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
    // Segments merged once deleted rows add up (a --full pass always): the file stays near a clean build's size.
    const compacted = await compactIfDue(store, { batchMs, signal: opts.signal });
    if (compacted) summary.compacted = compacted;
  } catch (e) {
    await prepared.close();
    if (e instanceof HciError && e.code === 'cancelled') await commit(false);
    throw e;
  } finally {
    if (bigPass) store.setPageCache(SEARCH_PAGE_CACHE_KIB);
  }
  await prepared.close();
  summary.took_ms = Date.now() - t0;
  progress.phase = 'done';
  report();
  return summary;
}

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** The pause after a batch cut short: a few of a waiting reader's polls (store.ts polls every ≤ 4 ms). */
const READER_GAP_MS = 15;

/** Sets (or, at 0, removes) the secret_content count; returns the counts. */
function setSecretCount(counts: SkipCounts, chunks: number): SkipCounts {
  if (chunks > 0) counts.secret_content = chunks;
  else delete counts.secret_content;
  return counts;
}

/** The skip counts the last whole pass stored ({} when missing or unreadable). */
function storedSkipCounts(db: Database): SkipCounts {
  try {
    return JSON.parse(readMeta(db).skipped_counts ?? '{}') as SkipCounts;
  } catch {
    return {};
  }
}

