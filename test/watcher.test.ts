// Freshness from file changes. In process: the platform-free tracker (filtering, debounce, burst
// coalescing, re-runs, busy retries), the Node watcher's fallback to polling when the OS runs out
// of watches, and a folder reported only as added (its files came before its watch) listed by the run. End to end: the real MCP server with its watcher sees edits, new files, renames, atomic
// saves, deletions, renamed and deleted folders and a burst of files in search results, and ignores
// `.hci/` and denied folders.
// @lane mcp
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FreshnessTracker, changeFilter, diffSnapshots, type Change, type RunOutcome } from '../core/freshness.ts';
import { defaultSettings } from '../core/settings.ts';
import { NodeWorkspaceWatcher, type EventSource } from '../runtimes/node/watcher.ts';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { scanPaths } from '../core/scan/walker.ts';
import { createTmpWorkspace } from './helpers/tmp-workspace.ts';
import { copySample, ensureBuilt, startStdio, waitFor, type McpConn } from './helpers/mcp-harness.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('FreshnessTracker (core/freshness.ts)', () => {
  it('filters changes by what the index holds', () => {
    const f = changeFilter(defaultSettings());
    const ok = (p: string, kind: Change['kind'] = 'change') => f({ path: p, kind });
    expect(ok('src/A.cs')).toBe(true);
    expect(ok('src/Pages/X.razor', 'add')).toBe(true);
    expect(ok('README.md', 'unlink')).toBe(true);
    expect(ok('src/.gitignore')).toBe(true);
    expect(ok('src/old', 'unlinkDir')).toBe(true);
    expect(ok('src/new', 'addDir')).toBe(true); // its files may have come before the OS watched it
    expect(ok('node_modules/pkg', 'addDir')).toBe(false);
    expect(ok('.hci/index.sqlite')).toBe(false);
    expect(ok('.hci/index.sqlite-journal', 'add')).toBe(false);
    expect(ok('node_modules/x/index.js')).toBe(false);
    expect(ok('src/bin/Debug/App.cs')).toBe(false);
    expect(ok('src/A.cs.tmp~')).toBe(false);
    expect(ok('image.png')).toBe(false);
  });

  it('diffs two listings into changes', () => {
    const a = new Map([['a.cs', '1:1'], ['b.cs', '2:2'], ['c.cs', '3:3']]);
    const b = new Map([['a.cs', '1:1'], ['b.cs', '2:5'], ['d.cs', '4:4']]);
    expect(diffSnapshots(a, b).sort((x, y) => x.path.localeCompare(y.path))).toEqual([
      { path: 'b.cs', kind: 'change' }, { path: 'c.cs', kind: 'unlink' }, { path: 'd.cs', kind: 'add' },
    ]);
  });

  it('debounces a burst of thousands of changes into one run, and re-runs for changes made during a run', async () => {
    const runs: number[] = [];
    let release: (() => void) | null = null;
    const tracker = new FreshnessTracker({
      debounceMs: 40,
      maxWaitMs: 400,
      run: async ({ pending }) => {
        runs.push(pending);
        await new Promise<void>((r) => (release = r));
        return { ok: true };
      },
    });
    for (let i = 0; i < 3000; i++) tracker.notify({ path: `src/F${i}.cs`, kind: 'add' });
    expect(tracker.pendingCount()).toBe(3000);
    expect(tracker.stats().state).toBe('debouncing');
    await waitFor(async () => runs.length === 1, 20_000, 'one run');
    expect(runs).toEqual([3000]);
    // A change during the run stays pending and gets a run of its own afterwards.
    tracker.notify({ path: 'src/Late.cs', kind: 'change' });
    expect(tracker.stats().state).toBe('running');
    release!();
    await waitFor(async () => runs.length === 2, 20_000, 'a second run');
    expect(runs[1]).toBe(1);
    release!();
    await tracker.idle();
    expect(tracker.pendingCount()).toBe(0);
    expect(tracker.stats()).toMatchObject({ runs: 2, runs_ok: 2, relevant: 3001, state: 'idle' });
  });

  it('a check due at start (markUnknown) runs but is no pending change: a fresh server reports 0, not a phantom 1', async () => {
    let release: (() => void) | undefined;
    const runs: Array<{ pending: number; paths: string[] | null }> = [];
    const tracker = new FreshnessTracker({ debounceMs: 10, run: (info) => new Promise((r) => { runs.push(info); release = () => r({ ok: true }); }) });
    tracker.markUnknown('catch-up');
    expect(tracker.pendingCount()).toBe(0);
    expect(tracker.stats().pending).toBe(0);
    expect(tracker.pendingSample()).toEqual([]);
    // The catch-up still runs (a whole pass), and a real change during it is counted.
    await waitFor(async () => runs.length === 1, 20_000, 'the catch-up run');
    expect(runs[0].paths).toBeNull();
    tracker.notify({ path: 'src/A.cs', kind: 'change' });
    expect(tracker.pendingCount()).toBe(1);
    expect(tracker.pendingSample()).toEqual(['src/A.cs']);
    release!();
    await waitFor(async () => runs.length === 2, 20_000, 'the run for the change');
    release!();
    await tracker.idle();
    expect(tracker.pendingCount()).toBe(0);
  });

  it('settles what a run started elsewhere (a tool, a first search) has indexed', () => {
    const tracker = new FreshnessTracker({ debounceMs: 10_000, run: async () => ({ ok: 'skipped', reason: 'no index yet' }) });
    tracker.notify([{ path: 'a.cs', kind: 'change' }, { path: 'b.cs', kind: 'add' }]);
    const mark = tracker.mark();
    tracker.notify({ path: 'c.cs', kind: 'change' });
    tracker.settle(mark);
    expect(tracker.pendingSample()).toEqual(['c.cs']);
    tracker.stop();
  });

  it('cannot be starved by a steady stream of changes (maxWait)', async () => {
    let runs = 0;
    const tracker = new FreshnessTracker({ debounceMs: 50, maxWaitMs: 150, run: async () => (runs++, { ok: true }) });
    // Changes keep coming every 10 ms, so the debounce alone would never fire: only maxWait can
    // start the run. The 20 s cap only catches a starved tracker; the time to the run is a bench figure.
    const t0 = Date.now();
    while (runs === 0 && Date.now() - t0 < 20_000) {
      tracker.notify({ path: `src/S${Date.now()}.cs`, kind: 'change' });
      await sleep(10);
    }
    expect(runs).toBe(1);
    tracker.stop();
  });

  it('retries after a busy index, keeps changes pending after other failures, skips without an index', async () => {
    const outcomes: RunOutcome[] = [
      { ok: false, retry: true, error: { code: 'index_busy', message: 'busy' } },
      { ok: true },
    ];
    let calls = 0;
    const tracker = new FreshnessTracker({ debounceMs: 10, retryMs: 30, run: async () => outcomes[calls++] ?? { ok: true } });
    tracker.notify({ path: 'a.cs', kind: 'change' });
    await waitFor(async () => calls === 2 && tracker.pendingCount() === 0, 20_000, 'a retry');
    expect(tracker.stats().last_error).toBeNull();

    const failing = new FreshnessTracker({ debounceMs: 10, run: async () => ({ ok: false, retry: false, error: { code: 'index_corrupt', message: 'bad' } }) });
    failing.notify({ path: 'a.cs', kind: 'change' });
    // Waits for the debounced run itself (a fixed pause raced it on a loaded machine).
    await waitFor(async () => failing.stats().runs === 1, 20_000, 'the failing run');
    await failing.idle();
    expect(failing.pendingCount()).toBe(1);
    expect(failing.stats().last_error?.code).toBe('index_corrupt');

    const noIndex = new FreshnessTracker({ debounceMs: 10, run: async () => ({ ok: 'skipped', reason: 'no index yet' }) });
    noIndex.notify({ path: 'a.cs', kind: 'change' });
    await waitFor(async () => noIndex.stats().runs === 1, 20_000, 'the skipped run');
    await noIndex.idle();
    expect(noIndex.pendingCount()).toBe(1);
    expect(noIndex.stats().runs).toBe(1);
  });
});

