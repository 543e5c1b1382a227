// What kind of query this is, for ranking policies that differ by kind (the blend: how much a
// declaration of a query identifier weighs, rerank.ts) and for routing between channels: a `symbol`
// query names code (`MudDataGrid`, `GetCatalogItemsAsync`, `Shop:Checkout:MaxItemsPerOrder`,
// `tariff`), a `question` is words only (`where is the order discount calculated`), a `mixed` query
// has identifiers among words (a commit subject: `MudDataGrid: Fix NRE when a property is null`).
// Owns the classification and the identifier test it rests on; what each kind changes is the caller's.
// API (for ranking and fusion; keep it this small): queryType(parsed) → 'symbol' | 'question' |
// 'mixed'; identifierWords(parsed) → the written identifiers; isIdentifierWord(word); bareWord(word);
// asksHow(parsed) → a question put as one (`how …`, `what …`, a `?`), not a commit subject or a paraphrase;
// isStated(parsed) → words stated, not asked (a commit subject, a paraphrase); queryForm(parsed) → the
// type with a question split into `question` (asked) and `stated` — the one place "stated" is decided;
// QUERY_FORMS → the forms' names (declared in core/contract/limits.ts), which settings (term_weight_types,
// fusion_gate.types, factor_weights' rows) and explain's schema (fusion_type) list.
// Users today: rerank.ts (declarations for symbol queries, question_identifier_share, question_short_lines,
// stated_docs_factor and factor_weights' `stated` row: isStated), term-weights.ts (term_weight_types: queryForm), fuse.ts (fusion_by_type:
// queryForm), pipeline.ts (RankedResult.queryType, shown by explain as query_type).
import type { ParsedQuery } from './query.ts';
import { asciiTwin } from '../ascii-regex.ts';
import { QUERY_FORMS } from '../contract/limits.ts';

export type QueryType = 'symbol' | 'question' | 'mixed';

/** A .NET configuration key path: `Payments:RetryPolicy:MaxAttempts` or its environment form `Payments__RetryPolicy`. */
const CONFIG_PATH = asciiTwin('^[\\p{L}_][\\p{L}\\p{N}_]*(?:(?::|__)[\\p{L}\\p{N}_]+)+$', 'u');
/** Letters, digits, `_` and `-` (and dots between them: `Foo.Bar`). */
const IDENTIFIER_LIKE = asciiTwin('^[\\p{L}_][\\p{L}\\p{N}_-]*(?:\\.[\\p{L}_][\\p{L}\\p{N}_-]*)*$', 'u');
/** A capital after the first letter, an `_`, a `-`, a `.` or a lower→upper step: the word is written as code. */
const CODE_SHAPE = asciiTwin('^.+\\p{Lu}|[_.-]|\\p{Ll}\\p{Lu}', 'u');

/** A query word as written, without the punctuation around it (`MudDataGrid:` → `MudDataGrid`). */
export function bareWord(w: string): string {
  return w.replace(/^["'@.#(\[]+|["',;:)\]?!.]+$/g, '');
}

/**
 * Whether a written word is an identifier: written as code (`MudDataGrid`, `max_items`, `cart-pulse`,
 * `IDialogService`, `Foo.Bar`) or a config key path. A capitalised word (`Fix`, `Vertical`) is not:
 * commit subjects capitalise plain words anywhere.
 */
export function isIdentifierWord(w: string): boolean {
  // Type parameters as written (`Outcome<TResult>`) are part of the name, not of its test.
  const b = bareWord(w).replace(/<[^<>]*(?:<[^<>]*>[^<>]*)*>$/, '');
  if (CONFIG_PATH.for(b).test(b)) return true;
  return b.length >= 3 && IDENTIFIER_LIKE.for(b).test(b) && CODE_SHAPE.for(b).test(b) && !/^\p{Lu}[\p{Ll}\d]*$/u.test(b);
}

/** The written words that are identifiers (isIdentifierWord), bare, in order, once each. */
export function identifierWords(q: Pick<ParsedQuery, 'written'>): string[] {
  return [...new Set(q.written.filter((w) => isIdentifierWord(w)).map(bareWord))];
}

/**
 * `symbol`: one word, or up to three words that are all identifiers; `question`: no identifier;
 * `mixed`: identifiers among other words. A query the literal channel answers (`re:`, quoted
 * literals) is a `symbol` query: it names exact text.
 */
export function queryType(q: Pick<ParsedQuery, 'written' | 'text'>): QueryType {
  const words = q.written.filter((w) => bareWord(w));
  if (q.text || words.length <= 1) return 'symbol';
  const ids = words.filter((w) => isIdentifierWord(w)).length;
  if (ids === words.length && words.length <= 3) return 'symbol';
  return ids === 0 ? 'question' : 'mixed';
}

/** Words a question put as one begins with. */
const ASKING = new Set(['how', 'what', 'where', 'which', 'when', 'why', 'who', 'does', 'do', 'is', 'are', 'can', 'should']);

/**
 * Whether the query is put as a question: its first word asks (`how are …`, `what happens when …`)
 * or it holds a `?`. Such a question asks what code does, where a commit subject (`Fixed resize
 * canvas black bars`) or a paraphrase names a change or a thing.
 */
export function asksHow(q: Pick<ParsedQuery, 'raw'>): boolean {
  if (q.raw.includes('?')) return true;
  const first = /\p{L}+/u.exec(q.raw);
  return first !== null && ASKING.has(first[0].toLowerCase());
}

/**
 * Words stated, not asked: not a symbol query and not put as a question (asksHow) — a commit subject
 * (`Fixed resize canvas black bars`, `MudDataGrid: Fix NRE when …`) or a paraphrase of what code does.
 */
export function isStated(q: Pick<ParsedQuery, 'written' | 'text' | 'raw'>): boolean {
  return queryType(q) !== 'symbol' && !asksHow(q);
}

/**
 * The query type with a question split by how it is put: `question` asks (`how …`, `what …`, a `?`),
 * `stated` describes (`let an async event handler hold up the caller until it signals …`). A mixed
 * query stays `mixed` whether or not it is stated.
 */
export { QUERY_FORMS };
export type QueryForm = (typeof QUERY_FORMS)[number];

export function queryForm(q: Pick<ParsedQuery, 'written' | 'text' | 'raw'>): QueryForm {
  const t = queryType(q);
  return t === 'question' && isStated(q) ? 'stated' : t;
}
