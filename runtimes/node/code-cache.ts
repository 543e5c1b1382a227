// hci's post-run V8 code cache for the CLI's largest scripts (the bundle's base file, the SQLite glue):
// runs a script file that scripts/esm-to-script.mjs made from an ES module, with the V8 code cache a
// previous run of the same command left, and when there was none (or V8 refused it) writes one at the
// end of the run (bin/hci.js calls saveCodeCaches); a cache that a later run can add functions to is
// made again (below: when). Only the `hci` command runs it (from the CLI
// bundle's own chunk, shared by the bundle and the stand-ins). Owns that cache: its folder, its files,
// when they are written. Which modules become scripts is the build's (scripts/build-cli-bundle.mjs).
//
// Why: Node's module compile cache holds the code V8 compiled while it compiled a module — its top
// level, not the ~600 functions a search then compiles lazily, on every run, from source (the glue's
// API and the search path). A cache made by `script.createCachedData()` after the command has run
// holds those too.
//
// - Where: a folder `hci-code-cache` in Node's compile cache folder (module.getCompileCacheDir(): per
//   Node version and user, in the temp folder unless NODE_COMPILE_CACHE moves it). With Node's cache
//   off (NODE_DISABLE_COMPILE_CACHE=1, or a folder it could not make) this one is off too, and every
//   failure to read or write it is silent: the command runs as it would without.
// - Keys: one file per script and command (`<script file>.<verb>.cache`, the verb being the process's
//   first argument): a search's cache holds what a search compiles. The script files carry a content
//   hash in their names, so an edit is a new key; V8 itself rejects a cache from another V8 or flag set.
// - Safe to share: written to a temporary file and renamed into place, so a reader sees a whole file or
//   none; a checksum in the file's header (zlib.crc32) turns a damaged file into a miss (V8 does not
//   check its payload); a folder that is not the user's own (or open to others) is not used.
// - When again: a cache holds what the run that made it compiled. A search that took a short path (a
//   query that matched nothing) leaves one without the ranking, the snippets, the output: every later
//   search would compile those from source, until the next build. So a run that used a cache checks,
//   after the command, whether it would now make a larger one (`createCachedData` holds the functions
//   deserialized from the cache and those compiled this run) and writes it when it grew by more than
//   GROWTH bytes (a cache of the same functions varies by a few dozen). The check costs ~3–6 ms a
//   script, so not every run makes it: the first SETTLE runs after a write do, then one run in RECHECK
//   (a counter in the file's header, outside the checksum, counts the runs: 4 bytes written in place).
//   No cheaper signal was found: V8 does not say how many functions a run compiled lazily, and the
//   growth of its trusted space (bytecode) mixes deserialized and compiled code and varies by ±100 KB.
// - Flags: V8 accepts a cache only under the flag hash it was made with, and hci sets flags while it
//   runs (v8-flags.ts). Each script remembers how many flags were set when it was compiled; its cache
//   is made with the later ones taken back (rewindV8Flags), which is done last, when the run is over.
import type { Script } from 'node:vm';
import { rewindV8Flags, v8FlagCount } from './v8-flags.ts';

// Builtins by process.getBuiltinModule, not imported: an ES import of a builtin makes its ES module
// facade, which copies every export (node:fs's stream getters load the streams), on every start.
const fs = process.getBuiltinModule('node:fs');
const path = process.getBuiltinModule('node:path');
const vm = process.getBuiltinModule('node:vm');
const module = process.getBuiltinModule('node:module');
const { crc32 } = process.getBuiltinModule('node:zlib');
const { fileURLToPath } = process.getBuiltinModule('node:url');

/**
 * A file's first bytes: "HCI2", the CRC-32 of the V8 data after the header, how many runs have used
 * this data (the only field written in place; not in the checksum).
 */
const MAGIC = 0x32494348;
const [HEADER, RUNS_AT] = [12, 8];
/**
 * SETTLE runs after a write check whether the cache would grow, then one run in RECHECK does; a
 * remade cache is written when it gained GROWTH bytes (one of the same functions varies by ~60).
 */
const [SETTLE, RECHECK, GROWTH] = [3, 16, 512];

interface Loaded {
  readonly script: Script;
  readonly cacheFile: string;
  /** How many run-time V8 flags were set when the script was compiled. */
  readonly flags: number;
  /** The cache this run used for it (its length, the runs before this one), or null: none, refused. */
  readonly cached: { readonly length: number; readonly runs: number } | null;
}