/** A stand-in for chokidar that fails like Linux does when inotify watches run out. */
class FailingSource extends EventEmitter implements EventSource {
  closed = false;
  constructor(code: string) {
    super();
    setTimeout(() => this.emit('error', Object.assign(new Error(`${code}: System limit for number of file watchers reached, watch '/x'`), { code })), 5);
  }
  async close() {
    this.closed = true;
  }
}

/** A stand-in for chokidar that reports what a test tells it to. */
class ScriptedSource extends EventEmitter implements EventSource {
  constructor() {
    super();
    setTimeout(() => this.emit('ready'), 0);
  }
  async close() {}
}

describe('NodeWorkspaceWatcher: a new folder', () => {
  it('indexes the files of a folder reported only as added (written before the OS watched it): the run lists the folder', async () => {
    // chokidar lists a new folder and then watches it; files written between the two never arrive as
    // changes (a burst into a new folder on a loaded machine lost files this way). The folder itself does.
    const ws = await createTmpWorkspace({ 'src/A.cs': 'class A {}\n' });
    const settings = defaultSettings();
    const wsFs = createNodeWorkspaceFs(ws.root);
    const listed: string[][] = [];
    const tracker = new FreshnessTracker({
      debounceMs: 10,
      isRelevant: changeFilter(settings),
      run: async ({ paths }) => {
        listed.push(((await scanPaths(wsFs, settings, paths ?? []))?.files ?? []).map((f) => f.path));
        return { ok: true };
      },
    });
    const source = new ScriptedSource();
    const w = new NodeWorkspaceWatcher({ root: ws.root, fs: wsFs, settings, tracker, createEventSource: () => source });
    try {
      await w.start();
      fs.mkdirSync(ws.abs('src/New/Deep'), { recursive: true });
      for (const f of ['src/New/One.cs', 'src/New/Deep/Two.cs', 'src/New/notes.md']) fs.writeFileSync(ws.abs(f), 'class X {}\n');
      source.emit('all', 'addDir', ws.abs('src/New'));
      source.emit('all', 'addDir', ws.abs('node_modules'));
      await waitFor(async () => listed.length === 1, 20_000, 'the run');
      await tracker.idle();
      expect(listed).toEqual([['src/New/Deep/Two.cs', 'src/New/One.cs', 'src/New/notes.md']]);
      expect(tracker.pendingCount()).toBe(0);
    } finally {
      await w.stop();
      await ws.cleanup();
    }
  });
});

