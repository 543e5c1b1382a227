// Own evidence of a chunk against its file's shared evidence. Every chunk of a file carries the
// file's path (path column) and, for a member, its member key's namespace and type segments (symbol
// column): words from those fields match every sibling alike, so BM25's length normalisation hands
// them to the file's TINIEST chunk (a 4-line `Exception Cause { get; }` whose path and key say
// "persistence … journal … event" outscores the method that persists events), and the file's
// coverage share (file-evidence.ts) then lifts that chunk too. Here a chunk's own evidence is the
// query's coverage words its own text holds (body and own symbol name: not path, key or header); in
// each file, the best chunk holding at least one of them leads, and a sibling holding none (matched by
// the file's shared words alone) weighs no more than it — so file-shared words count once per file,
// carried by a chunk that says something itself. The file's own score becomes lead + (1 − own_evidence) × (best −
// lead): 1 ranks the file by its lead alone, 0 only picks which chunk shows.
// Owns the own-evidence counts and the per-chunk factor; the factor's place in the score is rerank.ts's.
import { lowerBody, type Candidate } from './candidates.ts';

/** A symbol name's own last segment: `Contoso.Persistence.Journal` → `Journal` (the rest names its containers). */
export function ownName(symbolName: string | null | undefined): string {
  return symbolName ? symbolName.slice(symbolName.search(/[^.+:/\\]*$/)) : '';
}

/** How many of `words` a chunk's own text (its own symbol name and its body; lowercase substring) holds. */
export function ownWords(c: Pick<Candidate, 'symbolName' | 'body' | 'bodyLower'>, words: readonly string[]): number {
  // Name and body in lower case apart (the body's kept: candidates.ts lowerBody), as in fileCoverage.
  const name = ownName(c.symbolName).toLowerCase();
  const body = lowerBody(c);
  let n = 0;
  for (const w of words) if (w.includes('\n') ? `${name}\n${body}`.includes(w) : name.includes(w) || body.includes(w)) n++;
  return n;
}

/**
 * The factor of each candidate whose score moves (the others: none): per file among `cands` (bodies
 * loaded, scores final but for later file-level factors), the lead is its best-scored chunk that holds
 * at least one of `words` in its own text; when a sibling holding none of them (its match is the
 * file's shared words alone) scores above the lead, the lead is raised to lead + (1 − weight) × (best −
 * lead) and every such sibling is held just below the lead's new score. Files with no such sibling
 * above their lead are left alone; a file none of whose chunks holds a word itself (its match is the
 * path's and member keys' words alone) weighs `sharedOnly` (1: left alone).
 */
export function ownEvidenceFactors(cands: readonly Candidate[], words: readonly string[], weight: number, sharedOnly = 1): Map<Candidate, number> {
  const out = new Map<Candidate, number>();
  if (words.length < 2) return out;
  const byFile = new Map<number, Array<{ c: Candidate; own: number }>>();
  for (const c of cands) {
    let list = byFile.get(c.fileId);
    if (!list) byFile.set(c.fileId, (list = []));
    list.push({ c, own: ownWords(c, words) });
  }
  for (const list of byFile.values()) {
    if (list.length < 2 && (sharedOnly === 1 || list[0].own > 0)) continue;
    let lead: { c: Candidate; own: number } | null = null;
    let best = 0;
    for (const e of list) {
      if (e.own > 0 && (!lead || e.c.score > lead.c.score)) lead = e;
      best = Math.max(best, e.c.score);
    }
    if (!lead) {
      // No chunk of the file holds a query word itself: its match is the file's shared words alone.
      if (sharedOnly !== 1) for (const e of list) out.set(e.c, sharedOnly);
      continue;
    }
    const from = lead.c.score;
    if (best <= from || from <= 0) continue;
    const to = from + (1 - weight) * (best - from);
    if (to > from) out.set(lead.c, to / from);
    // Just below the lead (its siblings keep their order among themselves).
    const cap = to * 0.999;
    for (const e of list) if (e.own === 0 && e.c.score > cap) out.set(e.c, (cap * (e.c.score / best) ** 0.001) / e.c.score);
  }
  return out;
}
