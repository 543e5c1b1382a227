// Going to a place the URL names: a workspace (or, when this browser has no such workspace, the
// "not in this browser" screen a shared link lands on), a query with filters and mode, a file and
// lines, "why this result" for a hit; and the last place visited in each workspace, kept so the
// workspaces screen can offer to go back to it. Owns applying a route; parsing and writing the URL
// is router.ts's, the flows it calls are the controllers'.
import { batch, signal } from '@preact/signals';
import { parseRoute, type Route } from './router.ts';
import { current, filters, query, searchOptions, view, workspaces } from './state.ts';
import { openWorkspace } from '../workspaces/actions.ts';
import { refreshSearch } from '../search/controller.ts';
import { closeViewer, explainHit, openFile } from '../viewer/controller.ts';

/** A link to a workspace this browser does not hold (it lives in the storage of the browser that made it). */
export const missingLink = signal<Route | null>(null);

export async function applyRoute(r: Route = parseRoute()): Promise<void> {
  batch(() => {
    query.value = r.q;
    filters.value = { exts: r.exts, under: r.under, hide: r.hide };
    searchOptions.value = { mode: r.mode ?? 'keyword', caseSensitive: !!r.caseSensitive, wholeWord: !!r.wholeWord };
  });
  if (r.index) {
    // Loaded with the first link to a hosted index.
    if (!(await (await import('../workspaces/hosted.ts')).openHostedIndex(r.index))) return;
  } else if (r.workspace && (current.value?.name !== r.workspace || current.value.info.index)) {
    if (!workspaces.value.some((w) => w.workspace === r.workspace)) {
      missingLink.value = r;
      return;
    }
    if (!(await openWorkspace(r.workspace))) return;
  }
  missingLink.value = null;
  refreshSearch();
  if (r.path) {
    const hitId = r.why ?? (view.value?.path === r.path ? view.value.hitId : undefined);
    if (view.value?.path !== r.path || view.value?.lines?.join() !== r.lines?.join() || view.value?.hitId !== hitId) {
      await openFile(r.path, { lines: r.lines, history: 'replace', hitId });
    }
    if (r.why) await explainHit();
  } else if (view.value) closeViewer(false);
}

/** Goes to a URL of this app (a place from lastPlaces, say) as a click on a link would. */
export function go(url: string): Promise<void> {
  history.pushState(null, '', url);
  return applyRoute();
}
