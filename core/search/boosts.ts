// Text-level ranking signals that BM25 cannot see, computed on the few best candidates only:
// the query appearing verbatim in the chunk, and a query identifier appearing where it is defined
// (a type or member declaration, an x:Name/x:Key, a config key, a CSS selector) rather than used.
// Structural chunks (symbol names) make the second partly redundant for C#; it still serves the
// files no chunker understands. Each signal is a named factor that explain shows. Both read the
// parsed query (query.ts): its words as written and its verbatim phrase, never the raw text again.
import type { ParsedQuery } from './query.ts';
import { asciiTwin } from '../ascii-regex.ts';

const MODIFIERS = '(?:public|private|protected|internal|static|async|override|virtual|abstract|sealed|partial|extern|unsafe|new|readonly|required|const|export|default)';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A sticky regex that finds a definition of `ident` in code, markup or config text AT a position
 * where the identifier starts: each form below as its context before the identifier (a lookbehind),
 * the identifier, and its context after. definesIdent tries it at each place the identifier occurs,
 * so a chunk is scanned for the identifier's bytes (indexOf), not by ten forms at every position: a
 * text holds a match of a form exactly when one of its occurrences has the form's context on both
 * sides (lookbehinds see the whole text, `^` with `m` included). The forms were one alternation
 * tried at every position (bench/results/search-warm-warm13.md), and before that ten scans.
 */
function definitionPatterns(ident: string): RegExp[] {
  const id = escapeRe(ident);
  // Case-sensitive: `orderingDb` (a local) is not a definition of `OrderingDb` (a config key).
  // [before the identifier, after it]
  const forms: Array<[string, string]> = [
    ['\\b(?:class|interface|record|struct|enum|function|namespace|module|delegate|event)\\s+(?:[\\w.]+\\.)?', '\\b'],
    // A member after modifiers: a method, property or indexer (`(`, `<`, `{`, `=>`), or a field or
    // const with or without its initializer (`= …`, `;`).
    [`^[ \\t]*(?:\\[[^\\]\\n]*\\][ \\t]*)*(?:${MODIFIERS}\\s+)+[\\w<>\\[\\],.?() \\t]*?\\b`, '\\s*(?:[(<{;]|=>|=(?!=))'],
    ['^[ \\t]*(?:async\\s+)?', '\\s*\\([^)\\n]*\\)\\s*\\{'],
    ['\\b(?:const|let|var)\\s+', '\\s*='],
    ['@inject\\s+[\\w.<>?]+\\s+', '\\b'],
    ['\\bx:(?:Name|Key|Class)\\s*=\\s*"(?:[\\w.]+\\.)?', '"'],
    ['^[ \\t]*"', '"\\s*:'],
    // A YAML key, in a list item or not. (Not `^[ \t]*-?[ \t]*`: the same lines, but two runs of
    // indentation to split tried at every line of every candidate — C#'s deep indentation made it the
    // costliest of these patterns.)
    ['^[ \\t]*(?:-[ \\t]*)?', '\\s*:(?:\\s|$)'],
    ['^[ \\t]*\\[?', '\\]?\\s*='],
    ['(?:^|[\\s,>+~}])[.#]', '(?![\\w-])[^{};\\n]*\\{'],
  ];
  return [new RegExp(forms.map(([before, after]) => `(?<=${before})${id}(?:${after})`).join('|'), 'my')];
}

const WORD_CHAR = /\w/;

/**
 * Whether `text` holds a definition of `ident`: definitionPatterns' sticky regex tried where the
 * identifier occurs. Every form has the identifier between a character that is no word character
 * (or a line's start) and one that is not (or the text's end): for an identifier of word characters,
 * an occurrence inside a longer word (a prefix typed so far, `Text` in `TextBox`) is not tried.
 */
function definesIdent(text: string, ident: string, re: RegExp): boolean {
  const word = /^\w+$/.test(ident);
  for (let at = text.indexOf(ident); at >= 0; at = text.indexOf(ident, at + 1)) {
    if (word && ((at > 0 && WORD_CHAR.test(text[at - 1])) || (at + ident.length < text.length && WORD_CHAR.test(text[at + ident.length])))) continue;
    re.lastIndex = at;
    if (re.test(text)) return true;
  }
  return false;
}

/** A .NET configuration key path: `Payments:RetryPolicy:MaxAttempts` or its environment form `Payments__RetryPolicy`. */
const CONFIG_PATH = asciiTwin('^[\\p{L}_][\\p{L}\\p{N}_]*(?:(?::|__)[\\p{L}\\p{N}_]+)+$', 'u');
/** An identifier-like word (letters, digits, `_`, `-`), and one with a capital, `_`, `-` or a lower→upper step. */
const IDENTIFIER_LIKE = asciiTwin('^[\\p{L}_][\\p{L}\\p{N}_-]*$', 'u');
const CASED = asciiTwin('[A-Z_-]|\\p{Ll}\\p{Lu}', 'u');
/** A phrase with a space or a character that is no word character. */
const SPACED = asciiTwin('\\s|[^\\p{L}\\p{N}_]', 'u');

