// A registry of background tasks (today: indexing runs started by an MCP host or a watcher). Owns task
// ids, the state machine (queued → running → done | failed | cancelled), progress, cancellation
// through an AbortController, coalescing of equal queued requests and keeping the last results
// around for `status(task_id)`. Platform-free (timers and AbortController only), so every host — the
// Node and Deno MCP servers, a browser worker — runs its background work through the same rules.
//
// Tasks run one at a time, in submission order: the core allows one indexer per index, so a second
// run could only fail with `index_busy`. A request equal to one still waiting (same coalesce key)
// joins it instead of queueing a duplicate; a running task is never joined, because a change made
// after it started may be missed by it.
import { asHciError } from './platform.ts';

export type TaskState = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface TaskError {
  code: string;
  message: string;
  hint?: string;
}

export interface TaskSnapshot<P = unknown, R = unknown, A = unknown> {
  task_id: string;
  kind: string;
  /** What was asked (kind-specific, e.g. `{ full: true, trigger: 'tool' }`). */
  params: A;
  state: TaskState;
  /** Latest progress reported by the running work (kind-specific). */
  progress: P | null;
  /** True once cancel() was called; the state turns `cancelled` when the work has stopped. */
  cancel_requested: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Running time so far (running) or in all (finished); null while queued. */
  took_ms: number | null;
  result?: R;
  error?: TaskError;
}

export interface TaskContext<P> {
  signal: AbortSignal;
  progress(p: P): void;
}

export interface TaskSpec<P, R, A> {
  kind: string;
  params: A;
  /** Equal keys of queued tasks coalesce: the later request returns the waiting task. */
  coalesceKey?: string;
  run(ctx: TaskContext<P>): Promise<R>;
}

export interface TaskRegistryOptions {
  /** Finished tasks kept for status queries (oldest dropped first). */
  keepFinished?: number;
  now?: () => number;
  /** Maps a thrown value to a task error (default: code/message/hint fields, else `internal`). */
  toError?: (e: unknown) => TaskError;
}

type Listener = (t: TaskSnapshot) => void;

interface Entry {
  snap: TaskSnapshot;
  spec: TaskSpec<unknown, unknown, unknown>;
  abort: AbortController;
  startedMs: number | null;
  settled: Promise<TaskSnapshot>;
  settle: (t: TaskSnapshot) => void;
  listeners: Set<Listener>;
}

const FINAL: ReadonlySet<TaskState> = new Set(['done', 'failed', 'cancelled']);

export function isFinal(state: TaskState): boolean {
  return FINAL.has(state);
}

function defaultToError(e: unknown): TaskError {
  const { code, message, hint } = asHciError(e);
  return { code, message, ...(hint !== undefined ? { hint } : {}) };
}

