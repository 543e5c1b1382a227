// The explorer's layout: the top bar (workspace, search, help), notices and the take-over question,
// the indexing panel, and then either the workspaces screen or the explorer (status line, filters,
// hits, and the viewer beside them), with the quick file finder on top. Owns the arrangement only.
import { current, hasIndexRun, notice, overlay, releasedHere, status, takeOverAsk, view } from './state.ts';
import { Home } from '../workspaces/Home.tsx';
import { openWorkspace, startIndex, closeWorkspace } from '../workspaces/actions.ts';
import { SearchBar } from '../search/SearchBar.tsx';
import { StatusLine } from '../search/StatusLine.tsx';
import { Filters } from '../search/Filters.tsx';
import { Results } from '../search/Results.tsx';
import { count } from './format.ts';
import { narrow, paneTab, panes } from './layout.ts';
import { lazyComponent } from './lazy.tsx';
import { QuickOpenShell } from '../finder/shell.tsx';
import { Splitter } from './Splitter.tsx';
import { ThemeToggle } from './ThemeToggle.tsx';
import { missingLink } from './navigate.ts';

const FileTree = lazyComponent(() => import('../tree/FileTree.tsx').then((m) => m.FileTree));
const MissingLink = lazyComponent(() => import('../workspaces/MissingLink.tsx').then((m) => m.MissingLink));
// The file view (with its outline, explain and conversation panels, and highlight.js's loader) and Ctrl-P
// are not needed to search: they load after, the viewer ahead of the first click (preloadViewer).
// The indexing panel: drawn when a run starts, not for a stored workspace.
const IndexPanel = lazyComponent(() => import('../workspaces/IndexPanel.tsx').then((m) => m.IndexPanel));
const Viewer = lazyComponent(() => import('../viewer/Viewer.tsx').then((m) => m.Viewer));
// Until the finder is in, a stand-in box takes the keys typed right after Ctrl-P (finder/shell.tsx).
const QuickOpen = lazyComponent(() => import('../finder/QuickOpen.tsx').then((m) => m.QuickOpen), QuickOpenShell);

/** Once a workspace is open (searchable), fetch the viewer's and the finder's chunks when the page is idle (once). */
let viewerAsked = false;
function preloadViewer(): void {
  if (viewerAsked) return;
  viewerAsked = true;
  const idle = (globalThis as { requestIdleCallback?: (f: () => void, o?: { timeout: number }) => void }).requestIdleCallback;
  const go = () => void Promise.all([Viewer.preload(), QuickOpen.preload()]).catch(() => {});
  if (idle) idle(go, { timeout: 2000 });
  else setTimeout(go, 200);
}

function TopBar() {
  const ws = current.value;
  return (
    <header class="topbar">
      <button class="brand" title="Workspaces" onClick={() => (overlay.value = overlay.value === 'workspaces' ? 'none' : 'workspaces')}>
        hci <span>explorer</span>
      </button>
      {ws && (
        <span class="ws-current" title={status.value?.index?.location}>
          <b>{ws.name}</b>
          {status.value?.index && <span class="muted"> {count(status.value.index.files, 'file')}</span>}
          {ws.info.index ? (
            <span class="muted" title={ws.info.index}> · hosted, read-only</span>
          ) : (
            <button class="link" onClick={() => void startIndex()} disabled={!ws.info.has_source} title={ws.info.has_source ? 'index changes since the last run' : 'open the folder or .zip again to re-index (Workspaces)'}>
              re-index
            </button>
          )}
          <button class="link" onClick={() => void closeWorkspace()}>close</button>
        </span>
      )}
      <SearchBar />
      <ThemeToggle />
    </header>
  );
}

function Notices() {
  const n = notice.value;
  const gone = releasedHere.value;
  return (
    <>
      {gone && (
        <div class="notice warn" role="alert">
          <b>{gone}</b> was taken over by another tab, so it is closed here (an index in this browser serves one tab at a time).{' '}
          <button onClick={() => void openWorkspace(gone, undefined, { takeOver: true })}>Take it back</button>
        </div>
      )}
      {n && (
        <div class={`notice ${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          {n.text} {n.hint && <span class="hint">{n.hint}</span>}
          <button class="icon" aria-label="Dismiss" onClick={() => (notice.value = null)}>×</button>
        </div>
      )}
    </>
  );
}

function TakeOverDialog() {
  const ask = takeOverAsk.value;
  if (!ask) return null;
  return (
    <div class="modal-backdrop">
      <div class="modal takeover" role="alertdialog" aria-labelledby="takeover-title">
        <h2 id="takeover-title">{ask.workspace} is open in another tab</h2>
        <p>An index in this browser can be used by one tab at a time. Take it over here? The other tab closes it (an indexing run there stops after its current batch) and can take it back.</p>
        <div class="modal-actions">
          <button class="primary" onClick={() => ask.choose(true)} autoFocus>
            Take over here
          </button>
          <button onClick={() => ask.choose(false)}>Cancel</button>
        </div>
      </div>
    </div>
  );
}

/** The left column's two views: the hits of the search, or the file tree. */
function PaneTabs() {
  const tab = paneTab.value;
  const tabs = [
    { id: 'hits', label: 'Hits' },
    { id: 'files', label: 'Files' },
  ] as const;
  return (
    <div class="pane-tabs" role="tablist" aria-label="Left column">
      {tabs.map((t) => (
        <button
          role="tab"
          id={`tab-${t.id}`}
          aria-selected={tab === t.id}
          aria-controls={`pane-${t.id}`}
          tabIndex={tab === t.id ? 0 : -1}
          class={`pane-tab${tab === t.id ? ' on' : ''}`}
          onClick={() => (paneTab.value = t.id)}
          onKeyDown={(e) => {
            if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
              paneTab.value = tab === 'hits' ? 'files' : 'hits';
              requestAnimationFrame(() => document.getElementById(`tab-${paneTab.value}`)?.focus());
            }
          }}
        >
          {t.label}
        </button>
      ))}
    </div>
  );
}

export function App() {
  const ws = current.value;
  const home = !ws || overlay.value === 'workspaces';
  if (ws) preloadViewer();
  return (
    <div class="app">
      <TopBar />
      <Notices />
      {hasIndexRun.value && <IndexPanel />}
      {missingLink.value && !ws ? (
        <MissingLink />
      ) : home ? (
        <Home />
      ) : (
        <main
          class={`explorer${view.value ? ' with-viewer' : ''}${view.value && panes.value.resultsHidden && !narrow.value ? ' results-hidden' : ''}`}
          style={{ '--results-w': `${panes.value.results}px` }}
        >
          <h1 class="sr-only">{ws.name}</h1>
          <section class="results-pane" aria-label={paneTab.value === 'files' ? 'Files' : 'Search results'}>
            <PaneTabs />
            {paneTab.value === 'files' ? (
              <div class="tab-panel" role="tabpanel" id="pane-files" aria-labelledby="tab-files">
                <FileTree />
              </div>
            ) : (
              <div class="tab-panel" role="tabpanel" id="pane-hits" aria-labelledby="tab-hits">
                <StatusLine />
                <Filters />
                <Results />
              </div>
            )}
          </section>
          {view.value && !panes.value.resultsHidden && !narrow.value && <Splitter pane="results" dir={1} label="Resize the results" collapse="resultsHidden" />}
          {view.value && <Viewer />}
        </main>
      )}
      {overlay.value === 'quick-open' && ws && <QuickOpen />}
      <TakeOverDialog />
    </div>
  );
}
