// The parts of @sqlite.org/sqlite-wasm's JS glue (dist/index.mjs) the hci Worker never runs, cut out of a
// browser build by hciVitePlugin (vite-plugin.ts). The glue installs its optional parts one
// `sqlite3ApiBootstrap.initializers.push(function(sqlite3) { … });` block each: hci opens its indexes
// with the oo1 API over the "opfs-sahpool" VFS (opfs-storage.ts) or in memory, and never uses the
// Worker1 message API, the JS virtual-table helpers, the key/value VFS over localStorage ("kvvfs") or
// the other two OPFS VFSes ("opfs", with its async proxy worker, and "opfs-wl"). Those blocks are about
// a fifth of the glue: cut, the glue loaded before a workspace is searchable is 51.2 KB (gzip -9), not 64.6.
// Owns which blocks go and how they are found; a glue whose blocks are not where this expects (a new
// sqlite-wasm version) fails the build with the reason, rather than shipping a half-cut file.

/** A block's first line, at the glue's top level (two tabs in), and the line that closes it. */
const OPEN = '\n\t\tglobalThis.sqlite3ApiBootstrap.initializers.push(function(sqlite3) {\n';
const CLOSE = '\n\t\t});\n';
/** How far into a block its marker is looked for (its first statements). */
const HEAD_CHARS = 400;

/** The parts cut, each named by a statement only its own block begins with. */
export const UNUSED_SQLITE_PARTS: ReadonlyArray<{ part: string; marker: string }> = [
  { part: 'Worker1 API', marker: 'sqlite3.initWorker1API = function' },
  { part: 'virtual-table helpers', marker: 'if (!sqlite3.wasm.exports.sqlite3_declare_vtab) return;' },
  { part: 'kvvfs', marker: 'if (sqlite3.config.disable?.vfs?.kvvfs) return;' },
  { part: '"opfs" VFS', marker: 'if (sqlite3.config.disable?.vfs?.opfs && sqlite3.config.disable.vfs["opfs-vfs"]) return;' },
  { part: '"opfs" VFS installer', marker: 'if (!sqlite3.opfs || sqlite3.config.disable?.vfs?.opfs) return;' },
  { part: '"opfs-wl" VFS', marker: 'if (!sqlite3.opfs || sqlite3.config.disable?.vfs?.["opfs-wl"]) return;' },
];

/** What the Worker does use: a glue without these blocks is not one this file knows. */
const KEPT_MARKER = 'if (sqlite3.config.disable?.vfs?.["opfs-sahpool"]) return;';

/**
 * The glue without the unused parts' blocks. Throws when a part's block is not found exactly once, or
 * the opfs-sahpool block is missing: the glue's layout changed, and what to cut must be looked at again.
 */
export function withoutUnusedSqliteParts(glue: string): string {
  const cuts: Array<[number, number]> = [];
  const found = new Map<string, number>();
  let keptBlocks = 0;
  for (let at = glue.indexOf(OPEN); at >= 0; at = glue.indexOf(OPEN, at + 1)) {
    const end = glue.indexOf(CLOSE, at + OPEN.length);
    if (end < 0) throw new Error('sqlite-wasm glue: an initializer block has no end where hci expects it (a new sqlite-wasm version?)');
    const head = glue.slice(at + OPEN.length, at + OPEN.length + HEAD_CHARS);
    if (head.includes(KEPT_MARKER)) keptBlocks++;
    const part = UNUSED_SQLITE_PARTS.find((p) => head.includes(p.marker));
    if (!part) continue;
    found.set(part.part, (found.get(part.part) ?? 0) + 1);
    // The block goes, its opening newline stays: the next line starts as before.
    cuts.push([at + 1, end + CLOSE.length]);
  }
  const missing = UNUSED_SQLITE_PARTS.filter((p) => found.get(p.part) !== 1).map((p) => `${p.part} (${found.get(p.part) ?? 0} blocks)`);
  if (missing.length || keptBlocks !== 1) {
    throw new Error(`sqlite-wasm glue: not the layout hci cuts (a new sqlite-wasm version?): ${[...missing, ...(keptBlocks !== 1 ? [`opfs-sahpool (${keptBlocks} blocks)`] : [])].join(', ')}`);
  }
  let out = '';
  let from = 0;
  for (const [a, b] of cuts) {
    out += glue.slice(from, a);
    from = b;
  }
  return out + glue.slice(from);
}
