// What the hci Worker searches ahead of the user, so a reopened workspace answers its first
// keystrokes at full speed: one search when it opens (warmUp), then, a step at a time in idle time
// (warmStep; idle-work.ts says when), the stored files decoded into the search cache, and after
// them the index's most frequent symbol names typed key by key and every single letter. Owns this
// policy (which queries, how many, in what order); the searches and the cache are the core's
// (core/search/searcher.ts), the symbol names core/browse/symbol-names.ts. Only the search session's
// caches keep anything — no query is remembered (explain does not know their hit ids) — and no later
// answer changes.
import type { HciWorkspace } from '../../core/workspace.ts';
import { firstSymbolName, frequentSymbolNames, symbolInitials } from '../../core/browse/symbol-names.ts';
import type { Database } from '../../core/sqlite/engine.ts';

/** How many symbol names warmStep types, and the longest it types of each. */
const WARM_NAMES = 3;
const WARM_NAME_CHARS = 14;
/** Shorter names are too common to be worth typing. */
const WARM_NAME_MIN = 6;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** A warm-up search asks for a screenful, as a keystroke does. */
const WARM_LIMIT = 10;

/**
 * Runs one keyword search (the first symbol named by an identifier) on the index the workspace has
 * open and says what it ran (null: no symbol to search for). For a host to call once when it opens a
 * workspace, before it says it is searchable: a session's first searches otherwise run the search
 * code before it is compiled and read the keyword index's pages from storage — in Chromium's Worker
 * the first word typed after reopening FluentAvalonia took 12–35 ms a keystroke, the same words later
 * 3–7 ms. Through the open index (never opens it again), not remembered.
 */
export async function warmUp(ws: HciWorkspace): Promise<{ query: string; hits: number } | null> {
  const searcher = await ws.searcher();
  const name = await searcher.store.read(firstSymbolName);
  if (name === null) return null;
  const res = await searcher.search({ query: name, limit: WARM_LIMIT });
  return { query: name, hits: res.hits.length };
}

/**
 * One step of warming the search between requests: first the search cache filled with decoded
 * files for at most `budgetMs` (SearchSession.warmFiles), a slice a step until every file is in —
 * every search's text signals read its best candidates' files, and inflating them was most of a
 * cold search (a Chromium trace of the web bench: 56% of the Worker's samples in the first keystroke's
 * search after reopening FluentAvalonia), while a slice is short enough for a keystroke to wait
 * for — then the next warm-up keystroke searched (`typed` says which). `files` once every file is in,
 * `done` when nothing is left for this index generation. `searches: false`: only a slice of files
 * (the keystrokes typed ahead stay for later). In Chromium's Worker, 1.5 s after reopening
 * FluentAvalonia, 121 keystrokes had a Worker p95 of 9 ms with these steps, 11 ms without.
 */
export async function warmStep(ws: HciWorkspace, budgetMs: number, opts: { searches?: boolean } = {}): Promise<{ done: boolean; files: boolean; typed?: string }> {
  const searcher = await ws.searcher();
  // One thing a step (a slice, or a search): whether every file is in already (no budget decodes nothing).
  if (!(await searcher.store.read(() => searcher.session.warmFiles(0)))) {
    return { done: false, files: await searcher.store.read(() => searcher.session.warmFiles(budgetMs)) };
  }
  const files = true;
  if (opts.searches === false) return { done: false, files };
  // One read a step: the next keystroke to type (the list is per index generation).
  const step = await searcher.idleStep('warm:typed', typedWarmQueries, 0);
  if (!('item' in step)) return { done: step.done, files };
  await searcher.search({ query: step.item, limit: WARM_LIMIT });
  return { done: false, files, typed: step.item };
}

/**
 * The warm-up keystrokes: the index's most frequent symbol names (6+ characters), each typed key by
 * key; then every letter not typed yet, those more symbol names begin with first. Every query starts
 * as one letter, and a one-letter word has the longest doclists (`c`, `i`, `t` from split
 * identifiers), so its answer is the slowest a keystroke waits for; searched here, it is one of the
 * session's recent answers (SearchSession.recent) when the first keystroke of a query comes.
 */
function typedWarmQueries(db: Database): string[] {
  const names = frequentSymbolNames(db, { minLength: WARM_NAME_MIN, limit: WARM_NAMES });
  const typed = names.flatMap((n) => Array.from({ length: Math.min(n.length, WARM_NAME_CHARS) }, (_, i) => n.slice(0, i + 1)));
  const seen = new Set(typed.map((q) => q.toLowerCase()));
  const letters = [...new Set([...symbolInitials(db), ...LETTERS])].filter((c) => !seen.has(c));
  return [...typed, ...letters];
}