describe('NodeWorkspaceWatcher fallback', () => {
  it('falls back to polling when the OS watcher limit is hit, says why, and still sees changes', async () => {
    const ws = await createTmpWorkspace({ 'src/A.cs': 'class A {}\n', 'README.md': '# x\n' });
    const seen: Change[] = [];
    const tracker = new FreshnessTracker({ debounceMs: 10, run: async () => ({ ok: true }) });
    const origNotify = tracker.notify.bind(tracker);
    tracker.notify = (c: Change | Change[]) => {
      seen.push(...(Array.isArray(c) ? c : [c]));
      return origNotify(c);
    };
    let source: FailingSource | null = null;
    const logs: string[] = [];
    const w = new NodeWorkspaceWatcher({
      root: ws.root, fs: createNodeWorkspaceFs(ws.root), settings: defaultSettings(), tracker, pollMs: 100,
      log: (m) => logs.push(m),
      createEventSource: () => (source = new FailingSource('ENOSPC')),
    });
    try {
      await w.start();
      await waitFor(async () => w.status().mode === 'polling' && w.status().state === 'on', 20_000, 'polling mode');
      const st = w.status();
      expect(st.reason).toMatch(/ENOSPC/);
      expect(st.reason).toMatch(/max_user_watches/);
      expect(source!.closed).toBe(true);
      expect(logs.join('\n')).toMatch(/falling back to polling/);
      await sleep(150);
      fs.appendFileSync(ws.abs('src/A.cs'), '// changed\n');
      fs.writeFileSync(ws.abs('src/B.cs'), 'class B {}\n');
      fs.rmSync(ws.abs('README.md'));
      await waitFor(async () => seen.length >= 3, 20_000, 'polled changes');
      expect(seen).toEqual(expect.arrayContaining([
        { path: 'src/A.cs', kind: 'change' }, { path: 'src/B.cs', kind: 'add' }, { path: 'README.md', kind: 'unlink' },
      ]));
      await w.stop();
      expect(w.status()).toMatchObject({ state: 'off', mode: null });
    } finally {
      await w.stop();
      await ws.cleanup();
    }
  });

  it('treats EMFILE the same way', async () => {
    const ws = await createTmpWorkspace({ 'a.cs': 'class A {}\n' });
    const tracker = new FreshnessTracker({ run: async () => ({ ok: true }) });
    const w = new NodeWorkspaceWatcher({
      root: ws.root, fs: createNodeWorkspaceFs(ws.root), settings: defaultSettings(), tracker, pollMs: 100,
      createEventSource: () => new FailingSource('EMFILE'),
    });
    try {
      await w.start();
      await waitFor(async () => w.status().mode === 'polling', 20_000, 'polling mode');
      expect(w.status().reason).toMatch(/EMFILE/);
    } finally {
      await w.stop();
      await ws.cleanup();
    }
  });
});

