// File-level evidence for rerank: answers are files (the eval, and a reader, judge the file a hit
// opens), but BM25 scores chunks one by one. Two signals put a file's chunks back together:
// - coverage: the share of the query's words that the file's best candidates hold together (a style
//   file whose one chunk says "RangeSlider … Thumb" and another "… Color" holds all of "fix RangeSlider
//   thumb color"; the class whose member keys repeat "RangeSlider" in the heavy symbol column holds two
//   of them), weighed as a factor (1 + coverage_boost) ^ share;
// - several matching chunks: a file with more than one candidate gains file_chunks_bonus per other
//   chunk, in proportion to that chunk's score against the file's best (capped at FILE_CHUNKS_CAP).
// Owns the query's coverage words, the per-file shares and the per-file bonus; the factors' place in
// the score (and the pool they are computed over) is rerank.ts's.
import { lowerBody, type Candidate } from './candidates.ts';
import type { ParsedQuery } from './query.ts';

/** At most this many other chunks' worth of bonus (a long file with many weak hits must not win on count). */
export const FILE_CHUNKS_CAP = 5;

/**
 * The words coverage counts: the query's word and phrase tokens of 3+ letters, a long word without
 * its inflection (`hovered` → `hover`, `popups` → `popup`) so the text's other forms count; fewer
 * than two words: none (a one-word query is all or nothing, BM25 already says which).
 */
export function coverageWords(q: Pick<ParsedQuery, 'clauses'>): string[] {
  const tokens = q.clauses.flatMap((c) => (c.kind === 'word' ? [c.token] : c.kind === 'phrase' ? c.tokens : []));
  const words = [...new Set(tokens.filter((t) => t.length >= 3).map((t) => (t.length > 5 ? t.replace(/(?:ing|ed|es|s)$/, '') : t)))];
  return words.length >= 2 ? words : [];
}

/**
 * For each file among the candidates, the share of `words` that its candidates' path, symbol and
 * text hold between them (substring match on the lowercase text: identifier parts count, `color`
 * in `ThumbColor`). With `perFile` above 0 only each file's first that many candidates count (in
 * the order given: a long file's many weak chunks hold every word somewhere), of the files
 * `capped` says (all by default). Candidates need their bodies loaded.
 */
export function fileCoverage(cands: readonly Candidate[], words: readonly string[], perFile = 0, capped: (fileId: number) => boolean = () => true): Map<number, number> {
  const held = new Map<number, Set<string>>();
  const seen = new Map<number, number>();
  for (const c of cands) {
    let set = held.get(c.fileId);
    if (!set) held.set(c.fileId, (set = new Set()));
    const n = (seen.get(c.fileId) ?? 0) + 1;
    seen.set(c.fileId, n);
    if (set.size === words.length || (perFile > 0 && n > perFile && capped(c.fileId))) continue;
    // Path, symbol and body each in lower case (the body's kept: lowerBody). Lowercasing them apart is
    // lowercasing them joined by \n (no letter's case looks across a line break), and a word without
    // one is in the joined text exactly when it is in one of them.
    const path = c.path.toLowerCase();
    const symbol = (c.symbolName ?? '').toLowerCase();
    const body = lowerBody(c);
    for (const w of words) {
      if (set.has(w)) continue;
      if (w.includes('\n') ? `${path}\n${symbol}\n${body}`.includes(w) : path.includes(w) || symbol.includes(w) || body.includes(w)) set.add(w);
    }
  }
  const out = new Map<number, number>();
  for (const [fileId, set] of held) out.set(fileId, set.size / words.length);
  return out;
}

/**
 * The factor of each file with more than one candidate: 1 + bonus × (the sum of its other
 * candidates' scores / its best score, at most FILE_CHUNKS_CAP). Scores must be final but for it.
 */
export function fileChunkFactors(cands: readonly Candidate[], bonus: number): Map<number, number> {
  const files = new Map<number, { best: number; sum: number; n: number }>();
  for (const c of cands) {
    const f = files.get(c.fileId);
    if (f) {
      f.best = Math.max(f.best, c.score);
      f.sum += c.score;
      f.n++;
    } else files.set(c.fileId, { best: Math.max(0, c.score), sum: c.score, n: 1 });
  }
  const out = new Map<number, number>();
  for (const [fileId, { best, sum, n }] of files) {
    if (n < 2 || best <= 0) continue;
    out.set(fileId, 1 + bonus * Math.min(FILE_CHUNKS_CAP, (sum - best) / best));
  }
  return out;
}
