// What the user does with workspaces: open one (a folder, an upload, a zip, a stored index, an imported
// .sqlite), index it with progress and cancel, re-index, export, delete, and take one over from another
// tab. Owns these flows and the state they write (app/state.ts); the Worker does the work.
import { batch, effect } from '@preact/signals';
import { downloadBytes, type BrowserSource, type BrowserWorkspace } from '../../../runtimes/browser/client.ts';
import { hci, onWorkerEvent } from '../app/hci.ts';
import {
  current, grammarDownloads, indexRun, notice, releasedHere, results, facets, status, storageInfo, takeOverAsk, view, workspaces, type Notice,
} from '../app/state.ts';
import { forgetHandle, rememberedDirectory, type PickedSource } from './sources.ts';
import { refreshSearch } from '../search/controller.ts';
import { mark, noteRun } from '../app/perf.ts';
import type { IndexProgress } from '../../../core/index/indexer.ts';

export function toNotice(e: unknown): Notice {
  const err = e as { code?: string; message?: string; hint?: string };
  return { kind: 'error', text: err.message ?? String(e), hint: err.hint };
}

async function guarded<T>(fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    notice.value = toNotice(e);
    return undefined;
  }
}

export async function refreshWorkspaces(): Promise<void> {
  const client = await hci;
  const [list, estimate, persisted] = await Promise.all([
    client.list(),
    navigator.storage?.estimate?.().catch(() => undefined),
    navigator.storage?.persisted?.().catch(() => undefined),
  ]);
  batch(() => {
    workspaces.value = list;
    storageInfo.value = { usage: estimate?.usage, quota: estimate?.quota, persisted };
  });
}

export async function refreshStatus(): Promise<void> {
  const ws = current.value;
  if (ws) status.value = await ws.call('status', {});
}

/** Asks the browser to keep this origin's storage (indexes) under storage pressure; once is enough. */
async function askPersistence(): Promise<void> {
  if (!navigator.storage?.persist || (await navigator.storage.persisted())) return;
  await navigator.storage.persist().catch(() => false);
}

/** Resolves with the user's answer to "take it over here?". */
function askTakeOver(workspace: string): Promise<boolean> {
  return new Promise((resolve) => {
    takeOverAsk.value = {
      workspace,
      choose: (take) => {
        takeOverAsk.value = null;
        resolve(take);
      },
    };
  });
}

/**
 * Opens a workspace here (closing the one open before). A workspace another tab holds gets the
 * take-over question instead of an error. With a source, indexing starts at once.
 */
export async function openWorkspace(name: string, source?: BrowserSource, opts: { takeOver?: boolean; index?: string } = {}): Promise<BrowserWorkspace | null> {
  const client = await hci;
  const before = current.value;
  if (before && (before.name !== name || before.info.index !== opts.index)) await closeWorkspace();
  let ws: BrowserWorkspace;
  try {
    ws = await client.open(name, source, { takeOver: opts.takeOver, ...(opts.index ? { index: opts.index } : {}) });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'workspace_open_elsewhere' && opts.takeOver) {
      // Another tab asked for it again while this one was taking it: it is theirs now.
      releasedHere.value = name;
      void refreshWorkspaces();
      return null;
    }
    if (code !== 'workspace_open_elsewhere') {
      notice.value = toNotice(e);
      return null;
    }
    if (!(await askTakeOver(name))) return null;
    return openWorkspace(name, source, { takeOver: true });
  }
  batch(() => {
    if (before?.name !== name) {
      results.value = null;
      facets.value = null;
      if (view.value && before) view.value = null;
    }
    current.value = ws;
    releasedHere.value = null;
    notice.value = null;
  });
  await refreshStatus();
  mark('hci-workspace-open');
  void refreshWorkspaces();
  if (source) {
    void askPersistence();
    void startIndex();
  }
  return ws;
}

