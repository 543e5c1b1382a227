// The calls every surface makes (search, explain, outline, resolve, the browse calls files, file and
// facets, status, index, and the intercom calls of intercom.ts), with the policy around the core: one
// workspace with a fixed root, its background indexing tasks, its watcher and freshness. The MCP servers (Node and Deno; every
// session of a server shares one), the browser Worker (one per open workspace) and the CLI (one per
// command) all answer through it. Owns the answers' meaning: errors are answers (status `error`, a
// stable code, a hint worded for the surface), every answer carries freshness, and — where the
// surface wants it — a search on a workspace without an index starts building it instead of
// blocking. Host-neutral: the runtime passes a ServiceHost (adapters, path rule, watcher).
import type { HciWorkspace } from '../workspace.ts';
import { HciError } from '../platform.ts';
import { CONTRACT_VERSION } from '../contract/version.ts';
import type { IndexFreshness } from '../contract/common.ts';
import { hintFor, type Surface } from '../contract/errors.ts';
import type { SearchAnswer, SearchRequest } from '../contract/search.ts';
import type { ExplainRequest, ExplainResponse } from '../contract/explain.ts';
import type { SimilarAnswer, SimilarRequest } from '../contract/similar.ts';
import type { OutlineRequest, OutlineResponse, ResolveRequest, ResolveResponse } from '../contract/outline.ts';
import type { HostStatus, StatusReport, StatusRequest } from '../contract/status.ts';
import type { IndexSummary, ReindexAnswer, ReindexRequest, TaskView } from '../contract/tasks.ts';
import type { WatchAnswer, WatchRequest, WatcherView } from '../contract/watch.ts';
import type {
  FindRequest, IntercomFindAnswer, IntercomMarkersAnswer, IntercomMessagesAnswer, IntercomRelateAnswer, MarkersRequest, MessagesRequest,
} from '../contract/intercom.ts';
import { TaskRegistry, isFinal, type TaskSnapshot } from '../tasks.ts';
import { SURFACES, type CallContext, type ServiceOptions, type SurfacePolicy } from './host.ts';
import type { PathGuard } from './paths.ts';
import { IndexRuns, type RunOptions } from './indexing.ts';
import { WatchControl } from './watching.ts';
import type { FacetsRequest, FacetsResponse, FileRequest, FileResponse, FilesRequest, FilesResponse } from '../contract/browse.ts';
import { WorkspaceGate } from './workspace-gate.ts';
import { errorFields, tidyHint, toErrorInfo, viewTask } from './views.ts';
import { IntercomCalls, type IntercomRelateCall } from './intercom.ts';

const DEFAULT_FIRST_INDEX_WAIT_MS = 1500;

/** A status answer: the core's report, plus the host's watcher and tasks where the surface shows them. */
export type StatusAnswer = StatusReport & Partial<Pick<HostStatus, 'watcher' | 'tasks' | 'task'>>;

export class HciService {
  readonly root: string;
  readonly surface: Surface;
  readonly paths: PathGuard;
  readonly tasks: TaskRegistry;
  private readonly policy: SurfacePolicy;
  private readonly gate: WorkspaceGate;
  private readonly runs: IndexRuns;
  private readonly watching: WatchControl;
  private readonly intercom: IntercomCalls;
  private closed = false;
  private readonly log: (msg: string) => void;

  constructor(private readonly opts: ServiceOptions) {
    this.root = opts.root;
    this.surface = opts.surface;
    this.policy = SURFACES[opts.surface];
    this.paths = opts.host.pathGuard(opts.root);
    this.tasks = new TaskRegistry({ keepFinished: 20 });
    this.log = opts.log ?? (() => {});
    this.gate = new WorkspaceGate(() => (opts.open ?? ((r: string) => opts.host.openWorkspace(r)))(this.root));
    this.runs = new IndexRuns(this.tasks, this.gate, () => this.watching.tracker, this.surface);
    this.watching = new WatchControl(opts, this.gate, this.runs, this.tasks, () => this.closed);
    this.intercom = new IntercomCalls({
      root: this.root, host: opts.host, surface: this.surface, policy: this.policy, gate: this.gate, freshness: () => this.freshness(), hint: (h) => this.hint(h),
    });
  }

