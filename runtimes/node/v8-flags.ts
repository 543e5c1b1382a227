// Sets V8 flags while a process runs (young-generation.ts, short-run.ts) without costing the Node
// builtins loaded afterwards their precompiled code, and can take them back for hci's own code cache
// (code-cache.ts). Owns only that; which flags, and why, is theirs.
//
// Why: Node ships its builtin modules (fs/promises, child_process, zlib, …) with V8 code caches built
// in, and V8 accepts a code cache only under the flag hash it was made with. A flag set at run time
// changes that hash, so every builtin loaded after it is compiled from source: measured 59 against
// 47 ms median for a process that sets one flag before requiring child_process, fs/promises, zlib,
// readline and net (Node 24, SCHED_FIFO, 21 runs each). So the flags go after the CLI's modules are
// loaded (bin/hci.js), and the builtins a command still loads later — zlib for stored texts, the
// console streams, `navigator` (the SQLite glue reads it) — are loaded here first. Node's compile
// cache is unaffected: its entries are made and read under the same flags (test/cli-start.test.ts
// checks that a search loads no builtin after its first flag).
//
// The same hash binds hci's post-run code cache (code-cache.ts): a script compiled before a flag was
// set gets a cache V8 accepts only if that cache is made under the flags of its compile. V8 leaves a
// flag at its default value out of the hash, so `rewindV8Flags` puts the flags set since then back to
// their defaults (V8_DEFAULTS; test/cli-start.test.ts compares them with `node --v8-options`).
// node:v8 by process.getBuiltinModule: no ES module facade to make at start (code-cache.ts says why).
const v8 = process.getBuiltinModule('node:v8');

let warmed = false;
/** The flags set through setV8Flag, in order: [name, value] (a boolean's value is 'true' or 'false'). */
const applied: [string, string][] = [];

/** V8's default of each flag hci sets at run time (the same on Node 22 and 24; flush-liftoff-code exists from V8 13, Node 24, and is set only there). */
export const V8_DEFAULTS: Readonly<Record<string, string>> = {
  'semi-space-growth-factor': '2',
  'wasm-tiering-budget': '13000000',
  'wasm-lazy-validation': 'false',
  'wasm-tier-up-filter': '-1',
  'wasm-lazy-compilation': 'true',
  'flush-liftoff-code': 'true',
};

/** The flag setting name=value, as V8 takes it (a boolean as --name / --no-name). */
const flagText = (name: string, value: string) => (value === 'true' ? `--${name}` : value === 'false' ? `--no-${name}` : `--${name}=${value}`);

/** Loads the builtins a command needs after its flags are set, while they still come precompiled. */
function warmBuiltins(): void {
  if (warmed) return;
  warmed = true;
  process.getBuiltinModule('node:zlib');
  void process.stdout;
  void process.stderr;
  void (globalThis as { navigator?: unknown }).navigator;
}

/** `v8.setFlagsFromString` for one flag (`--name=value`, `--name`, `--no-name`), after the builtins loaded past this point are loaded. */
export function setV8Flag(flag: string): void {
  warmBuiltins();
  const m = /^--(no-)?([a-z0-9-]+)(?:=(.*))?$/.exec(flag);
  applied.push(!m ? [flag, ''] : m[3] !== undefined ? [m[2], m[3]] : [m[2], m[1] ? 'false' : 'true']);
  v8.setFlagsFromString(flag);
}

/** How many flags this process has set so far (a point `rewindV8Flags` can go back to). */
export function v8FlagCount(): number {
  return applied.length;
}

/**
 * Puts every flag set after the first `count` back to V8's default, so the flag hash is the one it was
 * then (a flag set before that point gets its value of then). False (and nothing changed) if one of
 * them has no known default. Only for a process that is
 * done (code-cache.ts, at exit): the flags' own purpose is over by then.
 */
export function rewindV8Flags(count: number): boolean {
  const kept = new Map(applied.slice(0, count));
  const later = new Set(applied.slice(count).map(([name]) => name));
  if ([...later].some((name) => !kept.has(name) && !(name in V8_DEFAULTS))) return false;
  for (const name of later) v8.setFlagsFromString(flagText(name, kept.get(name) ?? V8_DEFAULTS[name]));
  applied.length = count;
  return true;
}
