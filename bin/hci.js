#!/usr/bin/env node
// Entry point of the `hci` command: turns on Node's module compile cache, loads the compiled CLI, keeps
// V8's young generation small (runtimes/node/young-generation.ts), then runs the CLI — bundled into a few files
// by scripts/build-cli-bundle.mjs (built by `npm run build`, run on `npm ci`), whose verbs each load
// only what they need (runtimes/cli/commands.ts).
//
// The compile cache (module.enableCompileCache, Node >= 22.1) keeps V8's compiled code of every
// module loaded after this line — hci's bundle (commander inside), the SQLite glue — so a later `hci` skips
// parsing and compiling them. It lives in Node's shared folder, <os.tmpdir()>/node-compile-cache
// (NODE_COMPILE_CACHE picks another, NODE_DISABLE_COMPILE_CACHE=1 turns it off), one sub-folder per
// Node version, entries keyed by each file's path and content, so an upgrade or an edit only misses.
// A folder that cannot be made or written costs nothing but the cache: Node answers FAILED and the
// command runs as without it (test/cli-start.test.ts).
// Builtins by process.getBuiltinModule: an ES import of one makes its ES module facade (copying every
// export) on every start (runtimes/node/code-cache.ts).
const module = process.getBuiltinModule('node:module');
const { existsSync } = process.getBuiltinModule('node:fs');
const { fileURLToPath } = process.getBuiltinModule('node:url');

// The commands that index run under a cap on glibc's malloc arenas (runtimes/node/malloc-arenas.ts:
// on Linux this process is replaced by the same command with MALLOC_ARENA_MAX=2, before anything
// else is loaded); the module is loaded only when the arguments may name such a command.
if (process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined && (process.argv.includes('index') || process.argv.includes('mcp'))) {
  const arenas = new URL('../dist/runtimes/node/malloc-arenas.js', import.meta.url);
  if (existsSync(fileURLToPath(arenas))) (await import(arenas.href)).relaunchWithArenaCap();
}

try {
  module.enableCompileCache?.();
} catch {
  // no cache: the command runs the same, only its start is slower
}

const cli = new URL('../dist/runtimes/node/hci-cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('hci: the CLI is not built yet.\nhint: run `npm install` (or `npm run build`) in the hci folder first\n');
  process.exit(5);
}
const { main, keepYoungGenerationSmall, saveCodeCaches, endShortRun } = await import(cli.href);
// The main thread's young generation stays at its starting size: a cold index's peak RSS on Node 24
// (runtimes/node/young-generation.ts). Set once the CLI's modules have loaded, not before: a V8 flag
// set at run time costs every builtin loaded after it Node's precompiled code (runtimes/node/v8-flags.ts).
keepYoungGenerationSmall();
process.exitCode = await main(process.argv.slice(2));
// Once the command has run, the V8 code cache of the CLI's largest scripts can hold every function it
// compiled: written when this run had none (runtimes/node/code-cache.ts).
saveCodeCaches();
// A one-question process (a search…) exits once its answer is written (runtimes/node/short-run.ts).
await endShortRun();
