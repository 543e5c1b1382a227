// Test helper: a workspace indexed and packed (hci pack, under Node) as a published index named
// `index.sqlite` (its manifest beside it), for the remote tests to serve (range-server.ts).
import type { PackManifest } from '../../core/index/pack.ts';
import { openWorkspace } from '../../runtimes/node/workspace.ts';
import { nodePackTarget } from '../../runtimes/node/pack-target.ts';

/** Indexes `root` and packs its index into `file`; returns the manifest. */
export async function indexAndPack(root: string, file: string, opts: { pageSize?: number } = {}): Promise<PackManifest> {
  const ws = await openWorkspace(root);
  try {
    await ws.index();
    return await ws.pack(nodePackTarget(file), { fileName: 'index.sqlite', ...opts });
  } finally {
    ws.close();
  }
}