const loaded: Loaded[] = [];
/** Which command's cache this process uses: its first argument, the verb (`hci search …` → search). */
const verb = process.argv[2];
const tag = verb && /^[a-z][a-z0-9-]{0,30}$/.test(verb) ? verb : 'run';
let folder: string | null | undefined;

/** The cache folder, or null when there is none to use (Node's compile cache off, not ours). */
function cacheFolder(): string | null {
  if (folder !== undefined) return folder;
  folder = null;
  const nodeCache = module.getCompileCacheDir?.();
  if (!nodeCache || typeof crc32 !== 'function') return null; // zlib.crc32: Node >= 22.2
  const dir = path.join(nodeCache, 'hci-code-cache');
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs.statSync(dir);
    const uid = process.getuid?.();
    if ((uid !== undefined && st.uid !== uid) || (process.platform !== 'win32' && (st.mode & 0o022) !== 0)) return null;
    folder = dir;
  } catch {
    // no folder: no cache
  }
  return folder;
}

function readCache(file: string): { body: Buffer; runs: number } | undefined {
  try {
    const data = fs.readFileSync(file);
    if (data.length <= HEADER || data.readUInt32LE(0) !== MAGIC) return undefined;
    const body = data.subarray(HEADER);
    return crc32(body) === data.readUInt32LE(4) ? { body, runs: data.readUInt32LE(RUNS_AT) } : undefined;
  } catch {
    return undefined;
  }
}

/** Sets a cache file's run counter in place (a lost update, when two runs race, is harmless). */
function countRun(file: string, runs: number): void {
  const field = Buffer.alloc(4);
  field.writeUInt32LE(Math.min(runs, 0xffffffff), 0);
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, field, 0, 4, RUNS_AT);
  } catch {
    // not counted: the next run checks again
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function writeCache(file: string, body: Buffer): void {
  const header = Buffer.alloc(HEADER); // runs: 0
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(crc32(body), 4);
  const tmp = `${file}.${process.pid}-${Date.now().toString(36)}.tmp`;
  try {
    fs.writeFileSync(tmp, Buffer.concat([header, body]), { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // never written
    }
  }
}

/**
 * Runs the script at `url` (a function expression made by scripts/esm-to-script.mjs) with the
 * cache of this command, and returns what the function returns given `args` (the module's imports,
 * its `import()` and its `import.meta`).
 */
export function runCachedScript<T>(url: URL, args: readonly unknown[]): T {
  const filename = fileURLToPath(url);
  const source = fs.readFileSync(filename, 'utf8');
  const dir = cacheFolder();
  const cacheFile = dir ? path.join(dir, `${path.basename(filename)}.${tag}.cache`) : '';
  const cache = dir ? readCache(cacheFile) : undefined;
  const script = new vm.Script(source, { filename, cachedData: cache?.body });
  if (dir) {
    const cached = cache && !script.cachedDataRejected ? { length: cache.body.length, runs: cache.runs } : null;
    loaded.push({ script, cacheFile, flags: v8FlagCount(), cached });
  }
  const fn = script.runInThisContext() as (...a: readonly unknown[]) => T;
  return fn(...args);
}

const checkDue = (runs: number) => runs < SETTLE || runs % RECHECK === 0;

/**
 * Writes the cache of every script this run compiled without one — now, after the command ran, so it
 * holds every function the command compiled — and of one whose cache this run would enlarge (when a
 * check is due: see "When again" above); counts the run in the others. Call once, at the end of a run:
 * it takes back the flags set during the run (a script compiled before them needs the flag hash of then).
 */
export function saveCodeCaches(): void {
  const all = loaded.splice(0);
  for (const l of all) if (l.cached && !checkDue(l.cached.runs)) countRun(l.cacheFile, l.cached.runs + 1);
  const pending = all.filter((l) => !l.cached || checkDue(l.cached.runs)).sort((a, b) => b.flags - a.flags);
  for (const l of pending) {
    if (!rewindV8Flags(l.flags)) continue;
    const data = l.script.createCachedData();
    if (!l.cached || data.length > l.cached.length + GROWTH) writeCache(l.cacheFile, data);
    else countRun(l.cacheFile, l.cached.runs + 1);
  }
}
