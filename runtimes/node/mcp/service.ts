// What the MCP tools do, independent of the protocol: one workspace with a fixed root, its background
// indexing tasks, its watcher and freshness. Shared by every MCP session of a server process (stdio has
// one, Streamable HTTP one per client). Owns the answers' meaning: errors are answers (status
// `error`, a stable code, a hint that names MCP tools rather than CLI commands), every answer carries
// freshness, a search on a workspace without an index starts building it instead of blocking.
// Host-agnostic: the runtime (Node's `hci mcp`, runtimes/deno/mcp.ts) passes an McpHost that opens the
// workspace and, where it has one, creates the file watcher; nothing here loads a runtime's adapters.
import type { HciWorkspace, StatusReport, ExplainResponse } from '../../../core/workspace.ts';
import { HciError } from '../../../core/platform.ts';
import { CONTRACT_VERSION, type IndexFreshness, type SearchRequest, type SearchResponse } from '../../../core/search/contract.ts';
import type { IndexProgress, IndexSummary } from '../../../core/index/indexer.ts';
import { TaskRegistry, isFinal, type TaskSnapshot } from '../../../core/tasks.ts';
import { FreshnessTracker, changeFilter, wholePassFilter, type FreshnessStats, type WatcherStatus } from '../../../core/freshness.ts';
import type { WorkspaceFs } from '../../../core/platform.ts';
import type { Settings } from '../../../core/settings.ts';
import { PathGuard } from './paths.ts';
import type { OutlineSymbol } from '../../../core/search/symbols.ts';

export type WatchPreference = 'auto' | 'poll' | 'off';

