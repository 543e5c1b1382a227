// Indexing runs through the task registry: queueing with coalescing (a waiting run that covers a new
// request is returned instead of a second one), following a run with bounded waits and progress
// notices, and running one pass to its end for callers that wait for it (the CLI, the browser
// Worker), never without the workspace's files (a browser workspace opened from its stored index).
// Owns these rules; the pass itself is HciWorkspace.index, the task states core/tasks.ts.
import { HciError } from '../platform.ts';
import { hintFor, type Surface } from '../contract/errors.ts';
import type { IndexSummary, TaskProgress } from '../contract/tasks.ts';
import type { IndexProgress } from '../index/indexer.ts';
import type { FreshnessTracker } from '../freshness.ts';
import { isFinal, type TaskRegistry, type TaskSnapshot } from '../tasks.ts';
import type { CallContext } from './host.ts';
import type { WorkspaceGate } from './workspace-gate.ts';
import type { ReindexParams, ReindexTask } from './views.ts';

const MAX_WAIT_MS = 50_000;

export interface RunOptions {
  full?: boolean;
  /** Workspace-relative paths (already checked against the root). */
  paths?: string[];
  signal?: AbortSignal;
  /** The indexer's own progress reports (the CLI's progress bar, the browser page). */
  onProgress?: (p: IndexProgress) => void;
  batchMs?: number;
}

/** What a caller that waits for its own run adds. */
interface RunExtras {
  /** Never joins a waiting task: its progress and result are its own. */
  alone?: boolean;
  onProgress?: (p: IndexProgress) => void;
  batchMs?: number;
}

export class IndexRuns {
  constructor(
    private readonly tasks: TaskRegistry,
    private readonly gate: WorkspaceGate,
    private readonly tracker: () => FreshnessTracker | null,
    private readonly surface: Surface,
    /** Whether the workspace's files are at hand (ServiceHost.hasSource): no run starts without them. */
    private readonly hasSource: () => boolean = () => true,
    private readonly root = '',
    /** A published index (ServiceHost.readOnly): no run starts. */
    private readonly readOnly = false,
  ) {}

  /**
   * Queues an indexing run, or returns a waiting one that covers it (a queued full run covers an
   * incremental request, a whole incremental run covers one limited to some paths). With
   * `joinRunning`, a running task counts too (a first build for search).
   */
  start(full: boolean, trigger: ReindexParams['trigger'], joinRunning = false, paths?: string[], extra: RunExtras = {}): { task: ReindexTask; coalesced: boolean } {
    if (this.readOnly) {
      throw new HciError('not_available', `the index at ${this.root} is a published, read-only index: nothing indexes it here`, 'index the repository where its files are, pack it again (hci pack) and publish the new file');
    }
    if (!this.hasSource()) {
      // A pass over no files would remove every file from the index.
      throw new HciError('no_source', `workspace "${this.root}" has no files to index in this session`, 'open it with a source (a folder, a file list or a .zip); searching the stored index works without one');
    }
    const active = this.tasks.active().filter((t) => t.kind === 'reindex') as ReindexTask[];
    const covers = (t: ReindexTask) => t.params.full || (!full && (!t.params.paths || (!!paths && paths.every((p) => t.params.paths!.includes(p)))));
    const covering = extra.alone ? undefined : active.find((t) => !t.cancel_requested && (t.state === 'queued' || joinRunning) && covers(t));
    if (covering) return { task: covering, coalesced: true };
    return this.tasks.submit<TaskProgress, IndexSummary, ReindexParams>({
      kind: 'reindex',
      params: paths ? { full, trigger, paths } : { full, trigger },
      coalesceKey: extra.alone ? undefined : full ? 'full' : paths ? `paths:${JSON.stringify([...paths].sort())}` : 'incremental',
      run: async ({ signal, progress }) => {
        const ws = await this.gate.workspace();
        const tracker = this.tracker();
        const mark = tracker?.mark();
        let indexing!: Promise<IndexSummary>;
        let firstProgress!: () => void;
        const started = new Promise<void>((r) => (firstProgress = r));
        await this.gate.serialized(async () => {
          indexing = ws.index({
            full,
            paths,
            signal,
            batchMs: extra.batchMs,
            onProgress: (p) => {
              this.gate.markStoreOpen();
              firstProgress();
              progress({ phase: p.phase, files_done: p.filesDone, files_total: p.filesTotal, chunks: p.chunks });
              extra.onProgress?.(p);
            },
          });
          await Promise.race([started, indexing.catch(() => {})]);
        }, () => false);
        const summary = await indexing;
        // Every change the watcher saw before this run began (at or below its paths) is in the index now.
        if (mark !== undefined) tracker?.settle(mark, paths);
        return summary;
      },
    });
  }

  /** Waits for a task (bounded), relaying its progress as progress notifications. */
  async follow(taskId: string, waitMs: number, ctx: CallContext): Promise<TaskSnapshot | null> {
    const ms = Math.min(Math.max(0, waitMs), MAX_WAIT_MS);
    let last = -1;
    let lastAt = 0;
    const send = (t: TaskSnapshot) => {
      if (!ctx.progress) return;
      const p = t.progress as TaskProgress | null;
      const done = p?.files_done ?? 0;
      const final = isFinal(t.state);
      // Progress values must increase; at most ~10 notices a second.
      if (done <= last && !(final && last < 0)) return;
      if (!final && Date.now() - lastAt < 100) return;
      last = done;
      lastAt = Date.now();
      ctx.progress({ progress: done, ...(p?.files_total ? { total: p.files_total } : {}), message: `${t.state}: ${p?.phase ?? 'queued'} ${done}/${p?.files_total ?? '?'} files` });
    };
    const now = this.tasks.get(taskId);
    if (now) send(now);
    if (ms === 0) return now;
    const unsub = this.tasks.subscribe(taskId, send);
    try {
      return await this.tasks.waitFor(taskId, ms, ctx.signal);
    } finally {
      unsub();
    }
  }

  /**
   * One pass to its end, as its own task (never joined with another, so its progress is its own):
   * the summary, or the run's error thrown as an HciError (`cancelled` when the signal fired).
   */
  async run(opts: RunOptions): Promise<IndexSummary> {
    const { task } = this.start(!!opts.full, 'tool', false, opts.paths, { alone: true, onProgress: opts.onProgress, batchMs: opts.batchMs });
    const cancel = () => this.tasks.cancel(task.task_id);
    if (opts.signal?.aborted) cancel();
    opts.signal?.addEventListener('abort', cancel, { once: true });
    try {
      const final = (await this.tasks.settled(task.task_id))!;
      if (final.state === 'done') return final.result as IndexSummary;
      const err = final.error ?? { code: 'internal', message: 'the indexing run ended without a result' };
      throw new HciError(err.code, err.message, hintFor(this.surface, err.hint));
    } finally {
      opts.signal?.removeEventListener('abort', cancel);
    }
  }

  /** The reindex task queued or running now, if any. */
  active(): ReindexTask | undefined {
    return this.tasks.active().find((t) => t.kind === 'reindex') as ReindexTask | undefined;
  }
}
