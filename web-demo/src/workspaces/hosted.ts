// A hosted index, named by a link's ?index=<url> (issue 36: a packed, read-only index read over HTTP
// range requests, which opens in any browser). The seam the explorer opens it through: the router
// reads the parameter, navigate.ts calls openHostedIndex. Until the browser runtime can open one, it
// says so in plain words and offers what this browser can do instead. Owns that one call.
import { notice } from '../app/state.ts';

export async function openHostedIndex(url: string): Promise<boolean> {
  notice.value = {
    kind: 'info',
    text: `This link names a hosted index (${url}); this build of the explorer cannot open hosted indexes yet.`,
    hint: 'Open the same repository as a folder or a .zip, or import an index file, from the workspaces screen.',
  };
  return false;
}
