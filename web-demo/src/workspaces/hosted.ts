// A hosted index, named by a link's ?index=<url>: a packed, read-only index (`hci pack`) on any static
// host that answers HTTP range requests, opened in this browser with no upload — the Worker reads its
// pages as searches need them (runtimes/browser/xhr-reader.ts) and stores nothing. The router reads
// the parameter and navigate.ts calls openHostedIndex; the workspace is named after the manifest
// `hci pack` writes beside the file (its repository), else the file's name. A host without ranges,
// a wrong URL or a file that is no index is a notice in plain words (remote_no_ranges,
// remote_unreachable, index_unrecognized). Owns that one call.
import { current, notice } from '../app/state.ts';
import { openWorkspace } from './actions.ts';

/** The workspace's name: the manifest's repository (`<url>.json`, when the host has it), else the file's name. */
async function hostedName(url: URL): Promise<string> {
  const file = decodeURIComponent(url.pathname.split('/').pop() ?? '').replace(/\.(sqlite3?|db)$/i, '');
  try {
    const res = await fetch(`${url.href}.json`, { signal: AbortSignal.timeout(3000) });
    if (res.ok) {
      const repository = ((await res.json()) as { repository?: unknown }).repository;
      if (typeof repository === 'string' && repository.trim()) return repository.trim();
    }
  } catch {
    // no manifest: the file's name
  }
  return file && file !== 'index' ? file : url.host;
}

/** Opens the index at `url` (relative to this page, or absolute) as the current workspace; false when it cannot. */
export async function openHostedIndex(url: string): Promise<boolean> {
  let abs: URL;
  try {
    abs = new URL(url, location.href);
    if (abs.protocol !== 'http:' && abs.protocol !== 'https:') throw new Error(abs.protocol);
  } catch {
    notice.value = { kind: 'error', text: `This link names a hosted index at "${url}", which is not an http(s) URL.`, hint: 'A hosted index link looks like ?index=https://example.org/hci/index.sqlite (the file `hci pack --out` wrote).' };
    return false;
  }
  if (current.value?.info.index === abs.href) return true;
  return (await openWorkspace(await hostedName(abs), undefined, { index: abs.href })) !== null;
}