export class TaskRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly queue: Entry[] = [];
  private running: Entry | null = null;
  private seq = 0;
  private readonly salt = Math.random().toString(36).slice(2, 6);
  private readonly keepFinished: number;
  private readonly now: () => number;
  private readonly toError: (e: unknown) => TaskError;
  private readonly globalListeners = new Set<Listener>();
  private closed = false;

  constructor(opts: TaskRegistryOptions = {}) {
    this.keepFinished = opts.keepFinished ?? 20;
    this.now = opts.now ?? Date.now;
    this.toError = opts.toError ?? defaultToError;
  }

  /**
   * Queues a task (it starts at once when nothing runs). Returns its snapshot, or the snapshot of an
   * equal task still waiting (`coalesced: true`).
   */
  submit<P, R, A>(spec: TaskSpec<P, R, A>): { task: TaskSnapshot<P, R, A>; coalesced: boolean } {
    if (this.closed) throw Object.assign(new Error('the task registry is shut down'), { code: 'shutting_down' });
    if (spec.coalesceKey !== undefined) {
      const same = this.queue.find((e) => e.spec.coalesceKey === spec.coalesceKey && !e.snap.cancel_requested);
      if (same) return { task: this.copy(same) as TaskSnapshot<P, R, A>, coalesced: true };
    }
    const id = `t${++this.seq}-${this.salt}`;
    let settle!: (t: TaskSnapshot) => void;
    const settled = new Promise<TaskSnapshot>((r) => (settle = r));
    const entry: Entry = {
      snap: {
        task_id: id, kind: spec.kind, params: spec.params, state: 'queued', progress: null, cancel_requested: false,
        created_at: new Date(this.now()).toISOString(), started_at: null, finished_at: null, took_ms: null,
      },
      spec: spec as TaskSpec<unknown, unknown, unknown>,
      abort: new AbortController(),
      startedMs: null,
      settled,
      settle,
      listeners: new Set(),
    };
    this.entries.set(id, entry);
    this.queue.push(entry);
    this.pump();
    return { task: this.copy(entry) as TaskSnapshot<P, R, A>, coalesced: false };
  }

  get(id: string): TaskSnapshot | null {
    const e = this.entries.get(id);
    return e ? this.copy(e) : null;
  }

  /** The running task, if any. */
  current(): TaskSnapshot | null {
    return this.running ? this.copy(this.running) : null;
  }

  /** Queued and running tasks, oldest first. */
  active(): TaskSnapshot[] {
    return [...this.entries.values()].filter((e) => !isFinal(e.snap.state)).map((e) => this.copy(e));
  }

  /** Every known task, newest first. */
  list(): TaskSnapshot[] {
    return [...this.entries.values()].reverse().map((e) => this.copy(e));
  }

  /**
   * Asks a task to stop. A queued task is cancelled at once; a running one is signalled and turns
   * `cancelled` when its work stops (see settled()). Returns null for an unknown id.
   */
  cancel(id: string): TaskSnapshot | null {
    const e = this.entries.get(id);
    if (!e) return null;
    if (isFinal(e.snap.state)) return this.copy(e);
    e.snap.cancel_requested = true;
    const qi = this.queue.indexOf(e);
    if (qi >= 0) {
      this.queue.splice(qi, 1);
      this.finish(e, 'cancelled', { error: { code: 'cancelled', message: 'cancelled before it started' } });
    } else {
      e.abort.abort();
      this.emit(e);
    }
    return this.copy(e);
  }

  /** Resolves with the final snapshot of a task (null for an unknown id). */
  settled(id: string): Promise<TaskSnapshot | null> {
    const e = this.entries.get(id);
    return e ? e.settled : Promise.resolve(null);
  }

  /**
   * Waits until the task is final or `ms` passed (or the signal fired); resolves with the latest
   * snapshot either way.
   */
  async waitFor(id: string, ms: number, signal?: AbortSignal): Promise<TaskSnapshot | null> {
    const e = this.entries.get(id);
    if (!e) return null;
    if (isFinal(e.snap.state) || ms <= 0) return this.copy(e);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort: (() => void) | undefined;
    await Promise.race([
      e.settled,
      new Promise<void>((r) => {
        timer = setTimeout(r, ms);
        onAbort = () => r();
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    return this.copy(e);
  }

  /** Calls fn on every change of one task (state or progress); returns an unsubscribe function. */
  subscribe(id: string, fn: Listener): () => void {
    const e = this.entries.get(id);
    if (!e) return () => {};
    e.listeners.add(fn);
    return () => e.listeners.delete(fn);
  }

  /** Calls fn on every change of any task. */
  onChange(fn: Listener): () => void {
    this.globalListeners.add(fn);
    return () => this.globalListeners.delete(fn);
  }

  /** Cancels everything and waits (at most `ms`) for the running task to stop; no new tasks after. */
  async shutdown(ms = 5000): Promise<void> {
    this.closed = true;
    for (const e of [...this.queue]) this.cancel(e.snap.task_id);
    const run = this.running;
    if (!run) return;
    this.cancel(run.snap.task_id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([run.settled, new Promise<void>((r) => (timer = setTimeout(r, ms)))]);
    clearTimeout(timer);
  }

  private pump(): void {
    if (this.running || this.queue.length === 0) return;
    const e = this.queue.shift()!;
    this.running = e;
    e.startedMs = this.now();
    e.snap.state = 'running';
    e.snap.started_at = new Date(e.startedMs).toISOString();
    this.emit(e);
    const ctx: TaskContext<unknown> = {
      signal: e.abort.signal,
      progress: (p) => {
        if (isFinal(e.snap.state)) return;
        e.snap.progress = p;
        this.emit(e);
      },
    };
    // Started on a later tick, so submit() returns before any work (and any synchronous throw) runs.
    Promise.resolve()
      .then(() => e.spec.run(ctx))
      .then(
        (result) => this.finish(e, 'done', { result }),
        (err) => {
          const error = this.toError(err);
          const cancelled = e.abort.signal.aborted || error.code === 'cancelled';
          this.finish(e, cancelled ? 'cancelled' : 'failed', { error });
        },
      )
      .finally(() => this.pump());
  }

  private finish(e: Entry, state: TaskState, out: { result?: unknown; error?: TaskError }): void {
    if (this.running === e) this.running = null;
    const end = this.now();
    e.snap.state = state;
    e.snap.finished_at = new Date(end).toISOString();
    e.snap.took_ms = e.startedMs === null ? null : end - e.startedMs;
    if (out.result !== undefined) e.snap.result = out.result;
    if (out.error) e.snap.error = out.error;
    this.emit(e);
    e.settle(this.copy(e));
    this.prune();
  }

  private prune(): void {
    const finished = [...this.entries.values()].filter((x) => isFinal(x.snap.state));
    for (const x of finished.slice(0, Math.max(0, finished.length - this.keepFinished))) this.entries.delete(x.snap.task_id);
  }

  private emit(e: Entry): void {
    const snap = this.copy(e);
    for (const fn of [...e.listeners, ...this.globalListeners]) {
      try {
        fn(snap);
      } catch {
        // a listener's failure is not the task's
      }
    }
  }

  private copy(e: Entry): TaskSnapshot {
    const s = e.snap;
    const took = s.took_ms ?? (e.startedMs !== null && !isFinal(s.state) ? this.now() - e.startedMs : null);
    return { ...s, took_ms: took, progress: s.progress && typeof s.progress === 'object' ? { ...(s.progress as object) } : s.progress };
  }
}
