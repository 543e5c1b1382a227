// Structure-aware signals for UI questions ("which page shows the order history", "what window lets
// me edit a customer"): such a question asks for a view — a routable Razor page or an AXAML/XAML view
// or window — so views weigh more, and most of all a view whose route (`@page "/orders/history"`) or
// title (`<PageTitle>`, a window's `Title="…"`) holds the question's words. View names, `x:Class` and
// the view ↔ code-behind ↔ view model pairing are matched elsewhere (names and compounds: rerank.ts,
// expand.ts; pairs: pairs.ts). Owns the question test and reading a view's route and title from its
// stored file; the factors' place in the score is rerank.ts's.
import type { StoredFile } from '../index/file-data.ts';
import { wordsOf } from '../text/analyzer.ts';
import type { ParsedQuery } from './query.ts';
import { languageById } from '../languages/table.ts';

const UI_NOUN = '(?:page|view|window|screen|dialog|form|popup|tab)s?';
/** "which page …", "what view …", "the page that shows …", "screen where …". */
const UI_QUESTION = new RegExp(
  `\\b(?:which|what)\\s+(?:\\w+\\s+)?${UI_NOUN}\\b|\\b${UI_NOUN}\\s+(?:that|which|where)\\s+\\w+|\\b${UI_NOUN}\\s+(?:shows?|showing|displays?|lists?|renders?|lets)\\b`,
  'i',
);
const UI_WORDS = new Set(['page', 'pages', 'view', 'views', 'window', 'windows', 'screen', 'screens', 'dialog', 'dialogs', 'form', 'forms', 'popup', 'tab', 'tabs', 'show', 'shows', 'display', 'displays', 'list', 'lists', 'render', 'renders', 'lets']);

/** Whether the query asks which view (page, window, dialog …) does something. */
export function isUiQuestion(q: Pick<ParsedQuery, 'raw'>): boolean {
  return UI_QUESTION.test(q.raw);
}

/** The query words a route or title is matched against: its content words without the UI nouns. */
export function uiTopicWords(q: ParsedQuery): string[] {
  const out = new Set<string>();
  for (const c of q.clauses) for (const t of c.kind === 'word' ? [c.token] : c.kind === 'cjk' ? [c.run] : c.tokens) if (!UI_WORDS.has(t) && t.length >= 3) out.add(t);
  return [...out];
}

const VIEW_ROOT_KINDS = new Set(['page', 'view', 'window']);
const PAGE_TITLE = /<PageTitle>([^<]{1,200})<\/PageTitle>/i;
const ROOT_TITLE = /^\s*<[\w:.]+\b[^>]*?\bTitle\s*=\s*"([^"{][^"]{0,200})"/m;

export interface ViewFacts {
  /** A routable Razor page or an AXAML/XAML view (not a style, resource dictionary or plain component). */
  view: boolean;
  /** Words of its routes and title. */
  words: string[];
}

/** Whether files of a language can be views (the language table's `view`): only those are read for viewFacts. */
export function hasViews(lang: string): boolean {
  return languageById(lang)?.view !== undefined;
}

/** What a stored file is as a view (null for languages without views). */
export function viewFacts(file: StoredFile, lang: string): ViewFacts | null {
  const kind = languageById(lang)?.view;
  if (!kind) return null;
  const root = file.outline[0];
  const routes = file.fileContext.filter((l) => l.startsWith('@page '));
  const view = kind === 'routed' ? routes.length > 0 : VIEW_ROOT_KINDS.has(root?.kind ?? '');
  const words: string[] = [];
  for (const r of routes) words.push(...wordsOf(r.slice(6)));
  const head = file.lines.slice(0, 400).join('\n');
  const title = (kind === 'routed' ? PAGE_TITLE : ROOT_TITLE).exec(head)?.[1];
  if (title) words.push(...wordsOf(title));
  return { view, words };
}

/** Whether two words name the same thing here: equal, or one a prefix of the other of 4+ letters (`order`/`orders`). */
function sameWord(a: string, b: string): boolean {
  if (a === b) return true;
  const [s, l] = a.length < b.length ? [a, b] : [b, a];
  return s.length >= 4 && l.startsWith(s) && l.length - s.length <= 3;
}

/** The topic words the view's routes or title hold. */
export function routeOrTitleMatches(facts: ViewFacts, topic: readonly string[]): string[] {
  return topic.filter((t) => facts.words.some((w) => sameWord(t, w)));
}
