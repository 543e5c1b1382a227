// How the service's internal state looks in answers: a background task as a flat TaskView, a thrown
// value as the contract's error object with a hint worded for the surface. Owns these conversions.
import { asHciError, HciError } from '../platform.ts';
import { hintFor, type Surface } from '../contract/errors.ts';
import type { ErrorInfo } from '../contract/common.ts';
import type { IndexSummary, TaskProgress, TaskView } from '../contract/tasks.ts';
import type { TaskSnapshot } from '../tasks.ts';

/** `paths`: a run limited to these workspace-relative paths (IndexOptions.paths). */
export type ReindexParams = { full: boolean; trigger: 'tool' | 'search' | 'watcher'; paths?: string[] };
export type ReindexTask = TaskSnapshot<TaskProgress, IndexSummary, ReindexParams>;

export function toErrorInfo(e: unknown, surface: Surface): { error: ErrorInfo; hint?: string } {
  const err = asHciError(e);
  const hint = err.code === 'internal' && !(e instanceof HciError) ? 'this is a bug in hci; the server keeps running' : hintFor(surface, err.hint);
  return { error: { code: err.code, message: err.message }, hint };
}

/** An answer's error fields: the error, and its hint when there is one. */
export function errorFields(e: unknown, surface: Surface): { error: ErrorInfo; hint?: string } {
  const { error, hint } = toErrorInfo(e, surface);
  return hint ? { error, hint } : { error };
}

export function viewTask(t: TaskSnapshot | null, surface: Surface): TaskView | null {
  if (!t) return null;
  const p = t.params as ReindexParams;
  const v: TaskView = {
    task_id: t.task_id, kind: t.kind, state: t.state, full: !!p?.full, trigger: p?.trigger ?? 'tool',
    progress: (t.progress as TaskProgress | null) ?? null, cancel_requested: t.cancel_requested,
    created_at: t.created_at, started_at: t.started_at, finished_at: t.finished_at, took_ms: t.took_ms,
  };
  if (p?.paths) v.paths = p.paths;
  const r = t.result as IndexSummary | undefined;
  if (r) {
    v.result = {
      generation: r.generation, files_indexed: r.files_indexed, files_unchanged: r.files_unchanged,
      files_removed: r.files_removed, chunks_written: r.chunks_written, took_ms: r.took_ms,
    };
  }
  if (t.error) {
    const hint = hintFor(surface, t.error.hint);
    v.error = { code: t.error.code, message: t.error.message, ...(hint ? { hint } : {}) };
  }
  return v;
}

/** Drops an undefined hint so answers do not carry the key. */
export function tidyHint<T extends { hint?: string }>(x: T): T {
  if (x.hint === undefined) delete x.hint;
  return x;
}
