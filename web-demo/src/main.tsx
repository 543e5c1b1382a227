// The explorer's start: draws the app, opens what the URL names (app/navigate.ts), follows
// back/forward, wires the keys, and registers the service worker in a build (offline after the first
// load). Owns the start-up order only.
import { render } from 'preact';
import './styles.css';
import { App } from './app/App.tsx';
import { installKeys } from './app/keys.ts';
import { applyRoute } from './app/navigate.ts';
import { refreshWorkspaces } from './workspaces/actions.ts';
import { hci } from './app/hci.ts';
import { mark } from './app/perf.ts';

render(<App />, document.getElementById('app')!);
installKeys();
addEventListener('popstate', () => void applyRoute());
void hci.then(async () => {
  mark('hci-ready');
  document.documentElement.dataset.ready = 'true';
  await refreshWorkspaces();
  await applyRoute();
});

// A build (mode production, whatever NODE_ENV says) has the service worker; the dev server has none.
if (import.meta.env.MODE === 'production' && 'serviceWorker' in navigator) {
  void navigator.serviceWorker.register('./sw.js').catch(() => {});
}
