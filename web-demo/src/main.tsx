// The explorer's start: draws the app, opens what the URL names (a workspace, a file and lines, a
// query with filters), follows back/forward, wires the keys, and registers the service worker in a
// build (offline after the first load), and adds the message markers' gutter column. Owns the
// start-up order only.
import { render } from 'preact';
import { batch } from '@preact/signals';
import './styles.css';
import { App } from './app/App.tsx';
import { installKeys } from './app/keys.ts';
import { parseRoute, type Route } from './app/router.ts';
import { current, filters, query, searchOptions, view } from './app/state.ts';
import { openWorkspace, refreshWorkspaces } from './workspaces/actions.ts';
import { refreshSearch } from './search/controller.ts';
import { closeViewer, openFile } from './viewer/controller.ts';
import { hci } from './app/hci.ts';
import { mark } from './app/perf.ts';
import { installMessageGutter } from './conversation/markers.tsx';

async function applyRoute(r: Route): Promise<void> {
  batch(() => {
    query.value = r.q;
    filters.value = { exts: r.exts, under: r.under, hide: r.hide };
    searchOptions.value = { mode: r.mode ?? 'keyword', caseSensitive: !!r.caseSensitive, wholeWord: !!r.wholeWord };
  });
  if (r.workspace && current.value?.name !== r.workspace) {
    if (!(await openWorkspace(r.workspace))) return;
  }
  refreshSearch();
  if (r.path) {
    if (view.value?.path !== r.path || view.value?.lines?.join() !== r.lines?.join()) await openFile(r.path, { lines: r.lines, history: 'replace', hitId: view.value?.path === r.path ? view.value.hitId : undefined });
  } else if (view.value) closeViewer(false);
}

render(<App />, document.getElementById('app')!);
installKeys();
installMessageGutter();
addEventListener('popstate', () => void applyRoute(parseRoute()));
void hci.then(async () => {
  mark('hci-ready');
  document.documentElement.dataset.ready = 'true';
  await refreshWorkspaces();
  await applyRoute(parseRoute());
});

// A build (mode production, whatever NODE_ENV says) has the service worker; the dev server has none.
if (import.meta.env.MODE === 'production' && 'serviceWorker' in navigator) {
  void navigator.serviceWorker.register('./sw.js').catch(() => {});
}
