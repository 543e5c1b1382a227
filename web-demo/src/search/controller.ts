// Search as you type. Every keystroke sends its query at once, in one Worker lane where a search a
// newer keystroke replaced before it ran is dropped unrun (runtimes/browser/call-lanes.ts), and only
// the newest search's answer is shown — so the list never shows an older query's hits, and no fixed
// debounce delay adds to keystroke-to-results time. A keystroke asks for the first screenful of hits
// only (TYPING_PAGE: less for the Worker to rank and present, and for the page to draw); the whole
// page (PAGE) replaces it, counts for the filter chips (facets) follow and the URL takes the query,
// once typing pauses. Owns
// the request the filters and the query mode (words, exact text, regex; case, whole words) make,
// these rules and the URL's ?q=…; the answers are the Worker's (core/service search and facets).
import { batch, effect } from '@preact/signals';
import type { FacetsRequest, SearchRequest, SearchResponse } from '../../../core/contract/index.ts';
import { answerSettled, current, facets, filters, isExact, query, results, searchOptions, searching, searchingSlowly, selected, similarTo, type Filters, type SearchOptions } from '../app/state.ts';
import { parseRoute, writeRoute } from '../app/router.ts';
import { notePainted, noteTyped } from '../app/perf.ts';

export const PAGE = 30;
/** Hits asked for per keystroke: about what the list shows without scrolling. */
export const TYPING_PAGE = 10;

/**
 * The Worker lane of the searches typing makes (runtimes/browser/call-lanes.ts): every keystroke's
 * search is sent at once, and one still waiting in the Worker when a newer one arrives is dropped
 * there unrun — keys typed while a search runs cost the Worker one search, not one each, and the
 * newest is already there when the running one ends (no round trip through the page first). The
 * whole page and the chips' counts that follow a pause go in the same lane: a keystroke drops them
 * too when they have not started.
 */
const LANE = 'typing';
/** Numbers the searches sent: only the newest's answer is shown (an older one arriving later is stale). */
let sentSeq = 0;
/** Searches sent whose answer (or `superseded`) has not come back yet. */
let inFlight = 0;
/** A query typed since the URL last took one (it follows once typing pauses: scheduleIdle). */
let typedSinceUrl = false;
let facetsKey = '';
/**
 * A search still running after this long shows the spinner. A quicker one (nearly every keystroke's)
 * would only flash it, and drawing it cost the keystroke's own frame a new composited layer while
 * the Worker searched — time the answer then waited for on the main thread.
 */
const SPINNER_MS = 150;
let spinnerTimer: ReturnType<typeof setTimeout> | undefined;

function searchStarted(): void {
  searching.value = true;
  spinnerTimer ??= setTimeout(() => (searchingSlowly.value = true), SPINNER_MS);
}

function searchEnded(): void {
  clearTimeout(spinnerTimer);
  spinnerTimer = undefined;
  batch(() => {
    searching.value = false;
    searchingSlowly.value = false;
  });
}

const isSuperseded = (e: unknown) => (e as { code?: unknown } | null)?.code === 'superseded';

function request(q: string, f: Filters, o: SearchOptions, limit = TYPING_PAGE): SearchRequest {
  const req: SearchRequest = { query: q, limit };
  if (o.mode !== 'keyword') req.mode = o.mode;
  if (isExact(o.mode)) {
    // The Match case button decides either way (unset would be the contract's smart case, which the button does not show).
    req.case_sensitive = o.caseSensitive;
    if (o.wholeWord) req.whole_word = true;
  }
  if (f.exts.length) req.exts = f.exts;
  if (f.under) req.paths = [f.under];
  if (f.hide.length) req.exclude_kinds = f.hide;
  return req;
}

const key = (q: string, f: Filters, o: SearchOptions = searchOptions.value) => JSON.stringify([q, f.exts, f.under, f.hide, o.mode, o.caseSensitive, o.wholeWord, current.value?.name]);

