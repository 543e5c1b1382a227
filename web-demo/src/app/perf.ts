// Keystroke-to-paint timing for search as you type: the input handler notes when each query was
// typed, the results list reports when the answer for it is on screen (after the next frame). The
// samples are kept on window.__hciPerf for the benchmark (bench/web-demo-bench.ts). Owns only that.
const typedAt = new Map<string, number>();
const samples: Array<{ query: string; ms: number; worker_ms: number }> = [];
(window as unknown as { __hciPerf: typeof samples }).__hciPerf = samples;

export function noteTyped(query: string, at = performance.now()): void {
  typedAt.set(query, at);
  if (typedAt.size > 200) typedAt.delete(typedAt.keys().next().value!);
}

/** Called once the results of `query` are rendered: measures after the browser paints them. */
export function notePainted(query: string, workerMs: number): void {
  const t = typedAt.get(query);
  if (t === undefined) return;
  typedAt.delete(query);
  requestAnimationFrame(() => setTimeout(() => samples.push({ query, ms: performance.now() - t, worker_ms: workerMs }), 0));
}