  /**
   * What this service's watcher will be, for descriptions written before it starts: `unavailable`
   * (the host has none, e.g. Deno), `on` (started by start()) or `off` (`watch: off`; the watch call
   * turns it on).
   */
  get watcherPlan(): 'unavailable' | 'on' | 'off' {
    return !this.opts.host.createWatcher ? 'unavailable' : this.watching.wanted ? 'on' : 'off';
  }

  /** Opens the workspace and starts the watcher (unless `watch: off`). Never throws: failures show in answers. */
  async start(): Promise<void> {
    try {
      const ws = await this.gate.workspace();
      // Open the store now when an index exists, so later calls never race to open it.
      await this.gate.serialized(() => ws.status());
    } catch (e) {
      this.log(`workspace: ${toErrorInfo(e, this.surface).error.message}`);
    }
    if (this.watching.wanted) await this.watching.set(true, 2000).catch((e) => this.log(`watcher: ${(e as Error).message}`));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.watching.stop();
    await this.tasks.shutdown(5000);
    this.intercom.close();
    this.gate.close();
  }

  /** The workspace (opened on first use); for hosts that also reach its storage (the browser Worker). */
  workspace(): Promise<HciWorkspace> {
    return this.gate.workspace();
  }

  /** How current the index is right now (null: no index, or it cannot be read). */
  async freshness(): Promise<IndexFreshness | null> {
    try {
      const ws = await this.gate.workspace();
      const r = await this.gate.serialized(() => ws.status());
      return this.watching.withPending(r.index);
    } catch {
      return null;
    }
  }

  watcherView(): WatcherView {
    return this.watching.view();
  }

  /** The core hint worded for this service's surface. */
  hint(h: string | undefined): string | undefined {
    return hintFor(this.surface, h);
  }

  /** A core answer as this service shows it: pending changes in its freshness, its hint worded for the surface. */
  private current<T extends { index: IndexFreshness | null; hint?: string }>(r: T): T {
    r.index = this.watching.withPending(r.index);
    r.hint = this.hint(r.hint);
    return tidyHint(r);
  }

  // ── search and reading ────────────────────────────────────────────────────────────────────────

  async search(args: SearchRequest, ctx: CallContext = {}): Promise<SearchAnswer> {
    const t0 = Date.now();
    const base: SearchAnswer = {
      contract_version: CONTRACT_VERSION, status: 'error', query: typeof args?.query === 'string' ? args.query : '', mode: args?.mode ?? 'keyword',
      match: 'none', hits: [], took_ms: 0, index: null, skipped: {}, truncated: false,
    };
    try {
      const reserve = this.policy.tokenReserve;
      const req: SearchRequest = {
        ...args,
        paths: args.paths?.map((p) => this.paths.toRelative(p, 'paths filter')).map((p) => (p === '' ? '**' : p)),
        exclude_paths: args.exclude_paths?.map((p) => this.paths.toRelative(p, 'exclude_paths filter')),
        // The core budgets the contract answer; a host that adds to it (task, longer hints) keeps room.
        max_tokens: args.max_tokens === undefined || reserve === 0 ? args.max_tokens : Math.max(100, args.max_tokens - reserve),
      };
      const ws = await this.gate.workspace();
      let res: SearchAnswer = await this.gate.serialized(() => ws.search(req));
      let builtNow: TaskSnapshot | null = null;
      if (res.status === 'no_index' && this.policy.buildOnSearch) {
        const { task } = this.runs.start(false, 'search', true);
        const t = await this.runs.follow(task.task_id, this.opts.firstIndexWaitMs ?? DEFAULT_FIRST_INDEX_WAIT_MS, ctx);
        if (t?.state === 'failed') {
          const err = t.error!;
          return { ...base, took_ms: Date.now() - t0, error: { code: err.code, message: err.message }, hint: this.hint(err.hint), task: viewTask(t, this.surface)! };
        }
        if (t?.state === 'done') builtNow = t;
        res = await this.gate.serialized(() => ws.search(req));
        if (res.status === 'no_index') {
          const cur = viewTask(this.tasks.get(task.task_id), this.surface)!;
          const p = cur.progress;
          return {
            ...base, status: 'indexing', took_ms: Date.now() - t0, index: this.watching.withPending(res.index), task: cur,
            hint: `building the index for the first time (${p ? `${p.files_done}/${p.files_total || '?'} files` : 'starting'}); ` +
              `search again in a few seconds, or call status with task_id "${cur.task_id}" to follow it`,
          };
        }
      }
      res.index = this.watching.withPending(res.index);
      res.hint = this.hint(res.hint);
      const active = this.tasks.current();
      if (active) res.task = viewTask(active, this.surface)!;
      else if (builtNow) {
        res.task = viewTask(builtNow, this.surface)!;
        res.hint = [`the index was just built (${builtNow.took_ms ?? '?'} ms)`, res.hint].filter(Boolean).join('; ');
      }
      if (res.status === 'ok' && res.index?.pending_changes && this.watching.active) {
        const n = res.index.pending_changes;
        res.hint = [res.hint, `${n} changed file${n === 1 ? '' : 's'} not indexed yet (the watcher re-indexes within a second)`].filter(Boolean).join('; ');
      }
      return tidyHint(res);
    } catch (e) {
      return { ...base, took_ms: Date.now() - t0, ...errorFields(e, this.surface) };
    }
  }

