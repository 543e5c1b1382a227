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
 * line ('all'). An empty list: no line can match.
 */
export function candidateLines(t: FilterText, q: TrigramQuery): number[] | null {
  if (q.op === 'all') return null;
  if (q.op === 'none') return [];
  const sets: number[][] = [];
  for (const tri of q.trigrams) {
    const lines = linesHolding(t, tri);
    if (q.op === 'and' && lines.length === 0) return [];
    sets.push(lines);
  }
  for (const sub of q.subs) {
    const lines = candidateLines(t, sub);
    if (lines === null) {
      if (q.op === 'or') return null;
      continue;
    }
    if (q.op === 'and' && lines.length === 0) return [];
    sets.push(lines);
  }
  if (sets.length === 0) return null;
  return q.op === 'and' ? sets.reduce(intersect) : sets.reduce(unite);
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

function intersect(a: number[], b: number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] === b[j]) {
      out.push(a[i]);
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
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
