// The explorer's state as signals (@preact/signals): the workspaces, the one open here, an indexing
// run, the search (query, filters, answer, counts, selection), the file on screen and which overlay is
// up. Components read these; the controllers (workspaces/actions.ts, search/controller.ts,
// viewer/controller.ts) write them. Owns no behaviour.
import { computed, signal } from '@preact/signals';
import type { BrowserWorkspace, StoredWorkspace } from '../../../runtimes/browser/client.ts';
import type { FacetsResponse, IndexSummary, SearchMode, SearchResponse, StatusReport } from '../../../core/contract/index.ts';

export interface Notice {
  kind: 'error' | 'info';
  text: string;
  hint?: string;
}

export interface GrammarDownload {
  what: string;
  bytes: number;
  ms: number;
}

/** One indexing run as the progress panel shows it. */
export interface IndexRun {
  workspace: string;
  full: boolean;
  /**
   * `done` only once the run's summary is here: the Worker's last progress report (its phase `done`)
   * comes before the summary is — the panel shows `finishing` meanwhile.
   */
  phase: 'starting' | 'scan' | 'index' | 'vectors' | 'finishing' | 'done' | 'cancelled' | 'failed';
  filesDone: number;
  filesTotal: number;
  chunks: number;
  bytes: number;
  startedAt: number;
  /** When the index phase began (files/s counts from here). */
  indexStartedAt?: number;
  endedAt?: number;
  cancelling?: boolean;
  summary?: IndexSummary;
  error?: Notice;
}

export interface Filters {
  exts: string[];
  /** A folder prefix, e.g. "src/Web/". */
  under: string;
  hide: Array<'test' | 'generated'>;
}

/**
 * How the query is read: words (the keyword channel, BM25), exact text, or an RE2 regex (the literal
 * channel: every hit lists its match_lines); case and whole-word apply to those two. With vectors in
 * the workspace (semantic search on), also hybrid (words plus meaning) and semantic (meaning only).
 * The search request's own modes (core/contract SEARCH_MODES).
 */
export type QueryMode = SearchMode;
/** The modes that read the whole box as a pattern (case and whole-word apply to them). */
export const isExact = (m: QueryMode) => m === 'literal' || m === 'regex';
export interface SearchOptions {
  mode: QueryMode;
  caseSensitive: boolean;
  wholeWord: boolean;
}

export interface FileView {
  path: string;
  /** The lines to mark and scroll to (a hit, a permalink, an outline symbol). */
  lines?: [number, number];
  /** The hit this file was opened from (for "why this result"). */
  hitId?: string;
}

export const workspaces = signal<StoredWorkspace[]>([]);
export const storageInfo = signal<{ usage?: number; quota?: number; persisted?: boolean }>({});
export const current = signal<BrowserWorkspace | null>(null);
export const status = signal<StatusReport | null>(null);
export const notice = signal<Notice | null>(null);
/** A workspace another tab holds, waiting for the user's take-over choice. */
export const takeOverAsk = signal<{ workspace: string; choose: (take: boolean) => void } | null>(null);
/** This tab's workspace was taken over by another tab. */
export const releasedHere = signal<string | null>(null);
export const indexRun = signal<IndexRun | null>(null);
/** Whether there is a run to show: what the layout watches, so a progress report redraws only the panel. */
export const hasIndexRun = computed(() => indexRun.value !== null);
export const grammarDownloads = signal<GrammarDownload[]>([]);

export const query = signal('');
/** Whether anything is typed: what most views watch instead of the query itself, so a keystroke redraws little. */
export const hasQuery = computed(() => query.value.trim() !== '');
export const filters = signal<Filters>({ exts: [], under: '', hide: [] });
export const searchOptions = signal<SearchOptions>({ mode: 'keyword', caseSensitive: false, wholeWord: false });
export const results = signal<SearchResponse | null>(null);
export const facets = signal<FacetsResponse | null>(null);
/** A search is running (from the keystroke until its answer is painted). */
export const searching = signal(false);
/** The running search has taken long enough to show the spinner (search/controller.ts SPINNER_MS). */
export const searchingSlowly = signal(false);
/**
 * The answer on screen is the last word on the current query: its whole page and chip counts are in
 * (the work that follows a typing pause ran) and no newer search is on its way. The search bar shows it
 * as data-settled, for whoever waits for a query's final page rather than its first screenful. False
 * until a workspace is open and its first search (or empty query) has been answered.
 */
export const answerSettled = signal(false);
/** Whether the workspace has vectors (semantic search on and built): hybrid, semantic and "more like this" are offered. */
export const semanticOn = computed(() => ['ready', 'partial'].includes(status.value?.vectors?.state ?? 'off'));
/** "More like this": the hit the list shows chunks similar to (the similar verb), instead of a search's hits. */
export const similarTo = signal<{ hitId: string; label: string } | null>(null);
/** Index of the selected hit in results.hits (j/k, Enter). */
export const selected = signal(0);

export const view = signal<FileView | null>(null);
export const overlay = signal<'none' | 'quick-open' | 'help' | 'workspaces'>('none');
