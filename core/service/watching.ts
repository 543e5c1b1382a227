// Keeping the service's index fresh while it runs: the runtime's file watcher turned on and off, the
// freshness tracker that turns its notices into indexing runs, pending changes in every answer's
// freshness, and the watcher as answers show it. Owns that wiring; watching is the runtime's
// (ServiceHost.createWatcher), debouncing and pending counts core/freshness.ts (loaded when a watcher
// is first turned on).
import { HciError } from '../platform.ts';
import type { FreshnessTracker } from '../freshness.ts';
import type { IndexFreshness } from '../contract/common.ts';
import type { WatcherStatus, WatcherView } from '../contract/watch.ts';
import type { TaskRegistry } from '../tasks.ts';
import type { HostWatcher, ServiceOptions, WatchPreference } from './host.ts';
import type { IndexRuns } from './indexing.ts';
import type { WorkspaceGate } from './workspace-gate.ts';

export class WatchControl {
  tracker: FreshnessTracker | null = null;
  private watcher: HostWatcher | null = null;
  private pref: WatchPreference;

  constructor(
    private readonly opts: ServiceOptions,
    private readonly gate: WorkspaceGate,
    private readonly runs: IndexRuns,
    private readonly tasks: TaskRegistry,
    private readonly closed: () => boolean,
  ) {
    this.pref = opts.watch ?? 'auto';
  }

  /** A published index read over HTTP (ServiceHost.readOnly): nothing to watch. */
  private get readOnly(): boolean {
    return this.opts.host.readOnly?.(this.opts.root) ?? false;
  }

  get active(): boolean {
    return !!this.watcher?.active;
  }

  /** Whether the service should start watching when it starts. */
  get wanted(): boolean {
    return this.pref !== 'off' && !!this.opts.host.createWatcher && !this.readOnly;
  }

  /** The freshness with the watcher's count of changes not indexed yet (when it is watching). */
  withPending(index: IndexFreshness | null): IndexFreshness | null {
    if (!index) return index;
    if (this.watcher?.active && this.tracker) return { ...index, pending_changes: this.tracker.pendingCount() };
    return index;
  }

  view(): WatcherView {
    const st: WatcherStatus = this.watcher?.status() ?? { state: 'off', mode: null, since: null };
    const fs = this.tracker?.stats() ?? null;
    const on = !!this.watcher?.active;
    const v: WatcherView = {
      ...st,
      pending: on && fs ? fs.pending : null,
      debounce_ms: this.opts.debounceMs ?? 300,
      runs: fs?.runs ?? 0,
      last_change_at: fs?.last_change_at ?? null,
      last_run_at: fs?.last_run_at ?? null,
      last_error: fs?.last_error ?? null,
    };
    if (on && fs && fs.pending > 0) v.pending_sample = this.tracker!.pendingSample(5);
    if (this.readOnly && !st.reason) v.reason = 'a published, read-only index: nothing to watch';
    else if (!this.opts.host.createWatcher && !st.reason) v.reason = `no file watcher in the ${this.opts.host.name} server: call reindex after editing files`;
    if (!on && this.pref === 'off' && !st.reason && !v.reason) v.reason = 'call watch with enabled: true to turn it on';
    return v;
  }

  /** The `watch` call: remembers the preference, then turns the watcher on or off. */
  async enable(on: boolean, readyMs: number): Promise<void> {
    this.pref = on ? (this.opts.watch === 'poll' ? 'poll' : 'auto') : 'off';
    await this.set(on, readyMs);
  }

  /** Turns the watcher on or off; waits at most `readyMs` for its initial crawl. */
  async set(on: boolean, readyMs: number): Promise<void> {
    if (!on) {
      await this.watcher?.stop();
      return;
    }
    if (this.readOnly) {
      throw new HciError('not_available', `the index at ${this.opts.root} is a published, read-only index: there are no files here to watch`, 'index and pack it again where its files are; answers describe the published file');
    }
    const createWatcher = this.opts.host.createWatcher;
    if (!createWatcher) {
      throw new HciError(
        'not_available',
        `file watching is not available in the ${this.opts.host.name} MCP server`,
        'call reindex after editing files (it is incremental), or status with check_pending: true to see what changed',
      );
    }
    const ws = await this.gate.workspace();
    // Loaded with the first watcher (a host that never watches, the browser Worker, never loads it);
    // before the check below, so that two calls at once cannot both make a tracker.
    const { FreshnessTracker, changeFilter, wholePassFilter } = await import('../freshness.ts');
    if (!this.tracker) {
      this.tracker = new FreshnessTracker({
        debounceMs: this.opts.debounceMs ?? 300,
        isRelevant: changeFilter(ws.settings),
        needsWholePass: wholePassFilter(ws.settings),
        run: async ({ paths }) => {
          if (this.closed()) return { ok: 'skipped', reason: 'shutting down' };
          if (!(await ws.host.storage.exists())) return { ok: 'skipped', reason: 'no index yet' };
          // Only the changed paths when the tracker has them (no scan of the whole tree), else a whole pass.
          const { task } = this.runs.start(false, 'watcher', false, paths ?? undefined);
          const final = await this.tasks.settled(task.task_id);
          if (final?.state === 'done') return { ok: true };
          const err = final?.error ?? { code: 'internal', message: 'the indexing run ended without a result' };
          return { ok: false, retry: err.code === 'index_busy', error: { code: err.code, message: err.message } };
        },
      });
    }
    this.watcher ??= createWatcher.call(this.opts.host, {
      root: this.opts.root, fs: ws.host.fs, settings: ws.settings, tracker: this.tracker,
      prefer: this.pref === 'poll' ? 'poll' : 'auto', pollMs: this.opts.pollMs, log: this.opts.log,
    });
    if (this.watcher.active) return;
    // Changes made while nobody watched an existing index are unknown: one incremental run catches up
    // once the watcher is ready. Without an index before the watcher started there is nothing to catch
    // up with: the first build (a search starts it) reads every file, and a catch-up marked after it
    // began was a phantom pending change and a second pass over an index just built.
    const hadIndex = await ws.host.storage.exists();
    const ready = this.watcher.start().then(() => {
      if (this.watcher?.active && hadIndex) this.tracker?.markUnknown('catch-up');
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([ready, new Promise<void>((r) => (timer = setTimeout(r, readyMs)))]);
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    await this.watcher?.stop().catch(() => {});
  }
}
