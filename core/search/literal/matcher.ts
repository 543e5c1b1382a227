// The engine that checks literals and regexes against stored lines: RE2 (re2js, a pure-JS port: no
// backtracking, so a hostile pattern like `(a+)+$` costs time linear in the text, never a hang; the
// same syntax family as ripgrep's Rust regex), with case-insensitive and whole-word matching; a
// case-sensitive literal is a plain indexOf. Owns compiling a TextQuery into per-line tests (and a
// whole-text prefilter for scans), and turning the engine's refusal into `invalid_regex`. Where the
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
    // An ASCII literal ignoring case: lowercase and indexOf on ASCII text (4-5x the engine's speed
    // here); text with other characters goes to the engine, whose case folding (ſ ~ s, K ~ k) is
    // not JavaScript's toLowerCase.
    const lower = p.source.toLowerCase();
    const re = compileRe2(engine().quote(p.source), false, false, p);
    const test = { test: (s: string) => (ASCII.test(s) ? s.toLowerCase().includes(lower) : re.test(s)) };
    const linesOf = oneLine ? (t: FileText) => (t.ascii ? occurrenceLines(t.lower, lower) : null) : null;
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
