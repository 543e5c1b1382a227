// Opening a workspace with the Deno adapters only (nothing from runtimes/node is loaded, so nothing
// touches a path outside the granted permissions). mod.ts re-exports this; the CLI imports it directly.
import { HciWorkspace, type OpenOptions } from '../../core/workspace.ts';
import { deno, errorName } from './deno-api.ts';
import { checkWorkspaceRoot, type RootKind } from '../shared/workspace-root.ts';
import { absolutePath, createDenoIndexStorage, INDEX_DIR, INDEX_FILE } from './deno-storage.ts';
import { createDenoWorkspaceFs } from './workspace-fs.ts';
import { createDenoGrammarSource } from './grammars.ts';
import { denoEngineLoader } from './engine.ts';
import { denoVectorHost } from './vector-host.ts';
import { indexUrl } from '../shared/index-url.ts';
import type { RemoteOpenOptions } from '../shared/remote-index.ts';

/** Opens a workspace folder with the Deno adapters (index at `<root>/.hci/index.sqlite`); HciError `root_not_found` when it is missing or not a folder. */
export async function openWorkspace(root: string, opts: OpenOptions = {}): Promise<HciWorkspace> {
  if (indexUrl(root)) return openRemoteIndex(root, opts);
  const abs = absolutePath(root);
  checkWorkspaceRoot(abs, rootKind(abs), abs.replace(/[\\/][^\\/]*$/, '') || '/');
  return HciWorkspace.open({ fs: createDenoWorkspaceFs(abs), storage: createDenoIndexStorage(abs), grammars: createDenoGrammarSource(), engineLoader: denoEngineLoader, vectors: denoVectorHost }, opts);
}

/**
 * A published index (`hci pack`, served by any static host that answers HTTP range requests), read
 * page by page over HTTP (needs --allow-net for its host): every read verb; indexing answers `not_available`.
 */
export async function openRemoteIndex(url: string, opts: RemoteOpenOptions = {}): Promise<HciWorkspace> {
  const [{ openPublishedIndex }, { createDenoRangeReader }] = await Promise.all([import('../shared/remote-index.ts'), import('./http-reader.ts')]);
  return openPublishedIndex(url, opts, { reader: () => createDenoRangeReader(), host: { engineLoader: denoEngineLoader, vectors: denoVectorHost } });
}

function rootKind(p: string): RootKind {
  try {
    const st = deno().statSync(p);
    return st.isDirectory ? 'dir' : st.isFile ? 'file' : 'other';
  } catch (e) {
    return errorName(e) === 'NotFound' || errorName(e) === 'NotADirectory' ? null : 'unknown';
  }
}

/** The nearest folder at or above `from` that holds an hci index, or null. */
export function findIndexedRoot(from: string): string | null {
  let dir = absolutePath(from);
  for (;;) {
    try {
      if (deno().statSync(`${dir}/${INDEX_DIR}/${INDEX_FILE}`).isFile) return dir;
    } catch {
      // missing, or not readable with the granted permissions: keep looking upwards
    }
    const up = dir.replace(/[\\/][^\\/]*$/, '') || '/';
    if (up === dir) return null;
    dir = up;
  }
}
