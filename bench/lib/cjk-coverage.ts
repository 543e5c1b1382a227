// The CJK target, measured one way for the test and the bench: every 2–6-character substring of the
// CJK runs of some texts, searched by itself; it passes when each of its top 3 hits holds it (where it
// really is comes from the literal channel: every matching line) and, when it sits in at most 3
// chunks, all its lines are in the top 3 (else the top 3 are full). Owns that check only.
import type { HciWorkspace } from '../../core/workspace.ts';
import { cjkRuns } from '../../core/search/cjk.ts';

export interface CjkCoverage {
  substrings: number;
  /** One line per substring that failed: what went wrong. */
  failures: string[];
}

export async function cjkCoverage(w: HciWorkspace, texts: Iterable<string>): Promise<CjkCoverage> {
  const subs = new Set<string>();
  for (const text of texts) {
    for (const run of cjkRuns(text)) {
      const cs = Array.from(run);
      for (let n = 2; n <= 6; n++) for (let i = 0; i + n <= cs.length; i++) subs.add(cs.slice(i, i + n).join(''));
    }
  }
  const failures: string[] = [];
  for (const s of subs) {
    const truth = await w.search({ query: s, mode: 'literal', limit: 50 });
    const lines = truth.hits.flatMap((h) => (h.match_lines ?? []).map((l) => ({ path: h.path, line: l })));
    const top = (await w.search({ query: s, limit: 3 })).hits;
    const covers = (h: (typeof top)[number], l: { path: string; line: number }) => h.path === l.path && h.start_line <= l.line && l.line <= h.end_line;
    const wrong = top.filter((h) => !lines.some((l) => covers(h, l)));
    const chunks = new Set(truth.hits.map((h) => h.hit_id.split('.')[0]));
    const missed = chunks.size <= 3 ? lines.filter((l) => !top.some((h) => covers(h, l))) : top.length < 3 ? lines : [];
    if (lines.length === 0 || top.length === 0 || wrong.length || missed.length) failures.push(`${s}: ${lines.length} lines, ${wrong.length} wrong, ${missed.length} missed`);
  }
  return { substrings: subs.size, failures };
}