/** Searches the query as it is now; its answer is shown if no newer search was sent meanwhile. */
async function runLatest(): Promise<void> {
  const seq = ++sentSeq;
  const ws = current.value;
  const q = query.value.trim();
  const f = filters.value;
  if (!ws || !q) {
    batch(() => {
      results.value = null;
      facets.value = null;
    });
    if (!inFlight) {
      searchEnded();
      // No workspace yet (a page still opening the one its URL names): nothing is settled.
      answerSettled.value = !!ws;
    }
    return;
  }
  answerSettled.value = false;
  const sent = key(q, f);
  searchStarted();
  inFlight++;
  let res: SearchResponse | null = null;
  try {
    res = await ws.call('search', request(q, f, searchOptions.value), { lane: LANE });
  } catch (e) {
    // A newer keystroke's search replaced it in the Worker: that one's answer is shown.
    if (!isSuperseded(e) && seq === sentSeq) {
      inFlight--;
      searchEnded();
      answerSettled.value = true;
      throw e;
    }
  }
  inFlight--;
  // Typed on meanwhile: this answer is stale, the newer search's follows.
  if (res && seq === sentSeq && sent === key(query.value.trim(), filters.value)) {
    batch(() => {
      results.value = res;
      selected.value = 0;
    });
    notePainted(query.value, res.took_ms);
    scheduleIdle(q, f, sent, res);
  }
  if (inFlight) return;
  // The spinner goes once the answer is on screen (the URL follows when typing pauses: scheduleIdle).
  afterPaint(() => {
    if (!inFlight) searchEnded();
  });
}

/**
 * Runs `fn` once the next frame is painted (the frame a signal change just scheduled), or after
 * 100 ms in a tab that draws no frames (hidden).
 */
