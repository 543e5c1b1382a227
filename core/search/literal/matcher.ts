// The engine that checks literals and regexes against stored lines: RE2 (re2js, a pure-JS port: no
// backtracking, so a hostile pattern like `(a+)+$` costs time linear in the text, never a hang; the
// same syntax family as ripgrep's Rust regex), with case-insensitive and whole-word matching; a
// literal is a plain indexOf — case-sensitive, or an ASCII literal ignoring case (with RE2's case
// folding reproduced: foldForAsciiLiteral) — so a search for literals only never loads the engine
// (importing and first running re2js cost 20–90 ms, most of a first literal search at 50k chunks).
// Owns compiling a TextQuery into per-line tests (and a whole-text prefilter for scans), whether a
// query needs the engine, and turning the engine's refusal into `invalid_regex`. Where the
// candidates come from is the channel's (channels/literal.ts), which trigrams they need trigrams.ts's.
import type { RE2JS as Re2Engine } from 're2js';
import { HciError } from '../../platform.ts';
import type { TextPattern, TextQuery } from '../query.ts';
import { readRegex, literalNode, type RegexNode } from './regex-syntax.ts';
import type { FileText } from './file-text.ts';

type Re2Static = typeof import('re2js').RE2JS;
let RE2JS: Re2Static | null = null;

/**
 * Loads the regex engine (re2js, ~260 KB) once: the search entry points await it before a query
 * that reaches the literal channel, so a keyword search (and a CLI start) never loads it.
 */
export async function loadRegexEngine(): Promise<void> {
  RE2JS ??= (await import('re2js')).RE2JS;
}

/** Whether loadRegexEngine() already ran (then a search needs no look at its query first). */
export function regexEngineLoaded(): boolean {
  return RE2JS !== null;
}

/**
 * Whether compiling the query's patterns needs the engine (loadRegexEngine first): a regex, whole-word
 * matching, or a literal ignoring case with characters outside ASCII; a literal otherwise is indexOf.
 */
export function needsRegexEngine(q: Pick<TextQuery, 'patterns' | 'caseSensitive' | 'wholeWord'>): boolean {
  return q.patterns.some((p) => p.kind !== 'literal' || q.wholeWord || (!q.caseSensitive && !ASCII.test(p.source)));
}

function engine(): Re2Static {
  if (!RE2JS) throw new HciError('query_failed', 'the regex engine was not loaded before a literal search', 'report this: the search entry point loads it (loadRegexEngine)');
  return RE2JS;
}

/** What whole-word matching puts around a pattern (ripgrep's -w: a non-word character or the line's edge). */
const NON_WORD = '[^\\p{L}\\p{N}\\p{M}_]';

const ASCII = /^[\x00-\x7f]*$/;

/** Longest pattern accepted (the engine's program grows with it; ripgrep has a size limit too). */
export const MAX_PATTERN_CHARS = 1000;

export interface LineTest {
  /** Whether one line (no line break in it) holds a match. */
  test(line: string): boolean;
}

export interface CompiledPattern {
  pattern: TextPattern;
  line: LineTest;
  /**
   * The 1-based numbers of the lines of a whole text (lines joined by \n) that match, found without
   * cutting it into lines (a literal: indexOf over the text); null when this pattern cannot (then the
   * caller tests line by line). Must agree with `line` on every line.
   */
  linesOf: ((text: FileText) => number[] | null) | null;
  /**
   * A test of a whole file's text (lines joined by \n) that is true whenever some line matches
   * (it may also be true when none does); null when the pattern's anchors forbid it (\A, \z, (?-m)).
   */
  text: LineTest | null;
  /** The pattern's tree, for the trigram analysis. */
  tree: RegexNode;
}

function engineError(p: TextPattern, e: unknown): HciError {
  const message = (e as Error)?.message ?? String(e);
  return new HciError(
    'invalid_regex',
    `the regex ${JSON.stringify(p.source)} is refused: ${message.replace(/^error parsing regexp: /, '')}`,
    'write it in RE2 syntax (as ripgrep takes it): no backreferences (\\1) or lookaround ((?=, (?<=); escape literal ( [ { . * + ? | \\ ^ $; ' +
      'or search the text literally (mode "literal"; on the command line -F)',
  );
}

