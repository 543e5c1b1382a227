// The lines of a file a pattern can match on, from its trigram query (trigrams.ts): every matching
// line holds the query's trigrams, so only lines that satisfy it need the engine (RE2 is the slow
// part of a regex search; testing every line, or the whole text, of every candidate cost more than
// reading them). Exact for ASCII text only: the query's keys are ASCII-lowercased, and outside ASCII
// RE2's case folding (ſ ~ s, K ~ k) and toLowerCase need not agree — callers test such texts
// whole. Owns that narrowing; which lines really match is matcher.ts's, the search procedure
// search.ts's.
import type { TrigramQuery } from './trigrams.ts';
import { FileText } from './file-text.ts';

/** A text cut for line filtering: its lowercase form and where each line starts (a FileText). */
export interface FilterText {
  readonly text: string;
  readonly lower: string;
  /** Offset of each line's first character (line n, 1-based, starts at starts[n - 1]). */
  readonly starts: number[];
}

/** The text ready for filtering, or null when it is not ASCII (then no line can be ruled out this way). */
export function filterText(text: string | FileText): FilterText | null {
  const ft = typeof text === 'string' ? new FileText(text) : text;
  return ft.ascii ? ft : null;
}

/** Line n (1-based) of the text, without its line break. */
export function lineOf(t: FilterText, n: number): string {
  const end = n < t.starts.length ? t.starts[n] - 1 : t.text.length;
  return t.text.slice(t.starts[n - 1], end);
}

/**
 * The 1-based numbers of the lines that satisfy the query, ascending; null when it rules out no
 * line ('all'). An empty list: no line can match. An AND starts from the lines of its first
 * trigram and narrows them by the rest, stopping as soon as none is left: most candidate files of
 * a search hold the pattern's trigrams on different lines, and then one scan decides.
 */
export function candidateLines(t: FilterText, q: TrigramQuery): number[] | null {
  if (q.op === 'all') return null;
  if (q.op === 'none') return [];
  if (q.op === 'and' && q.trigrams.length > 0) return narrow(t, q, linesHolding(t, q.trigrams[0]), 1);
  return narrow(t, q, Array.from({ length: t.starts.length }, (_, i) => i + 1), 0);
}

/** The lines of `lines` (ascending) that satisfy q; an AND's trigrams before `from` are known to hold. */
function narrow(t: FilterText, q: TrigramQuery, lines: number[], from = 0): number[] {
  if (lines.length === 0 || q.op === 'all') return lines;
  if (q.op === 'none') return [];
  if (q.op === 'and') {
    let out = lines;
    for (let i = from; i < q.trigrams.length && out.length > 0; i++) out = withTrigram(t, q.trigrams[i], out);
    for (let i = 0; i < q.subs.length && out.length > 0; i++) out = narrow(t, q.subs[i], out);
    return out;
  }
  // OR: a line passes when some branch lets it through; each branch sees only the lines not yet passed.
  let rest = lines;
  let passed: number[] = [];
  const take = (hit: number[]) => {
    if (hit.length === 0) return;
    passed = unite(passed, hit);
    rest = minus(rest, hit);
  };
  for (let i = 0; i < q.trigrams.length && rest.length > 0; i++) take(withTrigram(t, q.trigrams[i], rest));
  for (let i = 0; i < q.subs.length && rest.length > 0; i++) take(narrow(t, q.subs[i], rest));
  return passed;
}

/**
 * The lines of `lines` (ascending) whose lowercase text holds `tri`: one forward sweep, jumping
 * from occurrence to occurrence with indexOf, so the text after the last line asked about (or
 * after the trigram's last occurrence) is never read.
 */
function withTrigram(t: FilterText, tri: string, lines: number[]): number[] {
  const out: number[] = [];
  if (tri.includes('\n')) return out;
  const { lower, starts } = t;
  let next = -1; // the next occurrence at or after the current line's start (when ≥ that start)
  for (const n of lines) {
    const start = starts[n - 1];
    if (next < start) {
      next = lower.indexOf(tri, start);
      if (next < 0) break;
    }
    const end = n < starts.length ? starts[n] - 1 : lower.length;
    if (next + tri.length <= end) out.push(n);
  }
  return out;
}

/** The lines (1-based, ascending, once each) whose lowercase text holds `tri`. */
function linesHolding(t: FilterText, tri: string): number[] {
  const out: number[] = [];
  if (tri.includes('\n')) return out;
  let line = 1;
  for (let at = t.lower.indexOf(tri); at >= 0; ) {
    while (line < t.starts.length && t.starts[line] <= at) line++;
    out.push(line);
    // The next occurrence on a later line.
    if (line >= t.starts.length) break;
    at = t.lower.indexOf(tri, t.starts[line]);
  }
  return out;
}

/** The lines of a (ascending) not in b (ascending, a subset of a). */
function minus(a: number[], b: number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length; i++) {
    if (j < b.length && a[i] === b[j]) j++;
    else out.push(a[i]);
  }
  return out;
}

function unite(a: number[], b: number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else if (i >= a.length || b[j] < a[i]) out.push(b[j++]);
    else {
      out.push(a[i++]);
      j++;
    }
  }
  return out;
}