describe('hci mcp: the watcher keeps search fresh (real server, real files)', () => {
  let ws: { root: string; cleanup(): void };
  let mcp: McpConn;
  const latencies: Record<string, number> = {};
  const abs = (rel: string) => path.join(ws.root, ...rel.split('/'));
  const hitsFor = async (q: string) => (await mcp.call('search', { query: q, limit: 20 })).structured;
  /** Time from now until `pred` holds for the search answer of `q`; fails past 20 s (a hang, not a slow run: the latency is a bench figure, bench/latency.ts). */
  const visible = async (label: string, q: string, pred: (s: Record<string, any>) => boolean) => {
    const { ms } = await waitFor(async () => pred(await hitsFor(q)), 20_000, `${label} visible in search`, 50);
    latencies[label] = ms;
  };
  const paths = (s: Record<string, any>) => s.hits.map((h: { path: string }) => h.path);

  beforeAll(async () => {
    ensureBuilt();
    ws = copySample('hci-mcp-watch-');
    mcp = await startStdio(ws.root);
    await waitFor(async () => (await hitsFor('catalog')).status === 'ok', 20_000, 'the first index');
    await waitFor(async () => {
      const w = (await mcp.call('status', {})).structured.watcher;
      return w.state === 'on' && w.pending === 0;
    }, 10_000, 'the watcher to be on and idle');
  });
  afterAll(async () => {
    await mcp?.close();
    ws?.cleanup();
    // eslint-disable-next-line no-console
    console.log(`watcher edit-to-visible latencies (ms): ${JSON.stringify(latencies)}`);
  });

  it('reports the watcher in status: events mode, pending changes while a change waits', async () => {
    const st = (await mcp.call('status', {})).structured;
    expect(st.watcher).toMatchObject({ state: 'on', mode: 'events', debounce_ms: 300 });
    fs.appendFileSync(abs('docs/architecture.md'), '\nPendingMarkerAlpha\n');
    const { value } = await waitFor(async () => {
      const s = (await mcp.call('status', {})).structured;
      return s.index.pending_changes > 0 ? s : null;
    }, 20_000, 'a pending change');
    expect(value.watcher.pending_sample).toContain('docs/architecture.md');
    await visible('pending edit', 'PendingMarkerAlpha', (s) => s.hits.length > 0 && s.index.pending_changes === 0);
  });

  it('sees an edit, a new file, a rename and a deletion', async () => {
    const file = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';
    fs.appendFileSync(abs(file), '\n// EditedMarkerQuokka\n');
    await visible('edit', 'EditedMarkerQuokka', (s) => paths(s).includes(file));
    // The watcher's run covered just that path: no scan of the whole tree. Its edit is searchable once the
    // run's transaction commits, which can be a moment before the task itself says done: wait for that.
    const watcherRun = async () => (await mcp.call('status', {})).structured.tasks.find((t: { trigger: string }) => t.trigger === 'watcher');
    await waitFor(async () => (await watcherRun())?.state !== 'running', 20_000, 'the watcher run to finish', 50);
    expect(await watcherRun()).toMatchObject({ state: 'done', paths: [file] });

    fs.writeFileSync(abs('src/NewThing.cs'), 'namespace X;\npublic class NewThingWombat { }\n');
    await visible('add', 'NewThingWombat', (s) => paths(s).includes('src/NewThing.cs'));

    fs.renameSync(abs('src/NewThing.cs'), abs('src/RenamedThing.cs'));
    await visible('rename', 'NewThingWombat', (s) => paths(s).includes('src/RenamedThing.cs') && !paths(s).includes('src/NewThing.cs'));

    fs.rmSync(abs('src/RenamedThing.cs'));
    await visible('delete', 'NewThingWombat', (s) => s.status === 'empty' && s.hits.length === 0);
  });

  it('survives an editor\'s atomic save (write a temp file, rename it over the original)', async () => {
    const file = 'src/Contoso.Shop.Application/Cart/ShoppingCart.cs';
    const text = fs.readFileSync(abs(file), 'utf8');
    const tmp = `${abs(file)}.tmp.${process.pid}~`;
    fs.writeFileSync(tmp, `${text}\n// AtomicSaveMarkerNumbat\n`);
    fs.renameSync(tmp, abs(file));
    await visible('atomic save', 'AtomicSaveMarkerNumbat', (s) => paths(s).includes(file));
    // And a second atomic save of the same file (the watch must survive the inode swap).
    fs.writeFileSync(tmp, `${text}\n// AtomicSaveMarkerBilby\n`);
    fs.renameSync(tmp, abs(file));
    await visible('second atomic save', 'AtomicSaveMarkerBilby', (s) => paths(s).includes(file));
    expect(paths(await hitsFor('AtomicSaveMarkerNumbat'))).not.toContain(file);
  });

  it('sees a renamed folder and a deleted folder', async () => {
    fs.mkdirSync(abs('src/Extra/Deep'), { recursive: true });
    fs.writeFileSync(abs('src/Extra/Deep/Koala.cs'), 'public class KoalaFolderMarker { }\n');
    await visible('add in new folder', 'KoalaFolderMarker', (s) => paths(s).includes('src/Extra/Deep/Koala.cs'));
    fs.renameSync(abs('src/Extra'), abs('src/Moved'));
    await visible('folder rename', 'KoalaFolderMarker', (s) => paths(s).includes('src/Moved/Deep/Koala.cs') && !paths(s).includes('src/Extra/Deep/Koala.cs'));
    fs.rmSync(abs('src/Moved'), { recursive: true, force: true });
    await visible('folder delete', 'KoalaFolderMarker', (s) => s.hits.length === 0);
  });

  it('coalesces a burst of 400 new files into a few runs', async () => {
    const before = (await mcp.call('status', {})).structured.watcher.runs as number;
    fs.mkdirSync(abs('src/Burst'), { recursive: true });
    for (let i = 0; i < 400; i++) fs.writeFileSync(abs(`src/Burst/Gen${i}.cs`), `public class BurstGen${i} { /* burstmarker ${i} */ }\n`);
    // Deadlines that only catch a hang (a loaded machine may take a while): how long a burst takes is logged, not asserted.
    const { ms } = await waitFor(async () => (await hitsFor('BurstGen399')).hits.length > 0, 120_000, 'the last burst file', 100);
    latencies['burst of 400 (last file)'] = ms;
    await waitFor(async () => (await mcp.call('status', {})).structured.watcher.pending === 0, 60_000, 'the burst to settle', 100);
    const st = (await mcp.call('status', {})).structured;
    expect(st.index.files).toBeGreaterThanOrEqual(79 + 400);
    expect(st.watcher.runs - before).toBeLessThanOrEqual(4);
    const s = await mcp.call('search', { query: 'burstmarker', limit: 5 });
    expect(s.structured.status).toBe('ok');
  }, 240_000);

  it('ignores .hci/ and denied folders', async () => {
    const before = (await mcp.call('status', {})).structured.watcher;
    fs.writeFileSync(abs('.hci/notes.md'), '# IgnoredMarkerHci\n');
    fs.mkdirSync(abs('node_modules/pkg'), { recursive: true });
    fs.writeFileSync(abs('node_modules/pkg/index.js'), '// IgnoredMarkerNodeModules\n');
    fs.mkdirSync(abs('src/Contoso.Shop.Web/bin'), { recursive: true });
    fs.writeFileSync(abs('src/Contoso.Shop.Web/bin/Thing.cs'), '// IgnoredMarkerBin\n');
    await sleep(800);
    const after = (await mcp.call('status', {})).structured.watcher;
    expect(after.runs).toBe(before.runs);
    expect(after.pending).toBe(0);
    expect((await hitsFor('IgnoredMarkerHci')).hits).toHaveLength(0);
  });
});

describe('hci mcp --watch poll', () => {
  it('polls, says so in status, and still sees an edit', async () => {
    ensureBuilt();
    const ws = copySample('hci-mcp-poll-');
    const mcp = await startStdio(ws.root, ['--watch', 'poll', '--poll-interval', '200']);
    try {
      await waitFor(async () => (await mcp.call('search', { query: 'catalog' })).structured.status === 'ok', 20_000, 'the first index');
      const st = await waitFor(async () => {
        const w = (await mcp.call('status', {})).structured.watcher;
        return w.state === 'on' && w.pending === 0 ? w : null;
      }, 10_000, 'polling watcher on');
      expect(st.value).toMatchObject({ mode: 'polling' });
      expect(st.value.reason).toMatch(/polling requested/);
      fs.appendFileSync(path.join(ws.root, 'README.md'), '\nPolledMarkerPlatypus\n');
      await waitFor(async () => (await mcp.call('search', { query: 'PolledMarkerPlatypus' })).structured.hits.length > 0, 20_000, 'the polled edit', 50);
      expect((await mcp.call('status', {})).text).toMatch(/watcher: on \(polling every \d+ ms\)/);
    } finally {
      await mcp.close();
      ws.cleanup();
    }
  });
});
