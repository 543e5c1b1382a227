#!/usr/bin/env node
// Entry point of the `hci` command: turns on Node's module compile cache, keeps V8's young generation
// small (runtimes/node/young-generation.ts), then runs the compiled CLI — bundled into a few files
// by scripts/build-cli-bundle.mjs (built by `npm run build`, run on `npm ci`), whose verbs each load
// only what they need (runtimes/cli/commands.ts).
//
// The compile cache (module.enableCompileCache, Node >= 22.1) keeps V8's compiled code of every
// module loaded after this line — hci's, the SQLite glue's, commander's — so a later `hci` skips
// parsing and compiling them. It lives in Node's shared folder, <os.tmpdir()>/node-compile-cache
// (NODE_COMPILE_CACHE picks another, NODE_DISABLE_COMPILE_CACHE=1 turns it off), one sub-folder per
// Node version, entries keyed by each file's path and content, so an upgrade or an edit only misses.
// A folder that cannot be made or written costs nothing but the cache: Node answers FAILED and the
// command runs as without it (test/cli-start.test.ts).
import module from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

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
// The main thread's young generation stays at its starting size: a cold index's peak RSS on Node 24
// (dist/runtimes/node/young-generation.js says why).
const { keepYoungGenerationSmall } = await import(new URL('../dist/runtimes/node/young-generation.js', import.meta.url).href);
keepYoungGenerationSmall();
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));
