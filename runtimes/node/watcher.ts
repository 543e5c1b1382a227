// The Node file watcher behind MCP freshness: OS events through chokidar, or a polling scan when the
// OS runs out of watches (ENOSPC, EMFILE, ENFILE) or when asked to poll (network drives, some
// containers). Owns watch setup and teardown, the fallback and reporting its state; what a change
// means and when to re-index is core/freshness.ts. Never watches `.hci/` or denied path segments.
import * as path from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import type { WorkspaceFs } from '../../core/platform.ts';
import type { Settings } from '../../core/settings.ts';
import { scanWorkspace } from '../../core/scan/walker.ts';
import { diffSnapshots, unwatchedDirNames, type ChangeKind, type FreshnessTracker, type Snapshot, type WatcherStatus } from '../../core/freshness.ts';

export type { WatchMode, WatcherStatus } from '../../core/freshness.ts';

/** Just the part of chokidar's watcher this module uses (tests inject a fake). */
export interface EventSource {
  on(event: 'all', fn: (event: string, absPath: string) => void): unknown;
  on(event: 'error', fn: (err: unknown) => void): unknown;
  on(event: 'ready', fn: () => void): unknown;
  close(): Promise<void>;
}

export type EventSourceFactory = (root: string, ignored: (absPath: string) => boolean) => EventSource;

export interface NodeWatcherOptions {
  root: string;
  fs: WorkspaceFs;
  settings: Settings;
  tracker: FreshnessTracker;
  /** `auto`: OS events, polling when they run out; `poll`: polling only. */
  prefer?: 'auto' | 'poll';
  pollMs?: number;
  log?: (msg: string) => void;
  createEventSource?: EventSourceFactory;
}

const LIMIT_CODES = new Set(['ENOSPC', 'EMFILE', 'ENFILE']);
const KINDS = new Set<ChangeKind>(['add', 'change', 'unlink', 'addDir', 'unlinkDir']);

export const chokidarEventSource: EventSourceFactory = (root, ignored) =>
  chokidarWatch(root, {
    ignoreInitial: true,
    persistent: true,
    followSymlinks: false,
    // Editors' atomic saves (write a temp file, rename it over the original) arrive as one change.
    atomic: true,
    ignored: (p: string) => ignored(p),
  }) as FSWatcher as unknown as EventSource;

export class NodeWorkspaceWatcher {
  private source: EventSource | null = null;
  private pollTimer: ReturnType<typeof setTimeout> | null = null;
  private snapshot: Snapshot | null = null;
  private st: WatcherStatus = { state: 'off', mode: null, since: null };
  private readonly root: string;
  private readonly skipDirs: Set<string>;
  private generation = 0;
  private readyWaiters: Array<() => void> = [];

  constructor(private readonly opts: NodeWatcherOptions) {
    this.root = path.resolve(opts.root);
    this.skipDirs = unwatchedDirNames(opts.settings);
  }

  status(): WatcherStatus {
    return { ...this.st };
  }

  get active(): boolean {
    return this.st.state === 'starting' || this.st.state === 'on';
  }

  /** Starts watching; resolves once the watcher is ready (initial crawl done, or first poll scan). */
  async start(): Promise<void> {
    if (this.active) return this.ready();
    this.opts.tracker.restart();
    if (this.opts.prefer === 'poll') this.startPolling('polling requested (--watch poll)');
    else this.startEvents();
    return this.ready();
  }

  async stop(): Promise<void> {
    this.generation++;
    const src = this.source;
    this.source = null;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    this.snapshot = null;
    this.opts.tracker.stop();
    this.st = { state: 'off', mode: null, since: new Date().toISOString() };
    this.wakeReady();
    if (src) await src.close().catch(() => {});
  }

  /** Resolves when the watcher is no longer `starting`. */
  ready(): Promise<void> {
    if (this.st.state !== 'starting') return Promise.resolve();
    return new Promise((r) => this.readyWaiters.push(r));
  }

