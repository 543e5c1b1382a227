// Keeping the index file compact. The FTS tables are contentless: a row's delete writes delete
// markers into a new segment and leaves its tokens in the old ones until segments merge, so passes
// that replace many rows (a --full rebuild, a re-chunk, a branch switch) grow the file — FluentAvalonia
// 5.8 MB clean, 17.4 MB after six --full runs. And every query term reads each segment (its %_idx
// entry, its doclist pages, merged row by row): a pass that leaves many segments (a cold build's
// batches: 17 on Avalonia) slows every search. Owns when to merge (the bytes of files whose rows a
// pass deleted or replaced since the last merge, against the bytes the index holds; a table's
// segment count) and merging in
// short write transactions (FTS5 'merge' steps sized to about batchMs, a reader's gap between
// them), and handing freed pages back to the file (after every pass too). Counting the churn is the
// indexer's.
import type { Database } from '../sqlite/engine.ts';
import type { IndexStore } from './store.ts';
import { readMeta, setMeta } from './meta.ts';
import { ftsStructure } from './fts-structure.ts';

/** Meta key: source bytes whose FTS rows were deleted (or replaced) since the last merge. */
export const CHURN_KEY = 'fts_churn_bytes';

/** Merge once the deleted rows' text reaches this share of the indexed text (a --full pass is 1.0). */
export const COMPACT_AT = 0.3;

/**
 * A table a pass leaves with more segments than this is merged to one (FTS5's automerge keeps a few
 * per level, and a cold build's many batches leave many levels). Avalonia's cold build left 17:
 * merged to one, warm new queries cost 0.925x CPU, answers identical (bench/results/search-warm-warm14.md);
 * the merge cost ~0.3 s CPU there (a single small pass adds one segment: it is not merged).
 */
export const MERGE_ABOVE_SEGMENTS = 8;

/** The pause between two merge steps: a few of a waiting reader's polls (store.ts polls every ≤ 4 ms). */
const READER_GAP_MS = 15;

/** The FTS tables merged, with a column a placeholder row can be written to. */
const FTS_TABLES = [{ table: 'chunks_fts', column: 'body' }, { table: 'files_tri', column: 'text' }] as const;

export interface CompactReport {
  took_ms: number;
  steps: number;
  bytes_before: number;
  bytes_after: number;
}

/** Adds a pass's churn to the stored count (inside the pass's final transaction). */
export function addChurn(db: Database, bytes: number): void {
  if (bytes <= 0) return;
  setMeta(db, { [CHURN_KEY]: String(storedChurn(db) + bytes) });
}

function storedChurn(db: Database): number {
  const v = Number(readMeta(db)[CHURN_KEY] ?? 0);
  return Number.isFinite(v) && v > 0 ? v : 0;
}

const fileBytes = (db: Database) => Number(db.selectValue('PRAGMA page_count')) * Number(db.selectValue('PRAGMA page_size'));

/**
 * Merges the FTS segments and frees the pages they held when the churn since the last merge is due
 * (or always, with `force`) — every table then; else each table left with more than
 * MERGE_ABOVE_SEGMENTS segments. Each step is one write transaction of about `batchMs`; a cancel (the
 * signal) stops between steps and keeps what was merged. Null when nothing was due.
 */
export async function compactIfDue(
  store: IndexStore,
  opts: { batchMs: number; force?: boolean; signal?: AbortSignal },
): Promise<CompactReport | null> {
  const t0 = Date.now();
  const due = await store.read((db) => {
    const churn = storedChurn(db);
    const held = Number(db.selectValue('SELECT coalesce(sum(size), 0) FROM files'));
    const literal = readMeta(db).literal_index === 'on';
    const tables = literal ? [...FTS_TABLES] : FTS_TABLES.slice(0, 1);
    const churned = opts.force || (churn > 0 && churn >= COMPACT_AT * held);
    return { churned, tables: churned ? tables : tables.filter((t) => (ftsStructure(db, t.table)?.segments ?? 0) > MERGE_ABOVE_SEGMENTS), before: fileBytes(db) };
  });
  if (!due.tables.length) return null;
  let steps = 0;
  // Pages a step may write: adjusted so a step takes about batchMs (the machine and the index decide).
  let pages = 16;
  for (const { table, column } of due.tables) {
    // Segments all on one level below the last are merged as a level, not as the oldest: FTS5 then
    // keeps the delete markers, and a lone segment can never be merged again. A row inserted and
    // deleted (two new segments on level 0, the delete masking the row) makes the next merge the
    // oldest, which drops both with every other marker.
    await store.write((db) => {
      const s = ftsStructure(db, table);
      if (s && s.segments > 0 && s.levels.filter((n) => n > 0).length === 1 && s.levels[s.levels.length - 1] === 0) {
        db.exec(`INSERT INTO ${table}(rowid, ${column}) VALUES (-1, 'hci')`);
        db.exec('SAVEPOINT hci_fts_flush; RELEASE hci_fts_flush');
        db.exec(`INSERT INTO ${table}(${table}, rowid, ${column}) VALUES ('delete', -1, 'hci')`);
      }
    });
    for (let idle = 0; idle < 2; ) {
      if (opts.signal?.aborted) return { took_ms: Date.now() - t0, steps, bytes_before: due.before, bytes_after: await store.read(fileBytes) };
      const started = Date.now();
      const step = await store.write((db) => {
        if ((ftsStructure(db, table)?.segments ?? 0) <= 1) return 'merged';
        const before = Number(db.selectValue('SELECT total_changes()'));
        db.exec(`INSERT INTO ${table}(${table}, rank) VALUES ('merge', ?)`, { bind: [-pages] });
        // FTS5: a delta of 2 or more in total_changes() means the step merged something.
        return Number(db.selectValue('SELECT total_changes()')) - before >= 2 ? 'worked' : 'idle';
      });
      if (step === 'merged') break;
      steps++;
      idle = step === 'idle' ? idle + 1 : 0;
      const took = Math.max(1, Date.now() - started);
      pages = Math.max(4, Math.min(4096, Math.round(pages * Math.min(4, Math.max(0.25, opts.batchMs / took)))));
      await new Promise<void>((r) => setTimeout(r, READER_GAP_MS));
    }
  }
  const after = await store.write((db) => {
    releaseFreePages(db);
    // (Merged for its segments alone: the churn still counts toward a merge of every table.)
    if (due.churned) setMeta(db, { [CHURN_KEY]: '0' });
    return fileBytes(db);
  });
  return { took_ms: Date.now() - t0, steps, bytes_before: due.before, bytes_after: after };
}

/**
 * Hands pages freed by a pass back to the file (indexes created with auto_vacuum=incremental).
 * FTS5 writes its pending segments (and merges old ones, freeing pages) when a transaction commits
 * or a savepoint is released: release one first, so the pages it frees are returned too.
 */
export function releaseFreePages(db: Database): void {
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
