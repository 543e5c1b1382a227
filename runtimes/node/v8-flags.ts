// Sets V8 flags while a process runs (young-generation.ts, short-run.ts) without costing the Node
// builtins loaded afterwards their precompiled code. Owns only that; which flags, and why, is theirs.
//
// Why: Node ships its builtin modules (fs/promises, child_process, zlib, …) with V8 code caches built
// in, and V8 accepts a code cache only under the flag hash it was made with. A flag set at run time
// changes that hash, so every builtin loaded after it is compiled from source: measured 59 against
// 47 ms median for a process that sets one flag before requiring child_process, fs/promises, zlib,
// readline and net (Node 24, SCHED_FIFO, 21 runs each). So the flags go after the CLI's modules are
// loaded (bin/hci.js), and the builtins a command still loads later — zlib for stored texts, the
// console streams, `navigator` (the SQLite glue reads it) — are loaded here first. hci's own compile
// cache is unaffected: its entries are made and read under the same flags (test/cli-start.test.ts
// checks that a search loads no builtin after its first flag).
import * as v8 from 'node:v8';

let warmed = false;

/** Loads the builtins a command needs after its flags are set, while they still come precompiled. */
function warmBuiltins(): void {
  if (warmed) return;
  warmed = true;
  process.getBuiltinModule('node:zlib');
  void process.stdout;
  void process.stderr;
  void (globalThis as { navigator?: unknown }).navigator;
}

/** `v8.setFlagsFromString`, after the builtins loaded past this point are loaded. */
export function setV8Flag(flag: string): void {
  warmBuiltins();
  v8.setFlagsFromString(flag);
}