export async function openPicked(p: PickedSource | null): Promise<void> {
  if (p) await openWorkspace(p.name, p.source);
}

export async function closeWorkspace(): Promise<void> {
  const ws = current.value;
  if (!ws) return;
  current.value = null;
  status.value = null;
  await ws.close().catch(() => {});
  void refreshWorkspaces();
}

/**
 * The panel redraws at most this often while a run goes (the Worker reports every 50 ms; a change of
 * phase shows at once). Each redraw is a frame — style, layout, paint, raster, compositing — taken
 * from the two cores the Worker and its parse worker index on: at 20 a second (and a width transition
 * animating between them) the page, compositor and GPU process took ~0.5 s of CPU from a 4 s run of
 * 686 files; at 4 a second, ~0.2 s.
 */
const PANEL_REDRAW_MS = 250;

export async function startIndex(opts: { full?: boolean } = {}): Promise<void> {
  const ws = current.value;
  if (!ws || (indexRun.value && !['done', 'cancelled', 'failed'].includes(indexRun.value.phase))) return;
  const started = performance.now();
  grammarDownloads.value = [];
  indexRun.value = { workspace: ws.name, full: !!opts.full, phase: 'starting', filesDone: 0, filesTotal: 0, chunks: 0, bytes: 0, startedAt: started };
  const phases: Record<string, number> = {};
  // The newest report not drawn yet (with when it came), the phase of the last report, when the panel was last drawn.
  let pending: (IndexProgress & { at: number }) | null = null;
  let lastPhase = '';
  let drawnAt = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const draw = () => {
    clearTimeout(timer);
    timer = undefined;
    const p = pending;
    pending = null;
    const run = indexRun.value;
    if (!p || !run || run.workspace !== ws.name || ['done', 'cancelled', 'failed'].includes(run.phase)) return;
    drawnAt = performance.now();
    indexRun.value = {
      // The pass's last report: the summary (and with it `done`, which the page and the bench
      // wait for) comes when ws.index() answers, after the Worker has recorded the run.
      ...run, phase: p.phase === 'done' ? 'finishing' : p.phase, filesDone: p.filesDone, filesTotal: p.filesTotal, chunks: p.chunks, bytes: p.bytes,
      indexStartedAt: run.indexStartedAt ?? (p.phase === 'index' ? p.at : undefined),
    };
  };
  try {
    const summary = await ws.index({
      full: opts.full,
      onProgress: (report) => {
        const at = performance.now();
        phases[report.phase] ??= Math.round(at - started);
        const phaseChanged = report.phase !== lastPhase;
        lastPhase = report.phase;
        pending = { ...report, at };
        if (phaseChanged || at - drawnAt >= PANEL_REDRAW_MS) draw();
        else timer ??= setTimeout(draw, PANEL_REDRAW_MS - (at - drawnAt));
      },
    }).finally(() => clearTimeout(timer));
    noteRun(ws.name, performance.now() - started, summary, { ...phases, end: Math.round(performance.now() - started) });
    indexRun.value = { ...indexRun.value!, phase: 'done', summary, filesDone: summary.files_indexed + summary.files_unchanged, chunks: summary.chunks_written, endedAt: performance.now() };
  } catch (e) {
    const code = (e as { code?: string }).code;
    indexRun.value = { ...indexRun.value!, phase: code === 'cancelled' ? 'cancelled' : 'failed', error: toNotice(e), endedAt: performance.now() };
  }
  if (current.value === ws) {
    await refreshStatus();
    // Progress is drawn at most every PANEL_REDRAW_MS: after a cancel, what the index holds is the last word.
    const held = status.value?.index;
    if (held && indexRun.value?.phase === 'cancelled') indexRun.value = { ...indexRun.value, filesDone: held.files, chunks: held.chunks };
    refreshSearch();
  }
  void refreshWorkspaces();
}