  private wakeReady(): void {
    const w = this.readyWaiters;
    this.readyWaiters = [];
    for (const r of w) r();
  }

  private rel(abs: string): string | null {
    const r = path.relative(this.root, abs);
    if (r === '' || r.startsWith('..') || path.isAbsolute(r)) return r === '' ? '' : null;
    return r.split(path.sep).join('/');
  }

  private ignored = (abs: string): boolean => {
    const r = this.rel(abs);
    if (r === null) return true;
    if (r === '') return false;
    // Only directory names are pruned here; which files matter is the tracker's filter.
    return r.split('/').some((seg) => this.skipDirs.has(seg));
  };

  private startEvents(): void {
    const gen = ++this.generation;
    this.st = { state: 'starting', mode: 'events', since: new Date().toISOString() };
    let src: EventSource;
    try {
      src = (this.opts.createEventSource ?? chokidarEventSource)(this.root, this.ignored);
    } catch (e) {
      this.onError(e, gen);
      return;
    }
    this.source = src;
    src.on('all', (event, abs) => {
      if (gen !== this.generation || !KINDS.has(event as ChangeKind)) return;
      const r = this.rel(abs);
      if (r === null || r === '') return;
      this.opts.tracker.notify({ path: r, kind: event as ChangeKind });
    });
    src.on('error', (err) => this.onError(err, gen));
    src.on('ready', () => {
      if (gen !== this.generation) return;
      this.st = { ...this.st, state: 'on' };
      this.wakeReady();
    });
  }

  private onError(err: unknown, gen: number): void {
    if (gen !== this.generation) return;
    const code = (err as NodeJS.ErrnoException)?.code ?? '';
    const message = (err as Error)?.message ?? String(err);
    if (LIMIT_CODES.has(code)) {
      const why = code === 'ENOSPC'
        ? 'the OS file-watch limit was reached (ENOSPC: raise fs.inotify.max_user_watches to get events back)'
        : `the OS ran out of file handles for watching (${code})`;
      this.opts.log?.(`watcher: ${why}; falling back to polling`);
      const old = this.source;
      this.source = null;
      void old?.close().catch(() => {});
      this.startPolling(why);
      // Changes may have been missed between the failure and the first poll.
      this.opts.tracker.markUnknown('watcher fallback');
      return;
    }
    // Other errors (a folder that vanished mid-crawl, a permission problem) leave the rest watched.
    this.opts.log?.(`watcher: ${message}`);
  }

  private startPolling(reason: string): void {
    const gen = ++this.generation;
    const interval = this.opts.pollMs ?? 2000;
    this.snapshot = null;
    this.st = { state: 'starting', mode: 'polling', reason, since: new Date().toISOString(), poll_interval_ms: interval };
    const tick = async () => {
      if (gen !== this.generation) return;
      const t0 = Date.now();
      let next: Snapshot | null = null;
      try {
        const scan = await scanWorkspace(this.opts.fs, this.opts.settings);
        next = new Map(scan.files.map((f) => [f.path, `${f.size}:${Math.trunc(f.mtimeMs)}`]));
      } catch (e) {
        this.opts.log?.(`watcher: polling scan failed: ${(e as Error)?.message ?? e}`);
      }
      if (gen !== this.generation) return;
      if (next) {
        if (this.snapshot) {
          const changes = diffSnapshots(this.snapshot, next);
          if (changes.length) this.opts.tracker.notify(changes);
        }
        this.snapshot = next;
        if (this.st.state === 'starting') {
          this.st = { ...this.st, state: 'on' };
          this.wakeReady();
        }
      }
      // A large tree is not re-scanned back to back: at least twice the time a scan takes.
      const wait = Math.max(interval, 2 * (Date.now() - t0));
      this.st.poll_interval_ms = wait;
      this.pollTimer = setTimeout(() => void tick(), wait);
    };
    void tick();
  }
}
