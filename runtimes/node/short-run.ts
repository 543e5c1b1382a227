// V8 settings for a Node process that asks hci one question and exits (`hci search`, `explain`,
// `status`…; runtimes/cli/command.ts calls this before the SQLite engine loads), and its prompt exit
// once the answer is out (bin/hci.js calls endShortRun). Owns only that tuning; the index server and the indexer run with V8's defaults (the young-generation cap aside,
// young-generation.ts).
//
// Why: V8 compiles WebAssembly with Liftoff (fast to compile, slower code) and re-compiles each
// function with TurboFan once it has run about --wasm-tiering-budget bytes (13 M by default). A first
// search runs enough of SQLite's hottest functions (the VDBE loop, FTS5's doclist readers) to send
// them to TurboFan, whose compile costs more than the milliseconds the faster code then saves before
// the process exits: measured on the sample workspace (Node 24, SCHED_FIFO on a loaded machine), the
// first search took 116–130 ms of CPU and 68–96 ms of wall time, and 55–63 / 48–57 ms with the budget
// at 5e8 (59–71 / 51–64 ms at 2e9; 1.3e8 only moved the tier-up into the second search) — the later searches a long-lived process runs (MCP) are where TurboFan pays, so this
// stays out of it. Set at run time before the engine's module is compiled, the budget takes effect
// (measured; --liftoff-only, by contrast, only works as a command-line flag).
//
// Validation, too: V8 validates every function of a module when it compiles it (~880 KB of SQLite,
// 4-12 ms of `new WebAssembly.Module` on Node 24 and 22) although a search calls a few hundred of
// them; with --wasm-lazy-validation each is validated when Liftoff first compiles it (1.0-1.4 ms;
// measured on a loaded machine, 3 runs each). hci's own, unchanged wasm: nothing else runs in it.
import { setV8Flag } from './v8-flags.ts';

/** Tier-up budget for a one-question process: what a query over a large index still runs in Liftoff. */
const SHORT_RUN_TIERING_BUDGET = 1_000_000_000;

let shortRun = false;

/** Keeps the SQLite WebAssembly in its baseline code, validated as it runs, for the rest of this process (idempotent). */
export function tuneForShortRun(): void {
  shortRun = true;
  setV8Flag(`--wasm-tiering-budget=${SHORT_RUN_TIERING_BUDGET}`);
  setV8Flag('--wasm-lazy-validation');
}

/**
 * Ends a one-question process as soon as its answer is written: flushes stdout and stderr, then exits
 * with process.exitCode, rather than letting the event loop drain what V8 left to do for nothing (an
 * incremental marking the search started, finished at exit): 147.6 → 141.6 ms median per `hci search`
 * (Node 24, SCHED_FIFO on a loaded machine, 30 interleaved runs). A process that is not a short run
 * (index, mcp, watch) returns and ends as Node ends it.
 */
export async function endShortRun(): Promise<void> {
  if (!shortRun) return;
  for (const stream of [process.stdout, process.stderr]) await new Promise<void>((resolve) => stream.write('', () => resolve()));
  process.exit();
}
