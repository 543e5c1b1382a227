// What a verb's handler works with (the rows of verbs.ts): the service's workspace gate, its path
// rule, its surface's policy, the task registry, the index runs, the watcher and the intercom calls,
// and the steps every answer goes through (freshness with pending changes, hints worded for the
// surface). HciService (service.ts) builds one and owns its lifetime; handlers only use it.
import type { IndexFreshness } from '../contract/common.ts';
import { hintFor, type Surface } from '../contract/errors.ts';
import { TaskRegistry } from '../tasks.ts';
import { SURFACES, type ServiceOptions, type SurfacePolicy } from './host.ts';
import type { PathGuard } from './paths.ts';
import { IndexRuns } from './indexing.ts';
import { WatchControl } from './watching.ts';
import { WorkspaceGate } from './workspace-gate.ts';
import { tidyHint } from './views.ts';
import { IntercomCalls } from './intercom.ts';

const DEFAULT_FIRST_INDEX_WAIT_MS = 1500;

export class ServiceContext {
  readonly root: string;
  readonly surface: Surface;
  readonly policy: SurfacePolicy;
  readonly paths: PathGuard;
  readonly tasks: TaskRegistry;
  readonly gate: WorkspaceGate;
  readonly runs: IndexRuns;
  readonly watching: WatchControl;
  readonly intercom: IntercomCalls;
  /** How long a search on a workspace without an index waits for the first build before answering `indexing`. */
  readonly firstIndexWaitMs: number;
  /** Whether the workspace's files are at hand (ServiceHost.hasSource): without them nothing is indexed or scanned. */
  readonly hasSource: () => boolean;

  constructor(opts: ServiceOptions, closed: () => boolean) {
    this.root = opts.root;
    this.surface = opts.surface;
    this.policy = SURFACES[opts.surface];
    this.paths = opts.host.pathGuard(opts.root);
    this.tasks = new TaskRegistry({ keepFinished: 20 });
    this.firstIndexWaitMs = opts.firstIndexWaitMs ?? DEFAULT_FIRST_INDEX_WAIT_MS;
    const readOnly = opts.host.readOnly?.(opts.root) ?? false;
    this.hasSource = () => !readOnly && (opts.host.hasSource?.() ?? true);
    this.gate = new WorkspaceGate(() => (opts.open ?? ((r: string) => opts.host.openWorkspace(r)))(this.root));
    this.runs = new IndexRuns(this.tasks, this.gate, () => this.watching.tracker, this.surface, this.hasSource, this.root, readOnly);
    this.watching = new WatchControl(opts, this.gate, this.runs, this.tasks, closed);
    this.intercom = new IntercomCalls({
      root: this.root, host: opts.host, surface: this.surface, policy: this.policy, gate: this.gate, freshness: () => this.freshness(), hint: (h) => this.hint(h),
    });
  }

  /** How current the index is right now, pending changes included (null: no index, or it cannot be read). */
  async freshness(): Promise<IndexFreshness | null> {
    try {
      const ws = await this.gate.workspace();
      const r = await this.gate.serialized(() => ws.status());
      return this.watching.withPending(r.index);
    } catch {
      return null;
    }
  }

  /** The core hint worded for this service's surface. */
  hint(h: string | undefined): string | undefined {
    return hintFor(this.surface, h);
  }

  /** A core answer as this service shows it: pending changes in its freshness, its hint worded for the surface. */
  current<T extends { index: IndexFreshness | null; hint?: string }>(r: T): T {
    r.index = this.watching.withPending(r.index);
    r.hint = this.hint(r.hint);
    return tidyHint(r);
  }

  /** Path arguments of a run, relative to the workspace; undefined when one is the root itself (a whole pass). */
  relativePaths(input: string[]): string[] | undefined {
    const rel = input.map((p) => this.paths.toRelative(p, 'paths entry').replace(/\/+$/, ''));
    return rel.includes('') ? undefined : [...new Set(rel)];
  }
}
