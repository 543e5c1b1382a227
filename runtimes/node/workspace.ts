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

const require = createRequire(import.meta.url);
let zlibModule: typeof import('node:zlib') | null = null;
/** node:zlib, loaded on the first blob (not at start: a command that reads no blob never needs it). */
const zlib = () => (zlibModule ??= require('node:zlib') as typeof import('node:zlib'));

/** Node's zlib for the index's per-file blobs (same raw-deflate format as core's fflate default). */
export const zlibCodec: DeflateCodec = {
  // Copied out: zlib's output is a view of a 16 KB chunk, and a blob waiting in a write batch would
  // hold that whole chunk (megabytes over a batch; more until a major GC frees promoted ones).
  deflateRaw: (data, dictionary) => new Uint8Array(zlib().deflateRawSync(data, { level: 6, dictionary })),
  inflateRaw: (data, dictionary) => zlib().inflateRawSync(data, { dictionary }),
};

/** Opens a workspace folder (HciError `root_not_found` when it is missing or not a folder: nothing is created). */
export async function openWorkspace(root: string, opts: OpenOptions = {}): Promise<HciWorkspace> {
  const abs = path.resolve(root);
  checkWorkspaceRoot(abs, rootKind(abs), path.dirname(abs));
  return HciWorkspace.open({ fs: createNodeWorkspaceFs(abs), storage: createNodeIndexStorage(abs), grammars: createNodeGrammarSource(), parsePool: createNodeParsePool, deflate: zlibCodec, vectors: nodeVectorHost, relieveMemory: memoryRelief() }, opts);
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