  /** "More like this": chunks near a hit, a file's line or a snippet (semantic search on). Paths are checked here. */
  async similar(args: SimilarRequest): Promise<SimilarAnswer> {
    const t0 = Date.now();
    try {
      const req: SimilarRequest = {
        ...args,
        path: args.path === undefined ? undefined : this.paths.toRelative(args.path),
        paths: args.paths?.map((p) => this.paths.toRelative(p, 'paths filter')).map((p) => (p === '' ? '**' : p)),
        exclude_paths: args.exclude_paths?.map((p) => this.paths.toRelative(p, 'exclude_paths filter')),
      };
      const ws = await this.gate.workspace();
      const res: SimilarAnswer = this.current(await this.gate.serialized(() => ws.similar(req)));
      const active = this.tasks.current();
      if (active) res.task = viewTask(active, this.surface)!;
      return tidyHint(res);
    } catch (e) {
      return {
        contract_version: CONTRACT_VERSION, status: 'error', query: '', mode: 'semantic', match: 'none', hits: [], took_ms: Date.now() - t0, index: null,
        skipped: {}, truncated: false, source: null, ...errorFields(e, this.surface),
      };
    }
  }

  async explain(args: ExplainRequest): Promise<ExplainResponse> {
    try {
      const ws = await this.gate.workspace();
      const r = this.current(await this.gate.serialized(() => ws.explain(args.hit_id, args.query === undefined ? {} : { query: args.query })));
      const e = r.explanation;
      const max = args.max_lines ?? this.policy.explainLines;
      if (e && max !== undefined) {
        const lines = e.text.split('\n');
        if (lines.length > max) {
          e.text = lines.slice(0, max).join('\n');
          e.text_truncated = true;
        }
      }
      return tidyHint(r);
    } catch (e) {
      return { status: 'error', hit_id: args.hit_id, index: null, ...errorFields(e, this.surface) };
    }
  }

  async outline(args: OutlineRequest): Promise<OutlineResponse> {
    let rel = String(args.path);
    try {
      rel = this.paths.toRelative(args.path);
      if (rel === '' || rel.endsWith('/')) {
        throw new HciError('invalid_arguments', 'outline needs a file path, not a folder', 'pass one file, e.g. src/Web/Program.cs; use search with path:<folder> to explore a folder');
      }
      const ws = await this.gate.workspace();
      const res = this.current(await this.gate.serialized(() => ws.outline(rel)));
      // Only a guard that keeps `\` as a name character (POSIX) lets one through: say how it was read.
      if (res.error?.code === 'not_indexed' && rel.includes('\\')) res.hint = [res.hint, '\\ is part of a file name here: separate folders with /'].filter(Boolean).join('; ');
      return res;
    } catch (e) {
      return { status: 'error', path: rel, symbols: [], index: null, ...errorFields(e, this.surface) };
    }
  }

  /** Where a member key is now; or, with path and line, the innermost member there. */
  async resolve(args: ResolveRequest): Promise<ResolveResponse> {
    try {
      let query: { member_key: string } | { name: string } | { path: string; line: number };
      const given = [args.member_key !== undefined, args.name !== undefined, args.path !== undefined || args.line !== undefined].filter(Boolean).length;
      if (given === 1 && args.member_key !== undefined) query = { member_key: args.member_key };
      else if (given === 1 && args.name !== undefined) query = { name: args.name };
      else if (given === 1 && args.path !== undefined && args.line !== undefined) query = { path: this.paths.toRelative(args.path), line: args.line };
      else throw new HciError('invalid_request', 'resolve takes a member_key, a name, or a path and a line', 'e.g. {"member_key": "Shop.OrderService.Place(int)"}, {"name": "OrderService"} or {"path": "src/OrderService.cs", "line": 12}');
      const ws = await this.gate.workspace();
      return this.current(await this.gate.serialized(() => ws.resolve(query)));
    } catch (e) {
      return { status: 'error', locations: [], index: null, ...errorFields(e, this.surface) };
    }
  }