function afterPaint(fn: () => void): void {
  let done = false;
  const once = () => {
    if (!done) (done = true), fn();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

/**
 * The rest of the page and the counts for the chips wait until typing pauses (IDLE_MS): each is
 * another query over the index, and while keys come in the Worker's time goes to the searches. So
 * does the URL's ?q=…: history.replaceState and the workspace's last-place record (localStorage) took
 * the main thread ~3 ms an answer in a Chromium trace of the web bench (a quarter of its work while
 * typing; more on a busy machine), after every keystroke's paint, where the next key's came.
 */
const IDLE_MS = 150;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleIdle(q: string, f: Filters, sent: string, shown: SearchResponse): void {
  clearTimeout(idleTimer);
  // At once only for a query that was not typed (a permalink, a reopened workspace) and has no chips
  // yet: after a keystroke the next one is likely on its way, and would wait for these two queries
  // in the Worker (the first keystrokes of a session paid 15-25 ms for it).
  idleTimer = setTimeout(() => {
    if (typedSinceUrl && !superseded(sent)) syncUrl();
    void loadRest(q, f, sent, shown)
      .then(() => loadFacets(q, f, sent))
      .finally(() => {
        // A newer search on its way settles (or not) on its own answer.
        if (!superseded(sent)) answerSettled.value = true;
      });
  }, facetsKey === '' && !typedSinceUrl ? 0 : IDLE_MS);
}

/**
 * Whether the query `sent` is no longer the one typed, or a keystroke's search is on its way: the
 * Worker answers calls one at a time, so the whole page or the counts of an older query asked for
 * now would make that keystroke's answer wait behind them.
 */
function superseded(sent: string): boolean {
  return inFlight > 0 || sent !== key(query.value.trim(), filters.value);
}

/**
 * The whole page once typing pauses, in place of the first screenful: asked for from the top rather
 * than through the cursor, because the core sizes its candidate pool by the hits asked for, so the
 * list is exactly what one request for PAGE hits ranks. The selected hit stays selected.
 */
async function loadRest(q: string, f: Filters, sent: string, shown: SearchResponse): Promise<void> {
  const ws = current.value;
  if (!ws || !shown.next_cursor || shown.hits.length >= PAGE || results.value !== shown || superseded(sent)) return;
  const full = await ws.call('search', request(q, f, searchOptions.value, PAGE), { lane: LANE }).catch(() => null);
  if (!full || results.value !== shown || sent !== key(query.value.trim(), filters.value)) return;
  const was = shown.hits[selected.value]?.hit_id;
  batch(() => {
    results.value = full;
    const at = full.hits.findIndex((h) => h.hit_id === was);
    selected.value = at >= 0 ? at : 0;
  });
}

async function loadFacets(q: string, f: Filters, sent: string): Promise<void> {
  const ws = current.value;
  if (!ws || facetsKey === sent || superseded(sent)) return;
  facetsKey = sent;
  // Facets count keyword matches: for exact text and regex there are no counts (chosen chips stay);
  // hybrid's keyword side is counted as words.
  if (searchOptions.value.mode !== 'keyword' && searchOptions.value.mode !== 'hybrid') {
    facets.value = null;
    return;
  }
  const req: FacetsRequest = { query: q };
  if (f.under) req.paths = [f.under];
  if (f.hide.length) req.exclude_kinds = f.hide;
  let res;
  try {
    res = await ws.call('facets', req, { lane: LANE });
  } catch (e) {
    // A keystroke came first: the chips are counted for a later pause.
    if (!isSuperseded(e)) throw e;
    facetsKey = '';
    return;
  }
  if (sent === key(query.value.trim(), filters.value)) facets.value = res;
}

function syncUrl(): void {
  typedSinceUrl = false;
  const r = parseRoute();
  const o = searchOptions.value;
  const mode = o.mode === 'keyword' ? {} : isExact(o.mode) ? { mode: o.mode, caseSensitive: o.caseSensitive, wholeWord: o.wholeWord } : { mode: o.mode };
  writeRoute({ ...r, index: current.value?.info.index, q: query.value, exts: filters.value.exts, under: filters.value.under, hide: filters.value.hide, mode: undefined, caseSensitive: undefined, wholeWord: undefined, ...mode }, 'replace');
}

/** Words, exact text or regex; case and whole words (for the last two). Searches again at once. */
export function setSearchOptions(o: Partial<SearchOptions>): void {
  searchOptions.value = { ...searchOptions.value, ...o };
  syncUrl();
  void runLatest();
}

/**
 * "More like this": the chunks nearest in meaning to a hit's (the similar verb) take the list's place
 * until the next keystroke or "back to the search".
 */
export async function moreLikeThis(hitId: string, label: string): Promise<void> {
  const ws = current.value;
  if (!ws) return;
  similarTo.value = { hitId, label };
  const res = await ws.call('similar', { hit_id: hitId, limit: PAGE });
  if (similarTo.value?.hitId !== hitId) return;
  batch(() => {
    results.value = { ...res, query: query.value.trim() };
    selected.value = 0;
  });
}

export function backToSearch(): void {
  similarTo.value = null;
  void runLatest();
}

export function setQuery(q: string): void {
  similarTo.value = null;
  noteTyped(q);
  query.value = q;
  // The URL follows once typing pauses (scheduleIdle).
  typedSinceUrl = true;
  void runLatest();
}

export function setFilters(f: Partial<Filters>): void {
  filters.value = { ...filters.value, ...f };
  syncUrl();
  void runLatest();
}

export function toggleExt(exts: string[]): void {
  const on = exts.every((e) => filters.value.exts.includes(e));
  setFilters({ exts: on ? filters.value.exts.filter((e) => !exts.includes(e)) : [...new Set([...filters.value.exts, ...exts])] });
}

export function toggleHide(kind: 'test' | 'generated'): void {
  const hide = filters.value.hide.includes(kind) ? filters.value.hide.filter((k) => k !== kind) : [...filters.value.hide, kind];
  setFilters({ hide });
}

/** Runs the current query again (a workspace opened, an index run finished). */
export function refreshSearch(): void {
  facetsKey = '';
  void runLatest();
}

export function moveSelection(by: number): void {
  const n = results.value?.hits.length ?? 0;
  if (n) selected.value = Math.max(0, Math.min(n - 1, selected.value + by));
}

// A workspace opened (or closed) here: search it (outside the effect, which tracks only `current`).
effect(() => {
  current.value;
  queueMicrotask(refreshSearch);
});
