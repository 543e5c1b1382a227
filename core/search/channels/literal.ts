// The literal channel: exact text — quoted literals, regexes (`re:`, mode regex), text without a
// searchable word — found in the stored lines (core/search/literal/search.ts: trigram candidates when
// the literal index is on, RE2 on the lines). Its hits are `text_literal` and carry their matching
// lines. Owns the channel seam for that search and what explain shows of it; the query's text
// patterns come from query.ts, the mode that asks for them from modes.ts (which loads this file on
// first use: channels/deferred.ts).
import type { Channel, ChannelEntry, ChannelHit } from './channel.ts';
import { literalSearch } from '../literal/search.ts';
import { loadRegexEngine, needsRegexEngine } from '../literal/matcher.ts';
import { smartCaseSensitive } from '../literal/smart-case.ts';

/** Trigrams explain lists at most (a long pattern has many). */
const EXPLAIN_TRIGRAMS = 24;

export const literalChannel: Channel = {
  name: 'literal',
  hitKind: 'text_literal',
  scoreField: 'literal_score',

  /**
   * Smart case, when the request did not say (an upper-case letter in any pattern asks for case, as
   * rg -S with several patterns); then the regex engine, when the patterns need it (a literal matched
   * by indexOf does not).
   */
  async prepare(q) {
    if (!q.text) return;
    if (q.text.smartCase) q.text.caseSensitive = q.text.patterns.some((p) => smartCaseSensitive(p.source, p.kind));
    if (needsRegexEngine(q.text)) await loadRegexEngine();
  },

  /**
   * Every chunk with a line matching the query's patterns (each pattern somewhere in the chunk), best
   * first — all of them up to the ranking depth's hit cap (TextQuery.maxHits, page.ts textHitCap; the
   * same for every page), not `pool`: paging must reach every match it collected, as grep would list it.
   */
  search(session, q): ChannelHit[] {
    if (!q.text) return [];
    const { hits, run } = literalSearch(session, q.text, q.text.budgetMs);
    const shared = {
      patterns: JSON.stringify(q.text.patterns.map((p) => `${p.kind}:${p.source}`)),
      case_sensitive: q.text.caseSensitive ? 'yes' : 'no',
      whole_word: q.text.wholeWord ? 'yes' : 'no',
      via: run.via,
      ...(run.scanReason ? { scan_reason: run.scanReason } : {}),
      trigrams: JSON.stringify(run.trigrams.slice(0, EXPLAIN_TRIGRAMS)),
      candidate_files: run.candidateFiles,
      gram_dropped: run.gramDropped,
      checked_files: run.checkedFiles,
      matched_files: run.matchedFiles,
      complete: run.complete ? 'yes' : 'no',
      chunks_matched: hits.length,
      took_ms: run.tookMs,
    };
    return hits.map((h) => ({ row: h.row, score: h.score, lines: h.lines, detail: { ...shared, lines_matched: h.lines.length } }));
  },

  /** How the candidates were found (trigram index or scan), which trigrams, how many files, and the lines. */
  explain(entry: ChannelEntry) {
    const d = entry.detail ?? {};
    return {
      patterns: typeof d.patterns === 'string' ? (JSON.parse(d.patterns) as string[]) : [],
      case_sensitive: d.case_sensitive === 'yes',
      whole_word: d.whole_word === 'yes',
      via: d.via,
      ...(d.scan_reason ? { scan_reason: d.scan_reason } : {}),
      trigrams: typeof d.trigrams === 'string' ? (JSON.parse(d.trigrams) as string[]) : [],
      candidate_files: d.candidate_files,
      gram_dropped: d.gram_dropped,
      checked_files: d.checked_files,
      matched_files: d.matched_files,
      complete: d.complete === 'yes',
      chunks_matched: d.chunks_matched,
      lines_matched: d.lines_matched,
    };
  },
};