  // ── browsing the index (core/browse/) ──────────────────────────────────────────────────────────

  /** The indexed files under a folder (a quick file finder). */
  async files(args: FilesRequest = {}): Promise<FilesResponse> {
    try {
      const prefix = args.prefix === undefined ? undefined : this.paths.toRelative(args.prefix, 'prefix');
      const [ws, { listFiles }] = await Promise.all([this.gate.workspace(), import('../browse/files.ts')]);
      const { value, index } = await this.gate.serialized(() => ws.read((db) => listFiles(db, { ...args, prefix })));
      return this.current({ ...value, index });
    } catch (e) {
      return { status: 'error', files: [], total: 0, truncated: false, index: await this.freshness(), ...errorFields(e, this.surface) };
    }
  }

  /** One file's indexed text, kinds and paired files (a viewer). */
  async file(args: FileRequest): Promise<FileResponse> {
    let path = String(args?.path ?? '');
    try {
      path = this.paths.toRelative(path);
      const [ws, { readIndexedFile }] = await Promise.all([this.gate.workspace(), import('../browse/files.ts')]);
      const { value, index } = await this.gate.serialized(() => ws.read((db, codec) => readIndexedFile(db, { ...args, path }, codec)));
      return this.current({ ...value, index });
    } catch (e) {
      return { status: 'error', path, index: await this.freshness(), ...errorFields(e, this.surface) };
    }
  }

  /** How a query's matches spread over extensions and languages (filter chips with counts). */
  async facets(args: FacetsRequest): Promise<FacetsResponse> {
    const query = typeof args?.query === 'string' ? args.query : '';
    try {
      const req: FacetsRequest = {
        ...args,
        paths: args.paths?.map((p) => this.paths.toRelative(p, 'paths filter')),
        exclude_paths: args.exclude_paths?.map((p) => this.paths.toRelative(p, 'exclude_paths filter')),
      };
      const [ws, { countFacets, prepareFacets }] = await Promise.all([this.gate.workspace(), import('../browse/facets.ts')]);
      await prepareFacets(req);
      const { value, index } = await this.gate.serialized(() => ws.read((db) => countFacets(db, req)));
      return this.current({ ...value, index });
    } catch (e) {
      return { status: 'error', query, match: 'none', files: 0, chunks: 0, exts: [], langs: [], index: await this.freshness(), ...errorFields(e, this.surface) };
    }
  }

  // ── the index ─────────────────────────────────────────────────────────────────────────────────

  async status(args: StatusRequest = {}, ctx: CallContext = {}): Promise<StatusAnswer> {
    let task: TaskView | undefined;
    const answer = (r: StatusReport): StatusAnswer => {
      const out: StatusAnswer = { ...r, index: this.watching.withPending(r.index), hint: this.hint(r.hint) };
      if (this.policy.hostFields) {
        out.watcher = this.watching.view();
        out.tasks = this.tasks.list().slice(0, 5).map((t) => viewTask(t, this.surface)!);
        if (task) out.task = task;
      }
      if (!out.error) delete out.error;
      return tidyHint(out);
    };
    const empty: StatusReport = {
      status: 'error', index: null, format_version: null, engine: '', files_by_lang: {}, skipped: {}, skipped_samples: [], last_run: null, pending: null,
    };
    try {
      if (args.task_id !== undefined) {
        const t = await this.runs.follow(args.task_id, args.wait_ms ?? 0, ctx);
        if (!t) {
          throw new HciError('unknown_task', `no task "${args.task_id}" on this server`, 'task ids live as long as the server process; call reindex to start a new run');
        }
        task = viewTask(t, this.surface)!;
      }
      const ws = await this.gate.workspace();
      const checkPending = args.check_pending ?? !this.watching.active;
      const r = await this.gate.serialized(() => ws.status({ checkPending }));
      const out = answer(r);
      if (r.status === 'no_index' && this.policy.buildOnSearch) out.hint = 'no index yet: call reindex (or just search, which starts it)';
      if (this.policy.skippedSamples !== undefined) out.skipped_samples = out.skipped_samples.slice(0, this.policy.skippedSamples);
      return out;
    } catch (e) {
      return answer({ ...empty, ...errorFields(e, this.surface) });
    }
  }

