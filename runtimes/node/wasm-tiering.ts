// Tree-sitter grammars compiled by V8 without tier-up: Liftoff code only, for the life of the process.
// Node's GrammarSource (grammars.ts) runs each grammar's compile inside `baselineOnly`; the tree-sitter
// runtime, SQLite and everything else keep V8's dynamic tiering. Owns only that scope; which modules
// go through it is grammars.ts's choice.
//
// Why: V8 re-compiles a hot WebAssembly function with TurboFan, and a grammar's lexer is one huge
// function (a switch over every lexer state): TypeScript's (118 KB of code) took 2.2-3.3 s of a
// background thread and 545 MB of compiler memory; C#'s two lexers (48 and 29 KB) 0.5-0.7 s and
// 80-110 MB each. On AvaloniaUI/Avalonia (36 TypeScript files among 4,821) that compile was the peak
// RSS of `hci index`: 700 MB against 256 MB without TurboFan. Kept in Liftoff, C# extraction took the
// same CPU within noise (4,076 files: 11.6/12.7 s against 11.5/12.6 s in the same runs).
// How: V8 decides whether a function's Liftoff code carries the tier-up check when it compiles it,
// reading --wasm-tier-up-filter (a function index: only that one tiers up) then; functions compile
// lazily, at their first call, unless --no-wasm-lazy-compilation is set when the module is compiled.
// So for a grammar's compile both are set (the filter to an index no function has), and put back when
// it is done: every function of that module is compiled at once, with no tier-up check. A module
// compiled elsewhere in the process meanwhile (nothing else compiles while a parse worker starts) or
// a function first called then would be kept in Liftoff too: nothing breaks, it is only not re-optimised.
import { setV8Flag } from './v8-flags.ts';

/** A function index no module has: with it as the filter, no function compiled meanwhile gets a tier-up check. */
const NO_FUNCTION = 2_147_483_647;

let open = 0;

/** Runs `compile` (a WebAssembly module's compilation, awaited whole) with V8's tier-up off for what it compiles. */
export async function baselineOnly<T>(compile: () => Promise<T>): Promise<T> {
  if (open++ === 0) {
    setV8Flag(`--wasm-tier-up-filter=${NO_FUNCTION}`);
    setV8Flag('--no-wasm-lazy-compilation');
  }
  // An eager asynchronous compile finishes on V8's background threads, which hold no handle on Node's
  // event loop: with nothing else pending (a small pass parsing in its own thread) the process would
  // exit with the compile unsettled. A timer holds the loop until it settles.
  const hold = setInterval(() => {}, 60_000);
  try {
    return await compile();
  } finally {
    clearInterval(hold);
    if (--open === 0) {
      setV8Flag('--wasm-tier-up-filter=-1');
      setV8Flag('--wasm-lazy-compilation');
    }
  }
}