export async function cancelIndex(): Promise<void> {
  const ws = current.value;
  const run = indexRun.value;
  if (!ws || !run) return;
  indexRun.value = { ...run, cancelling: true };
  await ws.cancel();
}

/**
 * Re-indexes a workspace: with the files of this session, or the folder picked earlier (permission
 * asked again; incremental), or else asks for the source again via `pickAgain`.
 */
export async function reindex(name: string, pickAgain: () => void): Promise<void> {
  let ws = current.value?.name === name ? current.value : null;
  if (ws?.info.has_source) return startIndex();
  const dir = await guarded(() => rememberedDirectory(name));
  if (!dir) {
    if (!ws) ws = await openWorkspace(name);
    pickAgain();
    return;
  }
  await openWorkspace(name, dir);
}

export async function removeWorkspace(name: string): Promise<void> {
  await guarded(async () => {
    const client = await hci;
    if (current.value?.name === name) {
      const ws = current.value;
      current.value = null;
      status.value = null;
      view.value = null;
      await ws.remove();
    } else {
      const ws = await client.open(name).catch(async (e) => {
        if ((e as { code?: string }).code === 'workspace_open_elsewhere' && (await askTakeOver(name))) return client.open(name, undefined, { takeOver: true });
        throw e;
      });
      await ws.remove();
    }
    await forgetHandle(name).catch(() => {});
  });
  await refreshWorkspaces();
}

export async function exportWorkspace(name: string): Promise<void> {
  await guarded(async () => {
    const ws = current.value?.name === name ? current.value : await openWorkspace(name);
    if (!ws) return;
    downloadBytes(await ws.exportIndex(), `${name}.sqlite`);
  });
}

/** Resolves once the indexing run of `workspace` has ended (done, cancelled or failed), or at once when none runs. */
export function whenIndexed(workspace: string): Promise<void> {
  return new Promise((resolve) => {
    let stop: (() => void) | undefined = undefined;
    stop = effect(() => {
      const run = indexRun.value;
      if (!run || run.workspace !== workspace || ['done', 'cancelled', 'failed'].includes(run.phase)) {
        queueMicrotask(() => stop?.());
        resolve();
      }
    });
  });
}

/**
 * Imports an index file (exported here, or built by hci under Node) as a workspace: `name`, or the
 * file's name — asked for when that says nothing (index.sqlite, as `hci index` writes it).
 */
export async function importIndexFile(file: File, name?: string): Promise<void> {
  const base = file.name.replace(/\.(sqlite3?|db)$/i, '');
  if (!name && /^(index|hci|export|db|data|imported)?$/i.test(base)) {
    name = prompt(`A name for the workspace of ${file.name} (the repository's, say)`, base || 'imported')?.trim() || undefined;
    if (!name) return;
  }
  name ??= base;
  const ws = await openWorkspace(name);
  if (!ws) return;
  await guarded(async () => {
    status.value = await ws.importIndex(await file.arrayBuffer());
    notice.value = { kind: 'info', text: `imported ${file.name}: ${status.value.index?.files ?? 0} files, ${status.value.index?.chunks ?? 0} chunks` };
    // The query on screen was searched when the workspace opened, before the file was in: no_index.
    if (current.value === ws) refreshSearch();
  });
  void refreshWorkspaces();
}

onWorkerEvent((e) => {
  if (e.type === 'asset') grammarDownloads.value = [...grammarDownloads.value, { what: e.what, bytes: e.bytes, ms: e.ms }];
  if (e.type === 'released' && current.value?.name === e.workspace) {
    batch(() => {
      releasedHere.value = e.workspace;
      current.value = null;
      status.value = null;
      if (indexRun.value?.workspace === e.workspace && !['done', 'failed'].includes(indexRun.value.phase)) indexRun.value = null;
    });
    // The other tab takes the workspace a moment later: list it as open there once it has.
    void refreshWorkspaces();
    setTimeout(() => void refreshWorkspaces(), 1000);
  }
});