/** A file watcher as the service drives it (runtimes/node/watcher.ts is Node's). */
export interface McpWatcher {
  readonly active: boolean;
  status(): WatcherStatus;
  /** Resolves once the watcher is ready (initial crawl done, or first poll scan). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface WatcherParams {
  root: string;
  fs: WorkspaceFs;
  settings: Settings;
  tracker: FreshnessTracker;
  prefer: 'auto' | 'poll';
  pollMs?: number;
  log?: (msg: string) => void;
}

/** What the runtime provides: opening the workspace with its adapters, and (optionally) a watcher. */
export interface McpHost {
  /** Short runtime name for answers, e.g. "Node" or "Deno". */
  name: string;
  openWorkspace(root: string): Promise<HciWorkspace>;
  /** Absent: this runtime has no watcher; `watch` answers `not_available`. */
  createWatcher?(p: WatcherParams): McpWatcher;
}

export interface ServiceOptions {
  root: string;
  host: McpHost;
  /** `auto` (default): OS events with a polling fallback; `poll`: polling only; `off`: no watcher at start. */
  watch?: WatchPreference;
  pollMs?: number;
  debounceMs?: number;
  /** How long a search waits for a first index before answering `indexing` (default 1500 ms). */
  firstIndexWaitMs?: number;
  log?: (msg: string) => void;
  /** Overrides host.openWorkspace (e.g. a workspace already being opened while the server loads). */
  open?: (root: string) => Promise<HciWorkspace>;
}

/** Per-call hooks from the protocol layer. */
export interface CallContext {
  signal?: AbortSignal;
  /** Sends an MCP progress notification (only when the client passed a progressToken). */
  progress?: (p: { progress: number; total?: number; message?: string }) => void;
}

export interface ReindexProgress {
  phase: IndexProgress['phase'];
  files_done: number;
  files_total: number;
  chunks: number;
}

/** `paths`: a run limited to these workspace-relative paths (IndexOptions.paths). */
type ReindexParams = { full: boolean; trigger: 'tool' | 'search' | 'watcher'; paths?: string[] };
type ReindexTask = TaskSnapshot<ReindexProgress, IndexSummary, ReindexParams>;

/** A task as tools show it: flat and small. */
export interface TaskView {
  task_id: string;
  kind: string;
  state: TaskSnapshot['state'];
  full: boolean;
  trigger: string;
  /** Only these paths (absent: the whole workspace). */
  paths?: string[];
  progress: ReindexProgress | null;
  cancel_requested: boolean;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  took_ms: number | null;
  result?: { generation: number; files_indexed: number; files_unchanged: number; files_removed: number; chunks_written: number; took_ms: number };
  error?: { code: string; message: string; hint?: string };
}

export interface WatcherView extends WatcherStatus {
  /** Relevant changes seen on disk and not in the index yet (null: unknown, the watcher is off). */
  pending: number | null;
  pending_sample?: string[];
  debounce_ms: number;
  runs: number;
  last_change_at: string | null;
  last_run_at: string | null;
  last_error: { code: string; message: string } | null;
}

export interface ErrorInfo {
  code: string;
  message: string;
  issues?: Array<{ path: string; message: string }>;
}

export type SearchAnswer = SearchResponse & { task?: TaskView };
export type StatusAnswer = Omit<StatusReport, 'error'> & { watcher: WatcherView; tasks: TaskView[]; task?: TaskView; error?: ErrorInfo };
export type ExplainAnswer = Omit<ExplainResponse, 'error'> & { error?: ErrorInfo };
export type { OutlineSymbol };
export interface OutlineAnswer {
  status: 'ok' | 'error';
  path: string;
  symbols: OutlineSymbol[];
  index: IndexFreshness | null;
  hint?: string;
  error?: ErrorInfo;
  [k: string]: unknown;
}
export interface ReindexAnswer {
  status: 'ok' | 'error';
  task: TaskView | null;
  /** True when an equal request was already waiting and its task is returned. */
  coalesced?: boolean;
  index: IndexFreshness | null;
  hint?: string;
  error?: ErrorInfo;
}
export interface WatchAnswer {
  status: 'ok' | 'error';
  watcher: WatcherView;
  index: IndexFreshness | null;
  hint?: string;
  error?: ErrorInfo;
}

/** The outline call of the chunking issue; used as soon as the workspace has it. */
type OutlineCapable = { outline?: (path: string) => Promise<Record<string, unknown>> };

const MAX_WAIT_MS = 50_000;
const DEFAULT_FIRST_INDEX_WAIT_MS = 1500;
const TOKEN_RESERVE = 150;

/** Core hints speak CLI; over MCP the same advice names the tools. */
export function mcpHint(h: string | undefined): string | undefined {
  if (!h) return h;
  return h
    .replace(/run `hci index --full`/g, 'call reindex with full: true')
    .replace(/`hci index --full`/g, 'reindex with full: true')
    .replace(/run `hci index`/g, 'call reindex')
    .replace(/`hci index`/g, 'reindex');
}

export function toErrorInfo(e: unknown): { error: ErrorInfo; hint?: string } {
  if (e instanceof HciError) return { error: { code: e.code, message: e.message }, hint: mcpHint(e.hint) };
  const x = e as { code?: unknown; message?: unknown; hint?: unknown };
  if (x && typeof x === 'object' && typeof x.code === 'string' && typeof x.message === 'string') {
    return { error: { code: x.code, message: x.message }, hint: mcpHint(typeof x.hint === 'string' ? x.hint : undefined) };
  }
  return { error: { code: 'internal', message: e instanceof Error ? e.message : String(e) }, hint: 'this is a bug in hci; the server keeps running' };
}

function viewTask(t: TaskSnapshot | null): TaskView | null {
  if (!t) return null;
  const p = t.params as ReindexParams;
  const v: TaskView = {
    task_id: t.task_id, kind: t.kind, state: t.state, full: !!p?.full, trigger: p?.trigger ?? 'tool',
    progress: (t.progress as ReindexProgress | null) ?? null, cancel_requested: t.cancel_requested,
    created_at: t.created_at, started_at: t.started_at, finished_at: t.finished_at, took_ms: t.took_ms,
  };
  if (p?.paths) v.paths = p.paths;
  const r = t.result as IndexSummary | undefined;
  if (r) {
    v.result = {
      generation: r.generation, files_indexed: r.files_indexed, files_unchanged: r.files_unchanged,
      files_removed: r.files_removed, chunks_written: r.chunks_written, took_ms: r.took_ms,
    };
  }
  if (t.error) v.error = { ...t.error, hint: mcpHint(t.error.hint) };
  if (!v.error?.hint) delete v.error?.hint;
  return v;
}

export class HciMcpService {
  readonly root: string;
  readonly paths: PathGuard;
  readonly tasks: TaskRegistry;
  private ws: HciWorkspace | null = null;
  private opening: Promise<HciWorkspace> | null = null;
  private tracker: FreshnessTracker | null = null;
  private watcher: McpWatcher | null = null;
  private watchPref: WatchPreference;
  /** Set once this process has the index store open: from then on calls may run concurrently. */
  private storeOpen = false;
  private gate: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly log: (msg: string) => void;

