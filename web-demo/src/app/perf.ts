// What the benchmark (bench/web-demo-bench.ts) reads off the page: keystroke-to-paint time of search
// as you type (the input handler notes when each query was typed, the controller reports when its
// answer is rendered, measured after the next frame), indexing runs, and the start-up marks
// (performance.mark: hci-ready when the Worker answers, hci-workspace-open when a workspace is
// searchable). Kept on window.__hciPerf. Owns only that.
import type { IndexSummary } from '../../../core/contract/index.ts';

const typedAt = new Map<string, number>();
/**
 * One keystroke: `answered_ms` when its answer reached the page, `rendered_ms` when the view had drawn
 * it (the DOM updated, before style and layout), `frame_ms` when the frame that paints it began
 * (requestAnimationFrame), `ms` once that frame is painted; all from the keystroke.
 */
const samples: Array<{ query: string; ms: number; answered_ms: number; rendered_ms: number; frame_ms: number; worker_ms: number }> = [];
const runs: Array<{ workspace: string; wall_ms: number; phases: Record<string, number>; summary: IndexSummary }> = [];
(window as unknown as { __hciPerf: { typing: typeof samples; runs: typeof runs } }).__hciPerf = { typing: samples, runs };

/** `phases`: milliseconds from the run's start to the first progress report of each phase, and to its end. */
export function noteRun(workspace: string, wallMs: number, summary: IndexSummary, phases: Record<string, number> = {}): void {
  runs.push({ workspace, wall_ms: Math.round(wallMs), phases, summary });
}

export function mark(name: 'hci-ready' | 'hci-workspace-open'): void {
  if (!performance.getEntriesByName(name).length) performance.mark(name);
}

export function noteTyped(query: string, at = performance.now()): void {
  typedAt.set(query, at);
  if (typedAt.size > 200) typedAt.delete(typedAt.keys().next().value!);
}

/** Called when the answer for `query` is handed to the view: measures again after the browser paints it. */
export function notePainted(query: string, workerMs: number): void {
  const t = typedAt.get(query);
  if (t === undefined) return;
  typedAt.delete(query);
  const answered = performance.now() - t;
  // The view's render was queued (a microtask) when the answer was set, before this one.
  let rendered = NaN;
  queueMicrotask(() => (rendered = performance.now() - t));
  requestAnimationFrame(() => {
    const frame = performance.now() - t;
    setTimeout(() => samples.push({ query, ms: performance.now() - t, answered_ms: answered, rendered_ms: rendered, frame_ms: frame, worker_ms: workerMs }), 0);
  });
}
