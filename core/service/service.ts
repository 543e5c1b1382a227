// The service every surface answers through: one workspace with a fixed root, its background
// indexing tasks, its watcher and freshness, and the verbs (verbs.ts) dispatched over them. The MCP
// servers (Node and Deno; every session of a server shares one), the browser Worker (one per open
// workspace) and the CLI (one per command) all call it. Owns the answers' meaning: errors are answers
// (status `error`, a stable code, a hint worded for the surface; a thrown failure becomes the verb's
// failure answer here, once), every answer carries freshness, and — where the surface wants it — a
// search on a workspace without an index starts building it instead of blocking. Host-neutral: the
// runtime passes a ServiceHost (adapters, path rule, watcher). The handlers are search-calls.ts,
// read-calls.ts, index-calls.ts and intercom.ts; their shared state is context.ts.
import type { HciWorkspace } from '../workspace.ts';
import type { ErrorInfo, IndexFreshness } from '../contract/common.ts';
import type { IndexSummary } from '../contract/tasks.ts';
import type { WatcherView } from '../contract/watch.ts';
import type { CallContext, ServiceOptions } from './host.ts';
import type { Surface } from '../contract/errors.ts';
import type { RunOptions } from './indexing.ts';
import { ServiceContext } from './context.ts';
import { errorFields, tidyHint, toErrorInfo, viewTask } from './views.ts';
import { VERBS, type FailureHost, type VerbInput, type VerbName, type VerbOutput } from './verbs.ts';

export class HciService {
  readonly root: string;
  readonly surface: Surface;
  private readonly cx: ServiceContext;
  private closed = false;
  private readonly log: (msg: string) => void;

  constructor(private readonly opts: ServiceOptions) {
    this.root = opts.root;
    this.surface = opts.surface;
    this.log = opts.log ?? (() => {});
    this.cx = new ServiceContext(opts, () => this.closed);
  }

  /**
   * What this service's watcher will be, for descriptions written before it starts: `unavailable`
   * (the host has none, e.g. Deno), `on` (started by start()) or `off` (`watch: off`; the watch call
   * turns it on).
   */
  get watcherPlan(): 'unavailable' | 'on' | 'off' {
    return !this.opts.host.createWatcher ? 'unavailable' : this.cx.watching.wanted ? 'on' : 'off';
  }

  /** Opens the workspace and starts the watcher (unless `watch: off`). Never throws: failures show in answers. */
  async start(): Promise<void> {
    try {
      const ws = await this.cx.gate.workspace();
      // Open the store now when an index exists, so later calls never race to open it.
      await this.cx.gate.serialized(() => ws.status());
    } catch (e) {
      this.log(`workspace: ${toErrorInfo(e, this.surface).error.message}`);
    }
    if (this.cx.watching.wanted) await this.cx.watching.set(true, 2000).catch((e) => this.log(`watcher: ${(e as Error).message}`));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.cx.watching.stop();
    await this.cx.tasks.shutdown(5000);
    this.cx.intercom.close();
    this.cx.gate.close();
  }

  /** The workspace (opened on first use); for hosts that also reach its storage (the browser Worker). */
  workspace(): Promise<HciWorkspace> {
    return this.cx.gate.workspace();
  }

  /** How current the index is right now (null: no index, or it cannot be read). */
  freshness(): Promise<IndexFreshness | null> {
    return this.cx.freshness();
  }

  watcherView(): WatcherView {
    return this.cx.watching.view();
  }

  /** The core hint worded for this service's surface. */
  hint(h: string | undefined): string | undefined {
    return this.cx.hint(h);
  }

  // ── the verbs ─────────────────────────────────────────────────────────────────────────────────

  /**
   * Answers one verb (verbs.ts). Never throws: a failure thrown on the way is the verb's failure
   * answer, with the index's freshness (failure()).
   */
  async call<V extends VerbName>(verb: V, req: VerbInput<V>, ctx: CallContext = {}): Promise<VerbOutput<V>> {
    const t0 = Date.now();
    try {
      return await VERBS[verb].run(this.cx, req, ctx);
    } catch (e) {
      return this.failure(verb, errorFields(e, this.surface), req, t0);
    }
  }

  /**
   * The verb's answer to a failure found outside its handler (a protocol's refusal of its
   * arguments: `req` as it came) or inside it (call): its failure answer with freshness.
   */
  async failure<V extends VerbName>(verb: V, f: { error: ErrorInfo; hint?: string }, req: unknown, t0 = Date.now()): Promise<VerbOutput<V>> {
    const host: FailureHost = {
      hostFields: this.cx.policy.hostFields,
      watcher: () => this.cx.watching.view(),
      tasks: () => this.cx.tasks.list().slice(0, 5).map((t) => viewTask(t, this.surface)!),
    };
    const out = VERBS[verb].failed({ ...f, took_ms: Date.now() - t0 }, req, host);
    out.index = await this.cx.freshness();
    return tidyHint(out);
  }

  // ── indexing runs to their end (not a verb: a run with progress and cancellation) ──────────────

  /** One indexing pass to its end (the CLI, the browser Worker): the summary, or its error thrown. Paths are checked here. */
  async index(opts: RunOptions = {}): Promise<IndexSummary> {
    const paths = opts.paths === undefined ? undefined : this.cx.relativePaths(opts.paths);
    await this.cx.gate.workspace();
    return this.cx.runs.run({ ...opts, paths });
  }

  /** Whether an indexing run is queued or running. */
  indexing(): boolean {
    return this.cx.runs.active() !== undefined;
  }

  /** Cancels the queued or running indexing run; false when there is none. */
  cancelIndexing(): boolean {
    const t = this.cx.runs.active();
    return t ? this.cx.tasks.cancel(t.task_id) !== null : false;
  }
}
