// The test lanes: which test files run together, so a change can be checked by the lane it touches
// and CI can pick lanes per Node version. A test file says its lane in one line of its own,
// `// @lane <name>`, beside its header comment; a file that says none is in the `cli` lane (it may
// start processes and need the build; CI runs it on both Node versions, as it ran new files before
// lanes). vite.config.ts makes one vitest project per lane (`vitest run --project unit`, `npm run
// test:unit`); test/lanes.test.ts fails while a file names an unknown lane or two. `npm test` runs every lane. Owns the table and reading the tags;
// what a lane's files may do is enforced by the lane's setup (unit: test/helpers/unit-lane.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';

export const LANES = {
  unit: 'in-process: the real core and the WASM SQLite over temp folders; no build, no child process (enforced)',
  cli: 'the built CLI and other Node child processes (multi-process indexing, locks, git and sqlite3 checks); may run the same checks under Deno',
  slow: 'the long multi-process suites (SIGKILL crash runs, concurrent writers, the parse pool) and the bench smoke test',
  mcp: 'the MCP servers over stdio and HTTP, and the watcher',
  runtimes: 'Deno, and the same files and queries across Node, Deno and Chromium',
  browser: 'the browser runtime and the explorer (web-demo) in headless Chromium',
  package: 'the packed tarball installed and run as a user would (npm pack, npm install, a create-vite app)',
} as const;
export type Lane = keyof typeof LANES;

/** The lane of a test file that names none: it may start processes, so it is not `unit`. */
export const DEFAULT_LANE: Lane = 'cli';

/** The lanes CI's Node 22 phase runs (.ci/run); Node 24 runs them all (`npm test`). */
export const NODE22_LANES: readonly Lane[] = ['unit', 'cli'];

const TEST_DIR = path.dirname(new URL(import.meta.url).pathname);
const TAG = /^\/\/ @lane ([\w-]+)\s*$/gm;

/** Every test file (relative to the repository), with the lane tags it carries (one, when it is right). */
export function laneTags(testDir = TEST_DIR): { file: string; lanes: string[] }[] {
  return fs
    .readdirSync(testDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.test.ts'))
    .sort()
    .map((f) => ({ file: path.posix.join('test', f.split(path.sep).join('/')), lanes: [...fs.readFileSync(path.join(testDir, f), 'utf8').matchAll(TAG)].map((m) => m[1]) }));
}

/** The files of each lane: no tag is `cli` (DEFAULT_LANE); an unknown lane or two lanes is `untagged` (run by `npm test`, failed by lanes.test.ts). */
export function filesByLane(testDir = TEST_DIR): Record<Lane | 'untagged', string[]> {
  const out = Object.fromEntries([...Object.keys(LANES), 'untagged'].map((l) => [l, [] as string[]])) as Record<Lane | 'untagged', string[]>;
  for (const { file, lanes } of laneTags(testDir)) {
    out[lanes.length === 0 ? DEFAULT_LANE : lanes.length === 1 && lanes[0] in LANES ? (lanes[0] as Lane) : 'untagged'].push(file);
  }
  return out;
}
