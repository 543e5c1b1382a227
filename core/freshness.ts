// Keeping an index fresh from file-change notices, independent of where the notices come from (OS
// events, a polling scan, a browser's file handles). Owns which changes matter, debouncing, coalescing
// a burst (a branch switch touching thousands of files) into one incremental run, re-running when
// changes arrive during a run, retrying after a busy index, the count of changes not yet in the
// index ("pending"), and whether a run can be limited to the changed paths or must be a whole pass.
// Starting the run itself is the host's job (a callback). Platform-free: timers only.
import type { Settings } from './settings.ts';
import { baseName, extensionOf } from './scan/languages.ts';
import type { WatcherStatus } from './contract/watch.ts';

export type ChangeKind = 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';

export type WatchMode = 'events' | 'polling';

/** A host's file watcher as it reports itself (runtimes/node/watcher.ts; shown by the MCP tools). */
export type { WatcherStatus };

export interface Change {
  /** Workspace-relative, forward slashes. */
  path: string;
  kind: ChangeKind;
}

/** What a host's run callback reports back. */
export type RunOutcome =
  | { ok: true }
  /** `retry`: try again after retryMs (the index was busy); otherwise wait for the next change. */
  | { ok: false; retry: boolean; error?: { code: string; message: string } }
  /** Nothing was run (e.g. there is no index yet to keep fresh); changes stay pending. */
  | { ok: 'skipped'; reason: string };

export interface FreshnessOptions {
  /** Quiet time after the last change before a run starts. */
  debounceMs?: number;
  /** A steady stream of changes cannot postpone a run longer than this. */
  maxWaitMs?: number;
  /** Pause before retrying a run that met a busy index. */
  retryMs?: number;
  /**
   * Starts one incremental indexing run and resolves when it has finished. `paths`: the changed
   * paths, enough for a run limited to them (IndexOptions.paths); null: a whole incremental pass is
   * needed (something may have changed unseen, a folder went away, ignore rules changed, or too
   * many paths are pending).
   */
  run: (info: { pending: number; paths: string[] | null }) => Promise<RunOutcome>;
  /** Which changes matter (default: everything). */
  isRelevant?: (c: Change) => boolean;
  /** Which relevant changes only a whole pass takes in (default: none; see wholePassFilter). */
  needsWholePass?: (c: Change) => boolean;
  /** More pending paths than this make the next run a whole pass (default 256). */
  maxPaths?: number;
  now?: () => number;
}

export interface FreshnessStats {
  state: 'idle' | 'debouncing' | 'running' | 'retrying' | 'stopped';
  /** Relevant changes seen on disk and not yet covered by a finished run. */
  pending: number;
  /** Notices received (relevant or not) and how many mattered. */
  events: number;
  relevant: number;
  /** Runs started by this tracker and how many finished ok. */
  runs: number;
  runs_ok: number;
  last_change_at: string | null;
  last_run_at: string | null;
  last_error: { code: string; message: string } | null;
}

const SETTINGS_FILE = '.hci/settings.toml';

/** The directory segments a workspace walk never enters, plus the index folder itself. */
function deniedSegments(settings: Pick<Settings, 'exclude_path_segments'>): Set<string> {
  return new Set([...settings.exclude_path_segments, '.hci']);
}

/**
 * A change filter from workspace settings: files whose extension is indexed, ignore files (a new
 * `.gitignore` changes what is indexed), removed folders and `.hci/settings.toml`; nothing else under `.hci/` or a
 * denied path segment (unless it leads into an extra include root). An added folder counts too: a
 * run limited to the changed paths lists it (scanPaths walks a folder path's subtree), because its
 * files need not arrive as changes — an OS watcher lists a new folder and only then watches it, and
 * files written between the two (a burst into a new folder on a loaded machine; counts in
 * bench/results/flaky-harden14.md) would never be indexed.
 */
