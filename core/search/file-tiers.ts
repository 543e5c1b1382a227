// A ranked list of chunks as answers list them: distinct files first, no chunk dropped. A file's
// k-th chunk (k ≥ 2, counted across the passes of one search) weighs same_file_factor^(k−1)
// (factor `same_file`), so the next file's best chunk goes before a further chunk of a file already
// listed unless that chunk is much better; a file's chunks past max_hits_per_file follow every other
// hit, in their order, scaled to score no higher than the last of those (factor `past_file_cap`):
// still there for the next pages, so a page is short only when nothing more matches. Copies count
// as one file (setting collapse_copies): a file whose content equals one already listed (a docs
// site's per-version copies of a page, a vendored duplicate) has its chunks counted as that file's,
// so its best chunk weighs same_file_factor (factor `copy_of_listed`) and follows the other files;
// variants of one file (setting collapse_variants, variants.ts: translations, versioned docs pages)
// count as one file the same way (factor `variant_of_listed`).
// Owns the per-file counting, the demotion and the tail, and reading a ranked list by file rank (its
// first n files: firstOfFiles, fileRankEnd); the scores it starts from are rerank's and the fusions'.
import type { Candidate } from './candidates.ts';
import { scaleBelow } from './placement.ts';

/** Deterministic order across runtimes: score, then path, then line. */
export function byScore(a: Candidate, b: Candidate): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine;
}

export const SAME_FILE = 'same_file';
export const PAST_FILE_CAP = 'past_file_cap';
export const COPY_OF_LISTED = 'copy_of_listed';
export const VARIANT_OF_LISTED = 'variant_of_listed';

export interface FileTierOptions {
  /** A file's chunks ranked with the others; those past it come after all of them. */
  maxHitsPerFile: number;
  /** The weight of a file's second chunk (its third: the square, …); 1: no demotion. */
  sameFileFactor: number;
  /** Files of equal content (their hash) count as one file. */
  collapseCopies?: boolean;
  /** Variants of one file (variants.ts: translations, versioned docs) count as one file: the group's key, if any. */
  groupOf?: (c: Candidate) => string | undefined;
}

/** Per search: how many chunks each file (or group of copies) has listed, and which file listed first. */
export interface FileCounts {
  n: Map<string, number>;
  first: Map<string, number>;
}

export function newFileCounts(): FileCounts {
  return { n: new Map(), first: new Map() };
}

/**
 * Orders `cands` (scores final but for this) into distinct-files-first tiers (see the header).
 * `perFile` counts each file's chunks already listed by earlier passes of the same search, and is
 * updated. Sorts in place; returns the new order.
 */
export function tierByFile(cands: Candidate[], o: FileTierOptions, perFile: FileCounts = newFileCounts()): Candidate[] {
  cands.sort(byScore);
  for (const c of cands) {
    const group = o.groupOf?.(c);
    const key = group !== undefined ? `g${group}` : o.collapseCopies && c.hash ? `h${c.hash}` : `f${c.fileId}`;
    const n = (perFile.n.get(key) ?? 0) + 1;
    perFile.n.set(key, n);
    const first = perFile.first.get(key) ?? c.fileId;
    perFile.first.set(key, first);
    c.fileRank = n;
    if (n >= 2 && o.sameFileFactor < 1) {
      const factor = Math.pow(o.sameFileFactor, n - 1);
      c.factors.push({ name: first === c.fileId ? SAME_FILE : group !== undefined ? VARIANT_OF_LISTED : COPY_OF_LISTED, factor });
      c.score *= factor;
    }
  }
  cands.sort(byScore);
  const head: Candidate[] = [];
  const tail: Candidate[] = [];
  for (const c of cands) (c.fileRank! <= o.maxHitsPerFile ? head : tail).push(c);
  if (!tail.length) return cands;
  scaleBelow(tail, head.length ? head[head.length - 1].score : Infinity, PAST_FILE_CAP);
  return [...head, ...tail];
}

/**
 * A ranked list whose order stays (a fusion's: the guard's files first): a file's chunks past
 * `maxHitsPerFile` move after all the others, in their order, scaled as tierByFile's tail (not dropped).
 */
export function capTail(ranked: readonly Candidate[], maxHitsPerFile: number): Candidate[] {
  const { head, tail } = splitAtCap(ranked, maxHitsPerFile);
  if (!tail.length) return [...ranked];
  scaleBelow(tail, head.length ? Math.min(...head.map((c) => c.score)) : Infinity, PAST_FILE_CAP, Math.max(...tail.map((c) => c.score)));
  return [...head, ...tail];
}

/** The candidates among their file's first `maxHitsPerFile` in the list (head) and the others (tail), each in list order. */
export function splitAtCap(ranked: readonly Candidate[], maxHitsPerFile: number): { head: Candidate[]; tail: Candidate[] } {
  const perFile = new Map<number, number>();
  const head: Candidate[] = [];
  const tail: Candidate[] = [];
  for (const c of ranked) {
    const n = (perFile.get(c.fileId) ?? 0) + 1;
    perFile.set(c.fileId, n);
    (n <= maxHitsPerFile ? head : tail).push(c);
  }
  return { head, tail };
}

/** How many of the candidates are in the head tier (a file's first max_hits_per_file). */
export function headCount(ranked: readonly Candidate[], maxHitsPerFile: number): number {
  let n = 0;
  for (const c of ranked) if ((c.fileRank ?? 1) <= maxHitsPerFile) n++;
  return n;
}

/** The first entry of each of a list's first `n` distinct files, in list order. */
export function firstOfFiles<T extends { fileId: number }>(ranked: readonly T[], n: number): T[] {
  const seen = new Set<number>();
  const out: T[] = [];
  for (const c of ranked) {
    if (out.length >= n) break;
    if (seen.has(c.fileId)) continue;
    seen.add(c.fileId);
    out.push(c);
  }
  return out;
}

/** Where a list's (n+1)-th distinct file begins: the entries before it are its first `n` files' (the list's length when it holds n files or fewer). */
export function fileRankEnd(ranked: readonly { fileId: number }[], n: number): number {
  const seen = new Set<number>();
  for (let i = 0; i < ranked.length; i++) {
    if (seen.has(ranked[i].fileId)) continue;
    if (seen.size >= n) return i;
    seen.add(ranked[i].fileId);
  }
  return ranked.length;
}
