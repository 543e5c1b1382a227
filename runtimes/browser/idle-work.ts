// What the hci Worker does while the page is not asking: on its home screen, loading the code an
// indexing run needs and starting the parse worker a first pass takes; with a workspace open,
// warming its search — one search before the page hears it is open, then, in idle time, a step at a
// time. Owns when these run; what the warm-up searches is warm-up.ts, the sessions sessions.ts, the
// parse pool parse-pool.ts.
import { HciWorkspace } from '../../core/workspace.ts';
import type { BrowserParsePoolFactory } from './parse-pool.ts';
import type { Session, WorkerSessions } from './sessions.ts';
import { warmStep, warmUp } from './warm-up.ts';

/**
 * Idle time warms the search (warm-up.ts warmStep: the stored files decoded into the search cache,
 * then a few symbol names searched key by key and the single letters), a step at a time (a
 * WARM_SLICE_MS slice of decoding, or one warm-up search), one after another, once no call has come
 * for WARM_IDLE_MS, until all is done. A call arriving meanwhile waits for one step at most, and
 * pushes the next one back; an indexing run stops it (its end starts it again). Files come first: a
 * workspace just opened is typed into at once more often than not, and a keystroke then waits for a
 * 6 ms slice rather than a warm-up search (10–30 ms; the first, which also reads the list of names,
 * ~130 ms on FluentAvalonia), while the files are what every search's text signals read. Once the
 * page has searched, a step that searches waits for a pause longer (WARM_AFTER_SEARCH_MS) than the
 * gap between two keys of someone typing (a fast typist ~110 ms, most people 150–300 ms) or between
 * two words; shorter gaps get only the slices of files. At 120 ms a search typed ahead started
 * between keystrokes and the next one waited for it: Chromium's traces of the web bench showed
 * keystrokes arriving while the Worker ran a warm-up timer task. (Slices 30 ms after a call, to fill
 * the gaps between keys too, made typing slower in the web bench under load: p50 34–41 vs 28–30 ms,
 * two alternated pairs at load 15 — the decoding took the CPU the page paints with.)
 */
const WARM_IDLE_MS = 120;
const WARM_AFTER_SEARCH_MS = 500;
const WARM_SLICE_MS = 6;

/**
 * With no workspace open this long after the Worker starts, the page waits on its home screen for a
 * workspace to be picked — from a folder or a .zip, to index, more often than not — so the code an
 * indexing run imports (HciWorkspace.preloadIndexing, and the sources) loads meanwhile, and the
 * parse worker a first pass takes starts (parse-pool.ts warm(): it loads tree-sitter). A stored
 * workspace opened without a source ends that worker; a page opening one from its route has it
 * open by then anyway (so its searches never share the Worker with this). Chromium, 750 of
 * FluentAvalonia's files as a .zip dropped on a fresh page (web bench, 2 interleaved pairs of 3
 * runs): the code alone, scan began 153–158 ms after the drop instead of 247–267, and the run ended
 * 180–194 ms after the indexer's own clock instead of 270–350; with the parse worker too, scan at
 * 97–139 ms, run end 3107/2823 ms after the drop vs 3141/3124 (the indexer's own clock is noise-bound).
 */
const PRELOAD_IDLE_MS = 400;

interface Warm {
  timer?: ReturnType<typeof setTimeout>;
  done: boolean;
  /** Every file decoded into the search cache (the searches typed ahead may not all have run). */
  filesDone: boolean;
  /** The page has searched this workspace: searches typed ahead wait for WARM_AFTER_SEARCH_MS without a call. */
  searched?: boolean;
  /** When the last call was answered (Date.now()). */
  lastCall: number;
  /** The step running now, if one is: closing waits for it (stop). */
  running?: Promise<unknown>;
}

export class IdleWork {
  private readonly warm = new WeakMap<Session, Warm>();

  constructor(
    private readonly sessions: WorkerSessions,
    private readonly parsePool: BrowserParsePoolFactory | undefined,
  ) {
    const preload = setTimeout(() => {
      if (!this.sessions.idle) return;
      void Promise.all([HciWorkspace.preloadIndexing(), import('./sources.ts')]).catch(() => {});
      this.parsePool?.warm(); // a first pass takes it; a stored workspace opened without a source ends it (opened)
    }, PRELOAD_IDLE_MS);
    (preload as { unref?: () => void }).unref?.();
  }

  /**
   * A workspace was opened (its queue's turn, before the page hears it): opened to be searched, not
   * indexed from scratch, no first pass takes the parse worker the home screen started; with an
   * index, one search first (the first keystrokes then find the search code
   * compiled and the index's pages read: warm-up.ts warmUp) and the idle warm-up after it.
   */
  async opened(s: Session, hasIndex: boolean, withSource: boolean): Promise<void> {
    if (hasIndex && !withSource) this.parsePool?.cool();
    // A published index is not warmed: its pages come over HTTP, and each read blocks the Worker.
    if (!hasIndex || s.index) return;
    // Only a warm-up: a failure shows at the first real search.
    await warmUp(await s.svc.workspace()).catch(() => null);
    this.after(s, true);
  }

  /**
   * A call was answered (`verb`: which; a search tells that the page is being typed into), or
   * (`restart`) the index changed: the warm-up goes on once the Worker is idle again.
   */
  after(s: Session, restart = false, delay?: number, verb?: string): void {
    if (s.index) return;
    let w = this.warm.get(s);
    if (!w) this.warm.set(s, (w = { done: false, filesDone: false, lastCall: 0 }));
    if (restart) (w.done = false), (w.filesDone = false);
    if (verb === 'search') w.searched = true;
    if (verb !== undefined) w.lastCall = Date.now();
    clearTimeout(w.timer);
    if (w.done) return;
    const state = w;
    const timer = setTimeout(async () => {
      if (!this.sessions.current(s) || s.svc.indexing()) return;
      // Files first, a slice at a time; a search typed ahead waits for a longer pause.
      const wait = (state.searched ? WARM_AFTER_SEARCH_MS : WARM_IDLE_MS) - (Date.now() - state.lastCall);
      if (wait > 0 && state.filesDone) {
        if (state.timer === timer) this.after(s, false, wait);
        return;
      }
      const run = (async () => warmStep(await s.svc.workspace(), WARM_SLICE_MS, { searches: wait <= 0 }))();
      state.running = run.catch(() => {});
      try {
        const step = await run;
        state.filesDone = step.files;
        state.done = step.done;
      } catch {
        state.done = true; // no index yet (or closed meanwhile): the next index run starts it again
      }
      // The next step at once (a message waiting is handled first), unless a call came meanwhile:
      // it has set the timer again, an idle time on.
      if (!state.done && state.timer === timer) this.after(s, false, 0);
    }, delay ?? WARM_IDLE_MS);
    state.timer = timer;
  }

  /** A workspace is closing: its warm-up stops; resolves once a step running now has ended. */
  async stop(s: Session): Promise<void> {
    const w = this.warm.get(s);
    if (!w) return;
    clearTimeout(w.timer);
    w.timer = undefined; // a step running now does not start the next one when it ends
    await w.running;
  }
}