  /** One indexing pass to its end (the CLI, the browser Worker): the summary, or its error thrown. Paths are checked here. */
  async index(opts: RunOptions = {}): Promise<IndexSummary> {
    const paths = opts.paths === undefined ? undefined : this.relativePaths(opts.paths);
    await this.gate.workspace();
    return this.runs.run({ ...opts, paths });
  }

  /** Whether an indexing run is queued or running. */
  indexing(): boolean {
    return this.runs.active() !== undefined;
  }

  /** Cancels the queued or running indexing run; false when there is none. */
  cancelIndexing(): boolean {
    const t = this.runs.active();
    return t ? this.tasks.cancel(t.task_id) !== null : false;
  }

  async reindex(args: ReindexRequest, ctx: CallContext = {}): Promise<ReindexAnswer> {
    try {
      if (args.cancel) {
        const id = args.task_id ?? this.runs.active()?.task_id;
        if (!id) throw new HciError('no_task', 'no indexing run to cancel', 'status lists the recent tasks');
        const t = this.tasks.cancel(id);
        if (!t) throw new HciError('unknown_task', `no task "${id}" on this server`, 'status lists the recent tasks');
        const final = await this.tasks.waitFor(id, 5000, ctx.signal);
        const v = viewTask(final, this.surface)!;
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
        paths = this.relativePaths(args.paths);
      }
      await this.gate.workspace();
      const { task, coalesced } = this.runs.start(!!args.full, 'tool', false, paths);
      const t = (await this.runs.follow(task.task_id, args.wait_ms ?? 0, ctx)) ?? task;
      const v = viewTask(t, this.surface)!;
      if (v.state === 'failed' && v.error) {
        return { status: 'error', task: v, index: await this.freshness(), error: { code: v.error.code, message: v.error.message }, ...(v.error.hint ? { hint: v.error.hint } : {}) };
      }
      return {
        status: 'ok', task: v, coalesced, index: await this.freshness(),
        hint: isFinal(v.state) ? `indexing ${v.state}` : `indexing in the background; call status with task_id "${v.task_id}" (and wait_ms) to follow it`,
      };
    } catch (e) {
      return { status: 'error', task: null, index: await this.freshness(), ...errorFields(e, this.surface) };
    }
  }

  async watch(args: WatchRequest): Promise<WatchAnswer> {
    try {
      await this.watching.enable(args.enabled, 3000);
      const v = this.watching.view();
      return {
        status: 'ok', watcher: v, index: await this.freshness(),
        hint: args.enabled
          ? `watching ${v.mode === 'polling' ? `by polling every ${v.poll_interval_ms} ms` : 'with OS file events'}; changes are indexed about ${v.debounce_ms} ms after they stop`
          : 'not watching: answers cannot know about changes on disk; call reindex after editing files, or status with check_pending: true',
      };
    } catch (e) {
      return { status: 'error', watcher: this.watching.view(), index: await this.freshness(), ...errorFields(e, this.surface) };
    }
  }

  // ── message ↔ code (intercom) ──────────────────────────────────────────────────────────────────

  /** Which messages of a conversation's thread relate to a code ref (core/intercom find). */
  intercomFind(args: FindRequest): Promise<IntercomFindAnswer> {
    return this.intercom.find(args);
  }

  /** One file's gutter: the line ranges messages of the thread relate to (explicit stronger than inferred). */
  intercomMarkers(args: MarkersRequest): Promise<IntercomMarkersAnswer> {
    return this.intercom.markers(args);
  }

  /** A thread's committed messages with their text, in ordinal order (a conversation panel). */
  intercomMessages(args: MessagesRequest): Promise<IntercomMessagesAnswer> {
    return this.intercom.messages(args);
  }

  /** Records that a contiguous range of committed messages relates to a code ref (source: this surface). */
  intercomRelate(args: IntercomRelateCall): Promise<IntercomRelateAnswer> {
    return this.intercom.relate(args);
  }

  /** Path arguments of a run, relative to the workspace; undefined when one is the root itself (a whole pass). */
  private relativePaths(input: string[]): string[] | undefined {
    const rel = input.map((p) => this.paths.toRelative(p, 'paths entry').replace(/\/+$/, ''));
    return rel.includes('') ? undefined : [...new Set(rel)];
  }
}