  constructor(private readonly opts: ServiceOptions) {
    this.root = opts.root;
    this.paths = new PathGuard(opts.root);
    this.tasks = new TaskRegistry({ keepFinished: 20 });
    this.watchPref = opts.watch ?? 'auto';
    this.log = opts.log ?? (() => {});
  }

  /** Opens the workspace and starts the watcher (unless `watch: off`). Never throws: failures show in answers. */
  async start(): Promise<void> {
    try {
      const ws = await this.workspace();
      // Open the store now when an index exists, so later calls never race to open it.
      await this.serialized(() => ws.status());
    } catch (e) {
      this.log(`workspace: ${toErrorInfo(e).error.message}`);
    }
    if (this.watchPref !== 'off' && this.opts.host.createWatcher) await this.setWatch(true, 2000).catch((e) => this.log(`watcher: ${(e as Error).message}`));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watcher?.stop().catch(() => {});
    await this.tasks.shutdown(5000);
    this.ws?.close();
    this.ws = null;
  }

  // ── workspace and store ───────────────────────────────────────────────────────────────────────

  /** The workspace, opened on first use; a bad settings file is retried on every call until fixed. */
  private async workspace(): Promise<HciWorkspace> {
    if (this.ws) return this.ws;
    this.opening ??= (this.opts.open ?? ((r: string) => this.opts.host.openWorkspace(r)))(this.root).then(
      (ws) => {
        this.ws = ws;
        this.opening = null;
        return ws;
      },
      (e) => {
        this.opening = null;
        throw e;
      },
    );
    return this.opening;
  }

  /**
   * Runs a call that may be the first to open the index store. Until the store is open, such calls
   * run one at a time (two concurrent first opens would each create a connection); afterwards freely.
   */
  private async serialized<T>(fn: () => Promise<T>, opened?: (r: T) => boolean): Promise<T> {
    if (this.storeOpen) return fn();
    const prev = this.gate;
    let release!: () => void;
    this.gate = new Promise<void>((r) => (release = r));
    try {
      await prev;
      const out = await fn();
      if (opened ? opened(out) : true) this.storeOpen = this.storeOpen || this.storeLooksOpen(out);
      return out;
    } finally {
      release();
    }
  }

  private storeLooksOpen(out: unknown): boolean {
    const s = (out as { status?: string; index?: unknown } | null)?.status;
    return s !== 'no_index' && s !== 'error' && (out as { index?: unknown }).index != null;
  }

  // ── freshness ─────────────────────────────────────────────────────────────────────────────────

  private withPending(index: IndexFreshness | null): IndexFreshness | null {
    if (!index) return index;
    if (this.watcher?.active && this.tracker) return { ...index, pending_changes: this.tracker.pendingCount() };
    return index;
  }

  /** How current the index is right now (null: no index, or it cannot be read). */
  async freshness(): Promise<IndexFreshness | null> {
    try {
      const ws = await this.workspace();
      const r = await this.serialized(() => ws.status());
      return this.withPending(r.index);
    } catch {
      return null;
    }
  }

