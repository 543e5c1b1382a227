// hci's post-run V8 code cache for the CLI's largest scripts (the bundle's base file, the SQLite glue):
// runs a script file that scripts/esm-to-script.mjs made from an ES module, with the V8 code cache a
// previous run of the same command left, and when there was none (or V8 refused it) writes one at the
// end of the run (bin/hci.js calls saveCodeCaches). Only the `hci` command runs it (from the CLI
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

/** A file's first bytes: "HCIC", the CRC-32 of the V8 data after the header. */
const MAGIC = 0x43494348;
const HEADER = 8;

interface Loaded {
  readonly script: Script;
  readonly cacheFile: string;
  /** How many run-time V8 flags were set when the script was compiled. */
  readonly flags: number;
  /** Whether this run used a cache for it; if not, saveCodeCaches writes one. */
  readonly cached: boolean;
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

function readCache(file: string): Buffer | undefined {
  try {
    const data = fs.readFileSync(file);
    if (data.length <= HEADER || data.readUInt32LE(0) !== MAGIC) return undefined;
    const body = data.subarray(HEADER);
    return crc32(body) === data.readUInt32LE(4) ? body : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(file: string, body: Buffer): void {
  const header = Buffer.alloc(HEADER);
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
  const cachedData = dir ? readCache(cacheFile) : undefined;
  const script = new vm.Script(source, { filename, cachedData });
  if (dir) loaded.push({ script, cacheFile, flags: v8FlagCount(), cached: cachedData !== undefined && !script.cachedDataRejected });
  const fn = script.runInThisContext() as (...a: readonly unknown[]) => T;
  return fn(...args);
}

/**
 * Writes the cache of every script this run compiled without one — now, after the command ran, so it
 * holds every function the command compiled. Call once, at the end of a run: it takes back the flags
 * set during the run (a script compiled before them needs the flag hash of then).
 */
export function saveCodeCaches(): void {
  const pending = loaded.filter((l) => !l.cached).sort((a, b) => b.flags - a.flags);
  loaded.length = 0;
  for (const l of pending) {
    if (!rewindV8Flags(l.flags)) continue;
    writeCache(l.cacheFile, l.script.createCachedData());
  }
}
