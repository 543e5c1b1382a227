// Which stored rows are cut the way this pass cuts files. Owns the chunking fingerprint, the meta
// record of a re-chunk under way (written with each commit, through recordChunking) and the verdict
// "re-cut this file whatever its hash". The indexer applies the verdict; cutting is the chunker's.
//
// meta.chunking_fingerprint names the chunking of a complete index. A pass that changes it (a
// chunking setting or the chunker changed, or a first build) records meta.rechunk = {fingerprint,
// since}: since is the first generation it commits, and every row it writes carries a generation
// at or after it. Only when the pass completes does chunking_fingerprint take the new value. So a
// killed or cancelled re-chunk leaves rows older than `since` on the old chunking, and the next pass
// re-cuts exactly those, instead of taking the index for done.
import type { Settings } from '../settings.ts';
import type { Database } from '../sqlite/engine.ts';
import { CHUNKER_VERSION, type Chunker } from '../chunk/chunker.ts';
import { setMeta } from './meta.ts';

/** What decides how files are cut: when it changes, every file is re-chunked. */
export function chunkingFingerprint(s: Settings, chunker: Chunker): string {
  // The size rule decides whether a big file is parsed or windowed (core/scan/size-policy.ts): a change re-cuts.
  const large = [s.max_indexed_file_bytes, s.large_file_max_bytes, [...s.large_file_langs].sort()];
  return JSON.stringify({ v: CHUNKER_VERSION, structural: chunker.structural, lines: s.chunk_lines, overlap: s.chunk_overlap_lines, large });
}

interface Rechunk {
  fingerprint: string;
  since: number;
}

export interface ChunkingPlan {
  fingerprint: string;
  /** Every file is re-read and re-cut (asked for, or the stored chunking cannot be told apart). */
  full: boolean;
  /** A file row older than this generation must be re-cut even when its content is unchanged. */
  staleBefore: number;
  /** The re-chunk this pass carries out, if it changes the chunking. */
  rechunk: Rechunk | null;
}

function readRechunk(json: string | undefined): Rechunk | null {
  if (!json) return null;
  try {
    const r = JSON.parse(json) as Partial<Rechunk>;
    return typeof r.fingerprint === 'string' && Number.isInteger(r.since) ? (r as Rechunk) : null;
  } catch {
    return null;
  }
}

export function planChunking(meta: Record<string, string>, fingerprint: string, fullAsked: boolean): ChunkingPlan {
  const pending = readRechunk(meta.rechunk);
  if (pending && pending.fingerprint === fingerprint) {
    // A re-chunk to this very chunking was cut short: rows from `since` on are done, the rest is not.
    return { fingerprint, full: fullAsked, staleBefore: pending.since, rechunk: pending };
  }
  if (pending || meta.build_state === 'empty' || meta.chunking_fingerprint !== fingerprint) {
    // Another chunking (or a re-chunk to a third one, left half done): every row is re-cut.
    return { fingerprint, full: true, staleBefore: 0, rechunk: { fingerprint, since: Number(meta.generation ?? 0) + 1 } };
  }
  return { fingerprint, full: fullAsked, staleBefore: 0, rechunk: null };
}

/**
 * Writes the pass's state with each of its commits (inside the transaction): a commit that does not
 * complete the pass leaves the index `partial` with its re-chunk recorded; the final one names the
 * new chunking and drops the record.
 */
export function recordChunking(db: Database, plan: ChunkingPlan, final: boolean): void {
  if (final) {
    setMeta(db, { build_state: 'complete', chunking_fingerprint: plan.fingerprint });
    db.exec("DELETE FROM meta WHERE key = 'rechunk'");
  } else {
    setMeta(db, { build_state: 'partial', ...(plan.rechunk ? { rechunk: JSON.stringify(plan.rechunk) } : {}) });
  }
}
