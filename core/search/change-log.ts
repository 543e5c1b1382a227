// Change logs: a CHANGELOG, release notes or a HISTORY file records what changed, in the words of
// the commit subjects and issue titles that changed it ("Fix retry delay going negative for large
// retries"), so a commit-style query finds its own subject there, verbatim, above the code it
// changed. Such a file answers "when did this change", rarely "where is it": it weighs
// change_log_factor unless the query asks for it (changelog, release notes). Owns what a change log
// is (a prose file by its name) and the words that ask for one; the factor's place in the score is
// rerank.ts's.
import type { ParsedQuery } from './query.ts';

/** A prose file (markdown, text, reStructuredText, or no extension) named as a record of changes. */
const CHANGE_LOG = /(?:^|\/)(?:change[-_. ]?log|changes|history|news|release[-_. ]?notes?|releases)(?:\.(?:md|mdx|markdown|txt|rst))?$/i;

/** Query words that ask for the change log itself. */
const ASKS = new Set(['changelog', 'changelogs', 'release', 'releases']);

export function isChangeLog(path: string): boolean {
  return CHANGE_LOG.test(path);
}

/** Whether the query names change logs (then they weigh as any docs file). */
export function asksForChangeLog(q: Pick<ParsedQuery, 'written'>): boolean {
  return q.written.some((w) => ASKS.has(w.toLowerCase().replace(/[^a-z]/g, '')));
}
