// Opening a workspace under Node: wires the workspace file source, the on-disk index storage, the
// official SQLite build, the grammars, the parse pool and Node's zlib (for the index's blobs) into a
// core HciWorkspace, and finds the nearest indexed folder. Owns only the wiring. Kept apart from the
// library entry (index.ts, which re-exports the whole core) so the CLI loads only this.
import * as path from 'node:path';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import { HciWorkspace, type OpenOptions } from '../../core/workspace.ts';
import type { DeflateCodec } from '../../core/index/file-data.ts';
import { createNodeWorkspaceFs } from './workspace-fs.ts';
import { createNodeIndexStorage, INDEX_DIR, INDEX_FILE } from './node-storage.ts';
import { createNodeGrammarSource } from './grammars.ts';
import { createNodeParsePool } from './parse-pool.ts';
import { nodeVectorHost } from './vector-host.ts';
import { createMemoryRelief } from './memory-relief.ts';
import { checkWorkspaceRoot, type RootKind } from '../shared/workspace-root.ts';
import { indexUrl } from '../shared/index-url.ts';
import type { RemoteOpenOptions } from '../shared/remote-index.ts';

const require = createRequire(import.meta.url);
let zlibModule: typeof import('node:zlib') | null = null;
/** node:zlib, loaded on the first blob (not at start: a command that reads no blob never needs it). */
const zlib = () => (zlibModule ??= require('node:zlib') as typeof import('node:zlib'));

/**
 * zlib's output chunk for `bytes` of output: that size (plus one byte, else zlib, having filled the chunk,
 * allocates another to look for more), at least zlib's minimum, at most ZLIB_MAX_CHUNK.
 */
const ZLIB_MIN_CHUNK = 64;
const ZLIB_MAX_CHUNK = 64 * 1024;
const chunkFor = (bytes: number) => Math.max(ZLIB_MIN_CHUNK, Math.min(ZLIB_MAX_CHUNK, bytes + 1));

/**
 * Node's zlib for the index's per-file blobs (same raw-deflate format as core's fflate default).
 *
 * Output chunks are sized to the output, not zlib's default 16 KB. A cold pass makes four calls per file
 * (a deflate and an inflate of its text and of its meta, writer.ts), a 2 KB file needs a few hundred
 * bytes to a few KB of output each, and every 16 KB chunk was garbage at once: ~60 KB of ArrayBuffers
 * per file, 800 MB over a 50k-chunk pass, piling up between collections (30-40 MB at a time) in the
 * main thread's malloc heap, which glibc then keeps (its trim threshold rises with the first large
 * block freed: measured 49 MB in a pass, so freed heap is rarely given back). Sized chunks took the
 * main heap's resident part at the pass's peak from 51-82 MB to 27-28 MB. A deflate's chunk is its
 * bound (input + 1/8 + 1/64, raw deflate of incompressible text stays under it); the cap keeps every
 * chunk below glibc's 128 KB mmap threshold (a freed mmapped block is what raises the thresholds).
 * The results may be views into a larger buffer (Node's Buffer pool): file-data.ts copies both
 * streams into the file's blob and decodes inflated bytes at once, so none is kept.
 */
export const zlibCodec: DeflateCodec = {
  deflateRaw: (data, dictionary) => zlib().deflateRawSync(data, { level: 6, dictionary, chunkSize: chunkFor(data.length + (data.length >> 3) + (data.length >> 6) + 16) }),
  inflateRaw: (data, dictionary, size) => zlib().inflateRawSync(data, size === undefined ? { dictionary } : { dictionary, chunkSize: chunkFor(size) }),
};

/**
 * Opens a workspace folder (HciError `root_not_found` when it is missing or not a folder: nothing is
 * created), or, given an http(s) URL, the published index there (openRemoteIndex).
 */
export async function openWorkspace(root: string, opts: OpenOptions = {}): Promise<HciWorkspace> {
  if (indexUrl(root)) return openRemoteIndex(root, opts);
  const abs = path.resolve(root);
  checkWorkspaceRoot(abs, rootKind(abs), path.dirname(abs));
  return HciWorkspace.open({
    fs: createNodeWorkspaceFs(abs), storage: createNodeIndexStorage(abs), grammars: createNodeGrammarSource(), parsePool: createNodeParsePool, deflate: zlibCodec, vectors: nodeVectorHost,
    relieveMemory: memoryRelief(), git: gitReader(abs),
  }, opts);
}

/**
 * A published index (`hci pack`, served by any static host that answers HTTP range requests), read
 * page by page over HTTP: every read verb of a workspace; indexing answers `not_available`.
 */
export async function openRemoteIndex(url: string, opts: RemoteOpenOptions = {}): Promise<HciWorkspace> {
  // Loaded when a URL is opened: a command over a folder never loads the remote reader.
  const [{ openPublishedIndex }, { createNodeRangeReader }] = await Promise.all([import('../shared/remote-index.ts'), import('./http-reader.ts')]);
  return openPublishedIndex(url, opts, { reader: () => createNodeRangeReader(), host: { deflate: zlibCodec, vectors: nodeVectorHost } });
}

/** Reads the checkout's git files: workspace-relative, or absolute (a linked worktree's git dir). */
function gitReader(root: string): (p: string) => Promise<string | null> {
  return async (p) => {
    try {
      return await fs.promises.readFile(path.resolve(root, p), 'utf8');
    } catch {
      return null;
    }
  };
}

/** One relief per workspace: the step counts across its passes. */
function memoryRelief(): (force: boolean) => void {
  const relief = createMemoryRelief();
  return (force) => void relief.relieve(force);
}

function rootKind(p: string): RootKind {
  try {
    const st = fs.statSync(p);
    return st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? null : 'unknown';
  }
}

/** The nearest folder at or above `from` that holds an hci index, or null. */
export function findIndexedRoot(from: string): string | null {
  let dir = path.resolve(from);
  for (;;) {
    if (fs.existsSync(path.join(dir, INDEX_DIR, INDEX_FILE))) return dir;
    const up = path.dirname(dir);
    if (up === dir) return null;
    dir = up;
  }
}