  watcherView(): WatcherView {
    const st: WatcherStatus = this.watcher?.status() ?? { state: 'off', mode: null, since: null };
    const fs: FreshnessStats | null = this.tracker?.stats() ?? null;
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
    if (!this.opts.host.createWatcher && !st.reason) v.reason = `no file watcher in the ${this.opts.host.name} server: call reindex after editing files`;
    if (!on && this.watchPref === 'off' && !st.reason && !v.reason) v.reason = 'call watch with enabled: true to turn it on';
    return v;
  }

  // ── indexing tasks ────────────────────────────────────────────────────────────────────────────

  /**
   * Queues an indexing run, or returns a waiting one that covers it (a queued full run covers an
   * incremental request, a whole incremental run covers one limited to some paths). With
   * `joinRunning`, a running task counts too (a first build for search).
   */
  private startIndex(full: boolean, trigger: ReindexParams['trigger'], joinRunning = false, paths?: string[]): { task: ReindexTask; coalesced: boolean } {
    const active = this.tasks.active().filter((t) => t.kind === 'reindex') as ReindexTask[];
    const covers = (t: ReindexTask) => t.params.full || (!full && (!t.params.paths || (!!paths && paths.every((p) => t.params.paths!.includes(p)))));
    const covering = active.find((t) => !t.cancel_requested && (t.state === 'queued' || joinRunning) && covers(t));
    if (covering) return { task: covering, coalesced: true };
    return this.tasks.submit<ReindexProgress, IndexSummary, ReindexParams>({
      kind: 'reindex',
      params: paths ? { full, trigger, paths } : { full, trigger },
      coalesceKey: full ? 'full' : paths ? `paths:${JSON.stringify([...paths].sort())}` : 'incremental',
      run: async ({ signal, progress }) => {
        const ws = await this.workspace();
        const mark = this.tracker?.mark();
        let indexing!: Promise<IndexSummary>;
        let firstProgress!: () => void;
        const started = new Promise<void>((r) => (firstProgress = r));
        await this.serialized(async () => {
          indexing = ws.index({
            full,
            paths,
            signal,
            onProgress: (p) => {
              this.storeOpen = true; // progress comes after the store is open and the indexer claimed
              firstProgress();
              progress({ phase: p.phase, files_done: p.filesDone, files_total: p.filesTotal, chunks: p.chunks });
            },
          });
          await Promise.race([started, indexing.catch(() => {})]);
        }, () => false);
        const summary = await indexing;
        // Every change the watcher saw before this run began (at or below its paths) is in the index now.
        if (mark !== undefined) this.tracker?.settle(mark, paths);
        return summary;
      },
    });
  }

