// Opening a published index (`hci pack`) by its URL, for every runtime: checks the URL, probes it (a
// URL without an index, or a server without ranges, is an answer before SQLite starts) and opens a
// read-only workspace over the hci-http storage (http-vfs.ts) with no files of its own. The range
// requests themselves (a RangeReader) and the rest of the host (codec, engine, vectors) are the
// runtime's. Owns only this sequence.
import { HciWorkspace, type OpenOptions, type WorkspaceHost } from '../../core/workspace.ts';
import { HciError } from '../../core/platform.ts';
import { createMemoryWorkspaceFs } from '../../core/memory-fs.ts';
import { createHttpIndexStorage } from './http-vfs.ts';
import { indexUrl } from './index-url.ts';
import type { RangeReader, RemoteFileOptions } from './remote-file.ts';

export interface RemoteOpenOptions extends OpenOptions {
  /** The page cache, read-ahead and revalidation of the remote file. */
  remote?: RemoteFileOptions;
}

export async function openPublishedIndex(
  url: string,
  opts: RemoteOpenOptions,
  runtime: { reader: () => RangeReader; host: Omit<WorkspaceHost, 'fs' | 'storage'> },
): Promise<HciWorkspace> {
  const u = indexUrl(url);
  if (!u) throw new HciError('invalid_request', `"${url}" is not an http(s) URL`, 'pass the URL of a packed index, e.g. https://example.org/hci/index.sqlite');
  const storage = createHttpIndexStorage(u.href, { reader: runtime.reader, ...opts.remote });
  try {
    await storage.exists();
  } catch (e) {
    storage.close();
    throw e;
  }
  return HciWorkspace.open({ ...runtime.host, fs: createMemoryWorkspaceFs(u.href, {}), storage }, opts);
}
