// Node's memory relief for an indexing pass (core/index/indexer.ts IndexEnv.relieveMemory): between
// write batches, a full, memory-reducing garbage collection once the heap and the ArrayBuffers it
// owns grew by a step since the last one; and one at once between the keyword pass and the vector
// phase. Owns only that policy and getting a `gc` function; when to call it is the indexer's.
//
// Why: a cold pass makes garbage that outlives young-generation collections (file bytes and parse
// results waiting in the read-ahead window, chunk rows waiting for their batch). V8 lets the old
// generation and the buffers it owns grow to about twice the live size before it collects, and its
// own collections leave the emptied pages committed: a 50k-chunk pass peaked at 360-400 MB of RSS
// with ~40 MB live. A memory-reducing collection ('last-resort' flavor: compacts, then gives the
// emptied pages back) per step keeps the pass at ~250-290 MB; one costs ~60 ms at this heap size
// and a 50k-chunk pass made about ten at a step of 32 MB (twice as many at 16 MB, below). (A regular major collection frees the garbage but leaves
// the pages committed: measured, the RSS still climbed to ~315 MB.)
// The step was 32 MB; at the end of dotnet-8's pass (~10x Avalonia) the main heap's garbage of up to a
// step met the parse worker's heap and the read-ahead there, and made the peak: 16 MB halves that
// share for a collection per 16 MB (mem-timeline-dotnet-8-mem11.md; Avalonia's peak and CPU with
// either step: bench/results/index-threads-avalonia-mem12.md).
// The function comes from --expose-gc set for one new context and cleared again at once: the host
// process gets no `gc` global, and its flags are as they were (v8-flags.ts: set after its builtins)
// but one: --no-flush-liftoff-code (see gcFunction).
import * as vm from 'node:vm';
import { setV8Flag } from './v8-flags.ts';

/** Growth of heap + ArrayBuffers (bytes) between collections: the pass's garbage stays below about this. */
export const RELIEF_STEP_BYTES = 16 * 1024 * 1024;

type GcFunction = (o: { type: 'major'; flavor: 'last-resort' }) => void;
let collect: GcFunction | null | undefined;

function gcFunction(): GcFunction | null {
  if (collect !== undefined) return collect;
  // A last-resort collection also drops the process's Liftoff code (V8's Heap::EagerlyFreeExternalMemoryAndWasmCode):
  // every function of every module is compiled again at its next call, this time with a tier-up check —
  // so the grammars compiled without one (wasm-tiering.ts) were re-optimised after all (TurboFan of
  // TypeScript's lexer: 545 MB at peak). The code is a few MB; it stays.
  // (V8 13 and later: Node 22's V8 12 has no such flag, and would print an error for it.)
  if (Number(process.versions.v8.split('.')[0]) >= 13) setV8Flag('--no-flush-liftoff-code');
  try {
    setV8Flag('--expose-gc');
    collect = vm.runInNewContext('gc') as GcFunction;
  } catch {
    collect = null;
  } finally {
    setV8Flag('--no-expose-gc');
  }
  return collect;
}

/** What a collection can give back: the heap in use and the ArrayBuffers it owns. */
const managed = (): number => {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

export interface MemoryRelief {
  /** Collects when the managed memory grew by a step since the last collection, or at once with `force`; true when it did. */
  relieve(force?: boolean): boolean;
  /** Collections made so far. */
  readonly collections: number;
}

export function createMemoryRelief(step = RELIEF_STEP_BYTES): MemoryRelief {
  let base = managed();
  let collections = 0;
  return {
    get collections() {
      return collections;
    },
    relieve(force = false): boolean {
      const now = managed();
      // A collection V8 made on its own lowers the level: the step counts from there.
      if (now < base) base = now;
      if (!force && now - base < step) return false;
      const gc = gcFunction();
      if (!gc) return false;
      gc({ type: 'major', flavor: 'last-resort' });
      collections++;
      base = managed();
      return true;
    },
  };
}
