// How a benchmark run spends its query set: disjoint slices, so no latency figure is of a query the
// process (or hci's decoded-file cache) has already answered, except the one labelled "repeated".
// Owns the partition only; what each slice measures is the worker's (bench/worker.ts, runPlan).
import { hash32 } from './util.ts';
import type { QueryPlan } from '../worker.ts';

export interface QuerySlices {
  /** Per run: the queries each answered by a new process (cold: no JIT, no hci cache; the OS page cache is warm). */
  coldByRun: string[][];
  /** In-process plan (the same for every run and engine). */
  plan: QueryPlan;
  /** False when the set was too small to keep the slices disjoint (then they overlap, and the report says so). */
  disjoint: boolean;
}

/** A deterministic shuffle (by hash), so every slice mixes the set's kinds of query. */
export function shuffled(queries: readonly string[]): string[] {
  return [...new Set(queries)].sort((a, b) => hash32(a) - hash32(b) || (a < b ? -1 : 1));
}

export function sliceQueries(queries: readonly string[], o: { repeat: number; coldQueries: number; reopenQueries: number; queryRepeat: number; limit: number }): QuerySlices {
  const q = shuffled(queries);
  const coldWanted = o.repeat * o.coldQueries;
  if (q.length < coldWanted + o.reopenQueries + 8) {
    // Too few to keep every slice apart: reuse the set (smoke tests, tiny corpora).
    const cold = q.slice(0, Math.max(1, o.coldQueries));
    return {
      coldByRun: Array.from({ length: o.repeat }, () => (o.coldQueries > 0 ? cold : [])),
      plan: { reopen: q.slice(0, Math.min(o.reopenQueries, q.length)), warmup: q, measured: q, repeat: o.queryRepeat, limit: o.limit },
      disjoint: false,
    };
  }
  let at = 0;
  const take = (n: number) => q.slice(at, (at += n));
  const coldByRun = Array.from({ length: o.repeat }, () => take(o.coldQueries));
  const reopen = take(o.reopenQueries);
  const rest = q.slice(at);
  const half = Math.floor(rest.length / 2);
  return { coldByRun, plan: { reopen, warmup: rest.slice(0, half), measured: rest.slice(half), repeat: o.queryRepeat, limit: o.limit }, disjoint: true };
}