function compileRe2(source: string, caseSensitive: boolean, multiline: boolean, p: TextPattern): Re2Engine {
  const RE2 = engine();
  try {
    return RE2.compile(source, (caseSensitive ? 0 : RE2.CASE_INSENSITIVE) | (multiline ? RE2.MULTILINE : 0));
  } catch (e) {
    throw engineError(p, e);
  }
}

/** Compiles one pattern of a query (throws `invalid_regex` for a pattern the engine refuses). */
export function compilePattern(p: TextPattern, q: Pick<TextQuery, 'caseSensitive' | 'wholeWord'>): CompiledPattern {
  if (p.source.length > MAX_PATTERN_CHARS) {
    throw new HciError('invalid_regex', `the pattern is ${p.source.length} characters; the limit is ${MAX_PATTERN_CHARS}`, 'shorten the pattern');
  }
  const oneLine = !/[\n\r]/.test(p.source);
  if (p.kind === 'literal' && q.caseSensitive && !q.wholeWord) {
    const lit = p.source;
    const test = { test: (s: string) => s.includes(lit) };
    return { pattern: p, line: test, text: test, linesOf: oneLine ? (t) => occurrenceLines(t.text, lit) : null, tree: literalNode(lit, false) };
  }
  if (p.kind === 'literal' && !q.wholeWord && ASCII.test(p.source)) {
    // An ASCII literal ignoring case: lowercase and indexOf (4-5x the engine's speed here); text
    // with other characters is folded as RE2 folds it (foldForAsciiLiteral), not by toLowerCase.
    const lower = p.source.toLowerCase();
    const test = { test: (s: string) => (ASCII.test(s) ? s.toLowerCase() : foldForAsciiLiteral(s)).includes(lower) };
    const linesOf = oneLine ? (t: FileText) => occurrenceLines(t.ascii ? t.lower : foldForAsciiLiteral(t.text), lower) : null;
    return { pattern: p, line: test, text: test, linesOf, tree: literalNode(p.source, true) };
  }
  const body = p.kind === 'literal' ? engine().quote(p.source) : p.source;
  // Compile the pattern alone first: an error then names the user's pattern, not the wrapper.
  const bare = compileRe2(body, q.caseSensitive, false, p);
  const source = q.wholeWord ? `(?:^|${NON_WORD})(?:${body})(?:$|${NON_WORD})` : body;
  const line = q.wholeWord ? compileRe2(source, q.caseSensitive, false, p) : bare;
  const anchored = p.kind === 'regex' && /\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m/.test(p.source);
  const text = anchored ? null : compileRe2(source, q.caseSensitive, true, p);
  const tree = p.kind === 'literal' ? literalNode(p.source, !q.caseSensitive) : readRegex(p.source, !q.caseSensitive);
  return { pattern: p, line: { test: (s) => line.test(s) }, text: text && { test: (s) => text.test(s) }, linesOf: null, tree };
}

/** RE2's case-insensitive matches of ASCII letters outside ASCII: ſ (U+017F) ~ s, K (U+212A, Kelvin) ~ k. */
const FOLDED_TO_ASCII = /[A-Z\u017f\u212a]/g;

/**
 * The text as RE2 compares it with an ASCII literal ignoring case: ASCII letters lowercased, ſ → s,
 * K → k (the only other characters whose simple case folding holds an ASCII letter), every other
 * character as it is — one code unit for one, so offsets and line breaks stay where they were.
 */
export function foldForAsciiLiteral(s: string): string {
  return s.replace(FOLDED_TO_ASCII, (c) => (c === '\u017f' ? 's' : c === '\u212a' ? 'k' : String.fromCharCode(c.charCodeAt(0) | 32)));
}

/** The 1-based lines of `text` holding `needle` (which has no line break), each once. */
function occurrenceLines(text: string, needle: string): number[] {
  const out: number[] = [];
  let line = 1;
  let counted = 0; // text before this offset has been counted into `line`
  for (let at = text.indexOf(needle); at >= 0; ) {
    for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < at; nl = text.indexOf('\n', nl + 1)) {
      line++;
      counted = nl + 1;
    }
    if (counted < at) counted = at;
    out.push(line);
    // The next occurrence on another line: search from the start of the next line.
    const eol = text.indexOf('\n', at + needle.length);
    if (eol < 0) break;
    line++;
    counted = eol + 1;
    at = text.indexOf(needle, eol + 1);
  }
  return out;
}
