// Opening a workspace with the Deno adapters only (nothing from runtimes/node is loaded, so nothing
// touches a path outside the granted permissions). mod.ts re-exports this; the CLI imports it directly.
import { HciWorkspace, type OpenOptions } from '../../core/workspace.ts';
import { deno } from './deno-api.ts';
import { absolutePath, createDenoIndexStorage, INDEX_DIR, INDEX_FILE } from './deno-storage.ts';
import { createDenoWorkspaceFs } from './workspace-fs.ts';
import { createDenoGrammarSource } from './grammars.ts';
import { denoEngineLoader } from './engine.ts';
import { denoVectorHost } from './vector-host.ts';

/** Opens a workspace folder with the Deno adapters (index at `<root>/.hci/index.sqlite`). */
export async function openWorkspace(root: string, opts: OpenOptions = {}): Promise<HciWorkspace> {
  const abs = absolutePath(root);
  return HciWorkspace.open({ fs: createDenoWorkspaceFs(abs), storage: createDenoIndexStorage(abs), grammars: createDenoGrammarSource(), engineLoader: denoEngineLoader, vectors: denoVectorHost }, opts);
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