  /** Waits for a task (bounded), relaying its progress as MCP progress notifications. */
  private async follow(taskId: string, waitMs: number, ctx: CallContext): Promise<TaskSnapshot | null> {
    const ms = Math.min(Math.max(0, waitMs), MAX_WAIT_MS);
    let last = -1;
    let lastAt = 0;
    const send = (t: TaskSnapshot) => {
      if (!ctx.progress) return;
      const p = t.progress as ReindexProgress | null;
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

  // ── tools ─────────────────────────────────────────────────────────────────────────────────────

  async search(args: {
    query: string; limit?: number; paths?: string[]; exts?: string[]; exclude_paths?: string[];
    mode?: SearchRequest['mode']; max_tokens?: number; cursor?: string;
  }, ctx: CallContext = {}): Promise<SearchAnswer> {
    const t0 = Date.now();
    const base: SearchAnswer = {
      contract_version: CONTRACT_VERSION, status: 'error', query: args.query ?? '', mode: args.mode ?? 'keyword', match: 'none',
      hits: [], took_ms: 0, index: null, skipped: {}, truncated: false,
    };
    try {
      const req: SearchRequest = {
        query: args.query,
        limit: args.limit,
        paths: args.paths?.map((p) => this.paths.toRelative(p, 'paths filter')).map((p) => (p === '' ? '**' : p)),
        exts: args.exts,
        exclude_paths: args.exclude_paths?.map((p) => this.paths.toRelative(p, 'exclude_paths filter')),
        mode: args.mode,
        // The core budgets the contract answer; MCP adds a little (task, longer hints): keep room for it.
        max_tokens: args.max_tokens === undefined ? undefined : Math.max(100, args.max_tokens - TOKEN_RESERVE),
        cursor: args.cursor,
      };
      const ws = await this.workspace();
      let res: SearchAnswer = await this.serialized(() => ws.search(req));
      let builtNow: TaskSnapshot | null = null;
      if (res.status === 'no_index') {
        const { task } = this.startIndex(false, 'search', true);
        const t = await this.follow(task.task_id, this.opts.firstIndexWaitMs ?? DEFAULT_FIRST_INDEX_WAIT_MS, ctx);
        if (t?.state === 'failed') {
          const err = t.error!;
          return { ...base, took_ms: Date.now() - t0, error: { code: err.code, message: err.message }, hint: mcpHint(err.hint), task: viewTask(t)! };
        }
        if (t?.state === 'done') builtNow = t;
        res = await this.serialized(() => ws.search(req));
        if (res.status === 'no_index') {
          const cur = viewTask(this.tasks.get(task.task_id))!;
          const p = cur.progress;
          return {
            ...base, status: 'indexing', took_ms: Date.now() - t0, index: this.withPending(res.index), task: cur,
            hint: `building the index for the first time (${p ? `${p.files_done}/${p.files_total || '?'} files` : 'starting'}); ` +
              `search again in a few seconds, or call status with task_id "${cur.task_id}" to follow it`,
          };
        }
      }
      res.index = this.withPending(res.index);
      res.hint = mcpHint(res.hint);
      const active = this.tasks.current();
      if (active) res.task = viewTask(active)!;
      else if (builtNow) {
        res.task = viewTask(builtNow)!;
        res.hint = [`the index was just built (${builtNow.took_ms ?? '?'} ms)`, res.hint].filter(Boolean).join('; ');
      }
      if (res.status === 'ok' && res.index?.pending_changes) {
        const n = res.index.pending_changes;
        res.hint = [res.hint, `${n} changed file${n === 1 ? '' : 's'} not indexed yet (the watcher re-indexes within a second)`].filter(Boolean).join('; ');
      }
      if (res.hint === undefined) delete res.hint;
      return res;
    } catch (e) {
      const { error, hint } = toErrorInfo(e);
      return { ...base, took_ms: Date.now() - t0, error, ...(hint ? { hint } : {}) };
    }
  }

  async explain(args: { hit_id: string; query?: string; max_lines?: number }): Promise<ExplainAnswer> {
    try {
      const ws = await this.workspace();
      const r = (await this.serialized(() => ws.explain(args.hit_id, { query: args.query }))) as ExplainAnswer;
      r.index = this.withPending(r.index);
      r.hint = mcpHint(r.hint);
      if (r.hint === undefined) delete r.hint;
      const e = r.explanation;
      if (e) {
        const max = args.max_lines ?? 60;
        const lines = e.text.split('\n');
        if (lines.length > max) {
          e.text = lines.slice(0, max).join('\n');
          e.text_truncated = true;
        }
      }
      return r;
    } catch (e) {
      const { error, hint } = toErrorInfo(e);
      return { status: 'error', hit_id: args.hit_id, index: null, error, ...(hint ? { hint } : {}) };
    }
  }

  async outline(args: { path: string }): Promise<OutlineAnswer> {
    let rel = String(args.path);
    try {
      rel = this.paths.toRelative(args.path);
      if (rel === '' || rel.endsWith('/')) {
        throw new HciError('invalid_arguments', 'outline needs a file path, not a folder', 'pass one file, e.g. src/Web/Program.cs; use search with path:<folder> to explore a folder');
      }
      const ws = await this.workspace();
      const outline = (ws as unknown as OutlineCapable).outline;
      if (typeof outline === 'function') {
        const r = (await this.serialized(() => outline.call(ws, rel))) as OutlineAnswer;
        r.index = this.withPending((r.index as IndexFreshness | null) ?? null);
        r.hint = mcpHint(r.hint);
        if (r.hint === undefined) delete r.hint;
        r.symbols ??= [];
        r.path ??= rel;
        return r;
      }
      return {
        status: 'error', path: rel, symbols: [], index: await this.freshness(),
        error: { code: 'not_available', message: 'outline needs structural (tree-sitter) chunking, which this build of hci does not have yet' },
        hint: `search with path:${rel} lists the indexed chunks of this file; or read the file`,
      };
    } catch (e) {
      const { error, hint } = toErrorInfo(e);
      return { status: 'error', path: rel, symbols: [], index: null, error, ...(hint ? { hint } : {}) };
    }
  }

  async status(args: { task_id?: string; check_pending?: boolean; wait_ms?: number }, ctx: CallContext = {}): Promise<StatusAnswer> {
    let task: TaskView | undefined;
    const answer = (r: StatusReport): StatusAnswer => {
      const { error, ...rest } = r;
      const out: StatusAnswer = {
        ...rest, index: this.withPending(r.index), hint: mcpHint(r.hint), watcher: this.watcherView(),
        tasks: this.tasks.list().slice(0, 5).map((t) => viewTask(t)!),
        ...(error ? { error } : {}), ...(task ? { task } : {}),
      };
      if (out.hint === undefined) delete out.hint;
      return out;
    };
    const empty: StatusReport = {
      status: 'error', index: null, format_version: null, engine: '', files_by_lang: {}, skipped: {}, skipped_samples: [], last_run: null, pending: null,
    };
    try {
      if (args.task_id !== undefined) {
        const t = await this.follow(args.task_id, args.wait_ms ?? 0, ctx);
        if (!t) {
          throw new HciError('unknown_task', `no task "${args.task_id}" on this server`, 'task ids live as long as the server process; call reindex to start a new run');
        }
        task = viewTask(t)!;
      }
      const ws = await this.workspace();
      const checkPending = args.check_pending ?? !this.watcher?.active;
      const r = await this.serialized(() => ws.status({ checkPending }));
      const out = answer(r);
      if (r.status === 'no_index') out.hint = 'no index yet: call reindex (or just search, which starts it)';
      out.skipped_samples = out.skipped_samples.slice(0, 10);
      return out;
    } catch (e) {
      const { error, hint } = toErrorInfo(e);
      return answer({ ...empty, hint, error } as StatusReport);
    }
  }

  async reindex(args: { full?: boolean; paths?: string[]; cancel?: boolean; task_id?: string; wait_ms?: number }, ctx: CallContext = {}): Promise<ReindexAnswer> {
    try {
      if (args.cancel) {
        const id = args.task_id ?? this.tasks.active().find((t) => t.kind === 'reindex')?.task_id;
        if (!id) throw new HciError('no_task', 'no indexing run to cancel', 'status lists the recent tasks');
        const t = this.tasks.cancel(id);
        if (!t) throw new HciError('unknown_task', `no task "${id}" on this server`, 'status lists the recent tasks');
        const final = await this.tasks.waitFor(id, 5000, ctx.signal);
        const v = viewTask(final)!;
        return {
          status: 'ok', task: v, index: await this.freshness(),
          hint: v.state === 'cancelled' ? 'cancelled; the index keeps every file committed so far (a later reindex finishes the job)'
            : isFinal(v.state) ? `the task had already ended (${v.state})` : 'cancellation requested; the run stops after the current batch',
        };
      }
      if (args.task_id !== undefined) {
        throw new HciError('invalid_arguments', 'task_id is only used with cancel: true', 'to follow a task, call status with task_id');
      }
      let paths: string[] | undefined;
      if (args.paths !== undefined) {
        if (args.full) throw new HciError('invalid_arguments', 'full and paths do not go together', 'full: true rebuilds every file; paths updates only the files or folders given');
        // Relative to the workspace as the core takes them; the workspace root itself means a whole pass.
        const rel = args.paths.map((p) => this.paths.toRelative(p, 'paths entry').replace(/\/+$/, ''));
        if (!rel.includes('')) paths = [...new Set(rel)];
      }
      await this.workspace();
      const { task, coalesced } = this.startIndex(!!args.full, 'tool', false, paths);
      const t = (await this.follow(task.task_id, args.wait_ms ?? 0, ctx)) ?? task;
      const v = viewTask(t)!;
      if (v.state === 'failed' && v.error) {
        return { status: 'error', task: v, index: await this.freshness(), error: { code: v.error.code, message: v.error.message }, ...(v.error.hint ? { hint: v.error.hint } : {}) };
      }
      return {
        status: 'ok', task: v, coalesced, index: await this.freshness(),
        hint: isFinal(v.state) ? `indexing ${v.state}` : `indexing in the background; call status with task_id "${v.task_id}" (and wait_ms) to follow it`,
      };
    } catch (e) {
      const { error, hint } = toErrorInfo(e);
      return { status: 'error', task: null, index: await this.freshness(), error, ...(hint ? { hint } : {}) };
    }
  }

  async watch(args: { enabled: boolean }): Promise<WatchAnswer> {
    try {
      this.watchPref = args.enabled ? (this.opts.watch === 'poll' ? 'poll' : 'auto') : 'off';
      await this.setWatch(args.enabled, 3000);
      const v = this.watcherView();
      return {
        status: 'ok', watcher: v, index: await this.freshness(),
        hint: args.enabled
          ? `watching ${v.mode === 'polling' ? `by polling every ${v.poll_interval_ms} ms` : 'with OS file events'}; changes are indexed about ${v.debounce_ms} ms after they stop`
          : 'not watching: answers cannot know about changes on disk; call reindex after editing files, or status with check_pending: true',
      };
    } catch (e) {
      const { error, hint } = toErrorInfo(e);
      return { status: 'error', watcher: this.watcherView(), index: await this.freshness(), error, ...(hint ? { hint } : {}) };
    }
  }

  /** Turns the watcher on or off; waits at most `readyMs` for its initial crawl. */
  private async setWatch(on: boolean, readyMs: number): Promise<void> {
    if (!on) {
      await this.watcher?.stop();
      return;
    }
    const createWatcher = this.opts.host.createWatcher;
    if (!createWatcher) {
      throw new HciError(
        'not_available',
        `file watching is not available in the ${this.opts.host.name} MCP server`,
        'call reindex after editing files (it is incremental), or status with check_pending: true to see what changed',
      );
    }
    const ws = await this.workspace();
    if (!this.tracker) {
      this.tracker = new FreshnessTracker({
        debounceMs: this.opts.debounceMs ?? 300,
        isRelevant: changeFilter(ws.settings),
        needsWholePass: wholePassFilter(ws.settings),
        run: async ({ paths }) => {
          if (this.closed) return { ok: 'skipped', reason: 'shutting down' };
          if (!(await ws.host.storage.exists())) return { ok: 'skipped', reason: 'no index yet' };
          // Only the changed paths when the tracker has them (no scan of the whole tree), else a whole pass.
          const { task } = this.startIndex(false, 'watcher', false, paths ?? undefined);
          const final = await this.tasks.settled(task.task_id);
          if (final?.state === 'done') return { ok: true };
          const err = final?.error ?? { code: 'internal', message: 'the indexing run ended without a result' };
          return { ok: false, retry: err.code === 'index_busy', error: { code: err.code, message: err.message } };
        },
      });
    }
    this.watcher ??= createWatcher.call(this.opts.host, {
      root: this.root, fs: ws.host.fs, settings: ws.settings, tracker: this.tracker,
      prefer: this.watchPref === 'poll' ? 'poll' : 'auto', pollMs: this.opts.pollMs, log: this.log,
    });
    if (this.watcher.active) return;
    const ready = this.watcher.start().then(async () => {
      // Changes made while nobody watched are unknown: one incremental run catches up.
      if (this.watcher?.active && (await ws.host.storage.exists())) this.tracker?.markUnknown('catch-up');
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([ready, new Promise<void>((r) => (timer = setTimeout(r, readyMs)))]);
    clearTimeout(timer);
  }
}