/** Identifier-like words (and config key paths) of the query worth checking for definitions. */
export function definitionTargets(q: Pick<ParsedQuery, 'written'>): string[] {
  const words = q.written;
  if (words.length > 3) return [];
  return words
    .map((w) => w.replace(/^["'@.#]+|["',;]+$/g, ''))
    .filter((w) => CONFIG_PATH.for(w).test(w) || (w.length >= 4 && IDENTIFIER_LIKE.for(w).test(w) && CASED.for(w).test(w)));
}

/**
 * A config key path is defined where its segments appear as nested keys, in order: `"Payments": {`
 * … `"RetryPolicy": {` … `"MaxAttempts":` in JSON, or the same keys in YAML. One regex per segment,
 * each searched after the previous match.
 */
function configPathPatterns(path: string): RegExp[] {
  return path.split(/:|__/).map((seg) => new RegExp(`(?:"${escapeRe(seg)}"\\s*:|^[ \\t]*-?[ \\t]*${escapeRe(seg)}\\s*:(?:\\s|$))`, 'gm'));
}

/**
 * `keyPath`: the chunk's own key path when it was cut from a config file (`Catalog`, `Orders`). Such
 * a chunk does not hold its parents' lines: segments its path already stands for are not looked
 * for in its text, and a chunk that is the key (or lies inside it) defines it.
 */
function definesConfigPath(text: string, segments: RegExp[], names: readonly string[], keyPath: readonly string[] | null): boolean {
  const prefix = keyPath?.length && keyPath.every((k, i) => i >= names.length || k === names[i]) ? keyPath.length : 0;
  if (prefix >= names.length) return true;
  let from = 0;
  for (const re of segments.slice(prefix)) {
    re.lastIndex = from;
    const m = re.exec(text);
    if (!m) return false;
    from = m.index + m[0].length;
  }
  return true;
}

export interface TextSignals {
  exact: boolean;
  definition: boolean;
}

/**
 * Whether `lower` (a text in lower case) holds `phrase` once each run of spaces and tabs in the text
 * is one space — what `lower.replace(/[ \t]+/g, ' ').includes(phrase)` says, without a copy of the
 * text: the phrase with each space as `[ \t]+` (a space of the phrase stands between two other
 * characters, so each `[ \t]+` is a whole run). A phrase with a tab, two spaces in a row or a space
 * at an end (none from query.ts's verbatim) is checked as written.
 */
function holdsPhrase(lower: string, phrase: string, cache: Map<string, RegExp[]>): boolean {
  // The query's pattern, made once in its cache (textSignals'); none ([]) for a phrase checked as written.
  const key = `\0phrase:${phrase}`;
  let pats = cache.get(key);
  if (!pats) {
    const plain = !/\t| {2}/.test(phrase) && phrase === phrase.trim();
    cache.set(key, (pats = plain ? [new RegExp(escapeRe(phrase).replace(/ /g, '[ \\t]+'))] : []));
  }
  if (pats.length) return pats[0].test(lower);
  return lower.replace(/[ \t]+/g, ' ').includes(phrase);
}

/**
 * Checks one chunk's text for the signals. `phrase` is the query's verbatim phrase (a quote inside it
 * counts: `@page "/orders"` must not match `@page "/orders/{Id}"`); `targets` come from
 * definitionTargets; `configKey` is the chunk's key path, by segment, when it was cut from a config
 * file (see definesConfigPath); `lower`: the text in lower case, when the caller has it.
 */
export function textSignals(text: string, phrase: string, targets: readonly string[], cache: Map<string, RegExp[]>, configKey: readonly string[] | null = null, lower?: string): TextSignals {
  const exact = phrase.length >= 6 && SPACED.for(phrase).test(phrase) && holdsPhrase(lower ?? text.toLowerCase(), phrase, cache);
  let definition = false;
  for (const t of targets) {
    let pats = cache.get(t);
    if (!pats) {
      pats = CONFIG_PATH.for(t).test(t) ? configPathPatterns(t) : definitionPatterns(t);
      cache.set(t, pats);
    }
    const defined = CONFIG_PATH.for(t).test(t)
      ? definesConfigPath(text, pats, t.split(/:|__/), configKey)
      : definesIdent(text, t, pats[0]);
    if (defined) {
      definition = true;
      break;
    }
  }
  return { exact, definition };
}
