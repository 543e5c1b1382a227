// What a runtime hands the service: how to open the workspace with its adapters, how path arguments
// are checked against the root, (where it has them) a file watcher and the intercom engine; and what
// each surface does beyond the core calls. Owns these seams and the per-surface policy table; the
// verbs are verbs.ts, the service that answers them service.ts.
import type { HciWorkspace } from '../workspace.ts';
import type { WorkspaceFs } from '../platform.ts';
import type { Settings } from '../settings.ts';
import type { FreshnessTracker } from '../freshness.ts';
import type { WatcherStatus } from '../contract/watch.ts';
import type { Surface } from '../contract/errors.ts';
import type { DeferRender } from '../search/searcher.ts';
import type { KeywordStats } from '../search/term-stats.ts';
import type { PathGuard } from './paths.ts';
import type { Intercom } from '../intercom/intercom.ts';
import type { RelateSource } from '../intercom/events.ts';

export type WatchPreference = 'auto' | 'poll' | 'off';

/** A file watcher as the service drives it (runtimes/node/watcher.ts is Node's). */
export interface HostWatcher {
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

export interface ServiceHost {
  /** Short runtime name for answers, e.g. "Node", "Deno", "browser". */
  name: string;
  openWorkspace(root: string): Promise<HciWorkspace>;
  /** The path rule for this runtime (absolute paths, symlinked roots); relativePathGuard where there are none. */
  pathGuard(root: string): PathGuard;
  /** Absent: this runtime has no watcher; `watch` answers `not_available`. */
  createWatcher?(p: WatcherParams): HostWatcher;
  /**
   * An Intercom over the service's workspace (its sidecar beside the index, logs on this runtime's
   * files; relative log paths from `root`; with `roots`, only logs below them). Absent: intercom calls
   * answer `not_available`.
   */
  createIntercom?(workspace: HciWorkspace, root: string, logs: { roots?: string[] }): Promise<Intercom>;
  /**
   * False while the workspace's files are not at hand (a browser workspace opened from its stored
   * index alone): indexing answers `no_source`, and status never scans for pending changes (every
   * file would look deleted). Absent: always true.
   */
  hasSource?(): boolean;
  /**
   * True when `root` names a published index read over HTTP (runtimes/shared/http-vfs.ts): reindex,
   * watch and index answer `not_available`, and status never scans for pending changes. Absent: false.
   */
  readOnly?(root: string): boolean;
}

export interface ServiceOptions {
  root: string;
  host: ServiceHost;
  /** Who reads the answers: hints name that surface's commands (see SURFACES). */
  surface: Surface;
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
  /** Sends a progress notification (MCP: only when the client passed a progressToken). */
  progress?: (p: { progress: number; total?: number; message?: string }) => void;
  /** A search over several indexes (federation.ts): the keyword statistics of them all, which its BM25 weighs with. */
  keywordStats?: KeywordStats;
  /** A search over several indexes: its hits unrendered, their renderer given to this (core/search/searcher.ts DeferRender). */
  deferRender?: DeferRender;
}

export interface SurfacePolicy {
  /** A search on a workspace without an index starts building it (and answers `indexing`). */
  buildOnSearch: boolean;
  /** Tokens of max_tokens kept for what the host adds to a search answer (its task, longer hints). */
  tokenReserve: number;
  /** Status answers carry the host's watcher and recent tasks. */
  hostFields: boolean;
  /** Lines of chunk text an explanation shows by default (undefined: the core's bound). */
  explainLines?: number;
  /** Skipped-file samples a status shows (undefined: all the core returns). */
  skippedSamples?: number;
  /** Intercom logs only inside the workspace (a served surface), else anywhere the caller names. */
  confineLogs: boolean;
  /** Who an intercom relation is recorded as (`source` of message_range_related). */
  relateSource: RelateSource;
}

/**
 * What each surface adds to the core calls. MCP hosts are long-lived and pay for every token; the
 * CLI is one-shot and prints everything; the browser Worker indexes when the page asks.
 */
export const SURFACES: Record<Surface, SurfacePolicy> = {
  mcp: { buildOnSearch: true, tokenReserve: 150, hostFields: true, explainLines: 60, skippedSamples: 10, confineLogs: true, relateSource: 'mcp' },
  cli: { buildOnSearch: false, tokenReserve: 0, hostFields: false, confineLogs: false, relateSource: 'cli' },
  browser: { buildOnSearch: false, tokenReserve: 0, hostFields: false, confineLogs: true, relateSource: 'agent' },
};
