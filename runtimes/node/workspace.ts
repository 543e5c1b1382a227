// Opening a workspace under Node: wires the workspace file source, the on-disk index storage, the
// official SQLite build, the grammars, the parse pool and Node's zlib (for the index's blobs) into a
// core HciWorkspace, and finds the nearest indexed folder. Owns only the wiring. Kept apart from the
// library entry (index.ts, which re-exports the whole core) so the CLI loads only this.
import * as path from 'node:path';
import * as fs from 'node:fs';
import { HciWorkspace, type OpenOptions } from '../../core/workspace.ts';
import { zlibCodec } from './zlib-codec.ts';
import { createNodeWorkspaceFs } from './workspace-fs.ts';
import { createNodeIndexStorage, INDEX_DIR, INDEX_FILE } from './node-storage.ts';
import { createNodeGrammarSource } from './grammars.ts';
import { createNodeParsePool } from './parse-pool.ts';
import { nodeVectorHost } from './vector-host.ts';
import { createMemoryRelief } from './memory-relief.ts';
import { checkWorkspaceRoot, type RootKind } from '../shared/workspace-root.ts';
import { indexUrl } from '../shared/index-url.ts';
import type { RemoteOpenOptions } from '../shared/remote-index.ts';

export { zlibCodec };

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
