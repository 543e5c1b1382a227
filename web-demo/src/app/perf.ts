// What the benchmark (bench/web-demo-bench.ts) reads off the page: keystroke-to-paint time of search
// as you type (the input handler notes when each query was typed, the controller reports when its
// answer is rendered, measured after the next frame), indexing runs, and the start-up marks
// (performance.mark: hci-ready when the Worker answers, hci-workspace-open when a workspace is
// searchable). Kept on window.__hciPerf. Owns only that.
import type { IndexSummary } from '../../../core/contract/index.ts';

/** Keystrokes not painted yet, in typing order: the query each made, and when. */
const typedAt = new Map<string, number>();
/**
 * One keystroke: `answered_ms` when its answer reached the page, `rendered_ms` when the view had drawn
 * it (the DOM updated, before style and layout), `frame_ms` when the frame that paints it began
 * (requestAnimationFrame), `ms` once that frame is painted; all from the keystroke. A keystroke whose
 * own answer was never shown — a later key's search replaced it — counts until that later answer is
 * painted (`replaced_by` names its query): keystroke → painted result of it or of its successor.
 */
const samples: Array<{ query: string; ms: number; answered_ms: number; rendered_ms: number; frame_ms: number; worker_ms: number; replaced_by?: string }> = [];
const runs: Array<{ workspace: string; wall_ms: number; phases: Record<string, number>; summary: IndexSummary }> = [];
/** Keystrokes left unpainted when the field was emptied (no search followed them). */
const cleared = { keystrokes: 0 };
(window as unknown as { __hciPerf: { typing: typeof samples; runs: typeof runs; cleared: typeof cleared } }).__hciPerf = { typing: samples, runs, cleared };

/** `phases`: milliseconds from the run's start to the first progress report of each phase, and to its end. */
export function noteRun(workspace: string, wallMs: number, summary: IndexSummary, phases: Record<string, number> = {}): void {
  runs.push({ workspace, wall_ms: Math.round(wallMs), phases, summary });
}

export function mark(name: 'hci-ready' | 'hci-workspace-open'): void {
  if (!performance.getEntriesByName(name).length) performance.mark(name);
}

/** A keystroke made the query `query` (an emptied field searches nothing: what was still unpainted is counted as cleared). */
export function noteTyped(query: string, at = performance.now()): void {
  if (!query.trim()) {
    cleared.keystrokes += typedAt.size;
    typedAt.clear();
    return;
  }
  // Typed again (the same prefix of another word): it moves to the end of the typing order.
  typedAt.delete(query);
  typedAt.set(query, at);
  if (typedAt.size > 200) typedAt.delete(typedAt.keys().next().value!);
}

/**
 * Called when the answer for `query` is handed to the view: measures again after the browser paints
 * it, for its keystroke and for every keystroke typed before it whose own answer was never shown.
 */
export function notePainted(query: string, workerMs: number): void {
  const t = typedAt.get(query);
  if (t === undefined) return;
  const replaced: Array<[string, number]> = [];
  for (const [q, at] of typedAt) {
    if (q === query) break;
    replaced.push([q, at]);
  }
  for (const [q] of replaced) typedAt.delete(q);
  typedAt.delete(query);
  const now = performance.now();
  // The view's render was queued (a microtask) when the answer was set, before this one.
  let rendered = NaN;
  queueMicrotask(() => (rendered = performance.now()));
  requestAnimationFrame(() => {
    const frame = performance.now();
    setTimeout(() => {
      const painted = performance.now();
      const sample = (at: number) => ({ ms: painted - at, answered_ms: now - at, rendered_ms: rendered - at, frame_ms: frame - at, worker_ms: workerMs });
      for (const [q, at] of replaced) samples.push({ query: q, ...sample(at), replaced_by: query });
      samples.push({ query, ...sample(t) });
    }, 0);
  });
}