export function changeFilter(settings: Pick<Settings, 'include_extensions' | 'exclude_path_segments' | 'ignore_files' | 'extra_include_roots'>): (c: Change) => boolean {
  const include = new Set(settings.include_extensions.map((e) => e.toLowerCase()));
  const denied = deniedSegments(settings);
  const ignoreFiles = new Set(settings.ignore_files);
  const extraRoots = settings.extra_include_roots.map((r) => r.replace(/\/+$/, ''));
  const underExtraRoot = (p: string) => extraRoots.some((r) => p === r || p.startsWith(`${r}/`) || r.startsWith(`${p}/`));
  return (c) => {
    const p = c.path.replace(/\\/g, '/').replace(/^\.\//, '');
    if (p === '' || p === '.') return false;
    const segs = p.split('/');
    if (p === SETTINGS_FILE) return true;
    if (segs[0] === '.hci') return false;
    const dirSegs = c.kind === 'addDir' || c.kind === 'unlinkDir' ? segs : segs.slice(0, -1);
    if (dirSegs.some((s) => denied.has(s)) && !underExtraRoot(p)) return false;
    if (c.kind === 'addDir' || c.kind === 'unlinkDir') return true;
    const name = baseName(p);
    if (ignoreFiles.has(name) || name === 'exclude') return true;
    return include.has(extensionOf(p));
  };
}

/**
 * The relevant changes a run limited to the changed paths cannot take in, so the next run scans the
 * whole workspace: a removed or renamed folder (what was below it is not listed one by one), ignore
 * files and `.git/info/exclude` (they change what is indexed elsewhere), and the settings file.
 */
export function wholePassFilter(settings: Pick<Settings, 'ignore_files'>): (c: Change) => boolean {
  const ignoreFiles = new Set(settings.ignore_files);
  return (c) => {
    const p = c.path.replace(/\\/g, '/').replace(/^\.\//, '');
    return c.kind === 'unlinkDir' || ignoreFiles.has(baseName(p)) || p === '.git/info/exclude' || p === SETTINGS_FILE;
  };
}

/** Directory names a watcher need not descend into (denied segments and `.hci`). */
export function unwatchedDirNames(settings: Pick<Settings, 'exclude_path_segments'>): Set<string> {
  return deniedSegments(settings);
}

/** A file listing as `path → "size:mtime"`, for polling. */
export type Snapshot = Map<string, string>;

/** The changes between two listings of the same workspace. */
export function diffSnapshots(prev: Snapshot, next: Snapshot): Change[] {
  const out: Change[] = [];
  for (const [p, sig] of next) {
    const old = prev.get(p);
    if (old === undefined) out.push({ path: p, kind: 'add' });
    else if (old !== sig) out.push({ path: p, kind: 'change' });
  }
  for (const p of prev.keys()) if (!next.has(p)) out.push({ path: p, kind: 'unlink' });
  return out;
}

const UNKNOWN_PREFIX = '<';

export class FreshnessTracker {
  /** Pending path (or `<reason>` for unseen changes) → its latest change's sequence number, and whether it needs a whole pass. */
  private readonly pending = new Map<string, { seq: number; whole: boolean }>();
  private seq = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private burstStart: number | null = null;
  private running = false;
  private retrying = false;
  private stopped = false;
  private readonly debounceMs: number;
  private readonly maxWaitMs: number;
  private readonly retryMs: number;
  private readonly now: () => number;
  private readonly isRelevant: (c: Change) => boolean;
  private readonly needsWholePass: (c: Change) => boolean;
  private readonly maxPaths: number;
  private readonly s: Omit<FreshnessStats, 'state' | 'pending'> = {
    events: 0, relevant: 0, runs: 0, runs_ok: 0, last_change_at: null, last_run_at: null, last_error: null,
  };
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly opts: FreshnessOptions) {
    this.debounceMs = opts.debounceMs ?? 300;
    this.maxWaitMs = opts.maxWaitMs ?? 2000;
    this.retryMs = opts.retryMs ?? 1000;
    this.now = opts.now ?? Date.now;
    this.isRelevant = opts.isRelevant ?? (() => true);
    this.needsWholePass = opts.needsWholePass ?? (() => false);
    this.maxPaths = opts.maxPaths ?? 256;
  }

  /** Records changes; relevant ones schedule a run. Returns how many were relevant. */
  notify(changes: Change | Change[]): number {
    if (this.stopped) return 0;
    let n = 0;
    for (const c of Array.isArray(changes) ? changes : [changes]) {
      this.s.events++;
      if (!this.isRelevant(c)) continue;
      n++;
      const whole = this.needsWholePass(c) || this.pending.get(c.path)?.whole === true;
      this.pending.set(c.path, { seq: ++this.seq, whole });
    }
    if (n > 0) {
      this.s.relevant += n;
      this.s.last_change_at = new Date(this.now()).toISOString();
      this.arm();
    }
    return n;
  }

  /**
   * Something may have changed without a notice (the watcher just started, or switched to polling):
   * schedules a run and counts one pending entry until it finishes.
   */
  markUnknown(reason: string): void {
    if (this.stopped) return;
    this.pending.set(`${UNKNOWN_PREFIX}${reason}>`, { seq: ++this.seq, whole: true });
    this.arm();
  }

  /** A position in the change stream: pass it to settle() once a run that started now has finished. */
  mark(): number {
    return this.seq;
  }

  /**
   * An indexing run started at `mark` finished (whoever started it: a tool, a first search): the
   * changes seen before it are in the index now; with `paths` (a run limited to them), only the
   * changes at or below those paths.
   */
  settle(mark: number, paths?: readonly string[]): void {
    const covers = (p: string) => !paths || paths.some((q) => p === q || p.startsWith(`${q}/`));
    for (const [p, e] of this.pending) if (e.seq <= mark && covers(p)) this.pending.delete(p);
  }

  /**
   * Changes seen and not indexed yet. A check due without a notice (markUnknown: the watcher just
   * started) is no change: it is run, not counted — counted, every answer of a fresh server said
   * "1 pending changes" until the catch-up ended, which status {check_pending} then denied.
   */
  pendingCount(): number {
    let n = 0;
    for (const p of this.pending.keys()) if (!p.startsWith(UNKNOWN_PREFIX)) n++;
    return n;
  }

  /** A few pending paths (for status), oldest first. */
  pendingSample(limit = 10): string[] {
    return [...this.pending.keys()].filter((p) => !p.startsWith(UNKNOWN_PREFIX)).slice(0, limit);
  }

  stats(): FreshnessStats {
    const state = this.stopped ? 'stopped' : this.running ? 'running' : this.retrying ? 'retrying' : this.timer ? 'debouncing' : 'idle';
    return { state, pending: this.pendingCount(), ...this.s, last_error: this.s.last_error ? { ...this.s.last_error } : null };
  }

  /** Resolves when no run is due or running (pending changes may remain after a failed run). */
  idle(): Promise<void> {
    if (!this.running && !this.timer) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /** Forgets what is pending (e.g. the watcher was turned off: nothing is known any more). */
  clear(): void {
    this.pending.clear();
    this.burstStart = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.wakeIdle();
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  /** Resumes after stop(); nothing is pending. */
  restart(): void {
    this.stopped = false;
  }

  private arm(delay = this.debounceMs): void {
    if (this.running) return; // the end of the run re-arms for whatever is still pending
    const now = this.now();
    this.burstStart ??= now;
    const latest = this.burstStart + this.maxWaitMs;
    const at = Math.min(now + delay, Math.max(latest, now));
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - now));
  }

  private fire(): void {
    this.timer = null;
    this.retrying = false;
    if (this.stopped || this.running || this.pending.size === 0) {
      this.wakeIdle();
      return;
    }
    this.burstStart = null;
    this.running = true;
    const covered = this.seq;
    const whole = this.pending.size > this.maxPaths || [...this.pending.values()].some((e) => e.whole);
    const paths = whole ? null : [...this.pending.keys()];
    this.s.runs++;
    this.s.last_run_at = new Date(this.now()).toISOString();
    let outcome: RunOutcome;
    this.opts
      .run({ pending: this.pending.size, paths })
      .catch((e): RunOutcome => ({ ok: false, retry: false, error: { code: 'internal', message: e instanceof Error ? e.message : String(e) } }))
      .then((o) => {
        outcome = o;
      })
      .finally(() => {
        this.running = false;
        if (this.stopped) return this.wakeIdle();
        if (outcome.ok === true) {
          this.s.runs_ok++;
          this.s.last_error = null;
          for (const [p, e] of this.pending) if (e.seq <= covered) this.pending.delete(p);
          if (this.pending.size > 0) return this.arm();
        } else if (outcome.ok === false) {
          this.s.last_error = outcome.error ?? { code: 'run_failed', message: 'the indexing run failed' };
          if (outcome.retry) {
            this.retrying = true;
            return this.arm(this.retryMs);
          }
        }
        this.wakeIdle();
      });
  }

  private wakeIdle(): void {
    if (this.running || this.timer) return;
    const w = this.idleWaiters;
    this.idleWaiters = [];
    for (const r of w) r();
  }
}
