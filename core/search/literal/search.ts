// A literal or regex search over the index's stored text: candidate files from the literal index
// (files_tri: the trigrams every match needs, trigrams.ts; a literal's tiled — then narrowed by the
// files' gram filters, gram-filter.ts) or, without it, every file, in file id order, taken ahead in
// batches whose blobs (and the files' and chunks' rows) are read in one statement each, until the
// ranking depth's hit cap (TextQuery.maxHits: page.ts textHitCap); then the engine (matcher.ts) on each candidate's
// stored lines (read through the session's text cache, text-cache.ts) — in ASCII text only on the
// lines that hold the pattern's trigrams (line-filter.ts) — within the query's time budget; matching
// lines go to the chunks that hold them (each line to the first such chunk), and each chunk is scored
// with BM25 over its matching lines. Owns that procedure and the `search_timeout` error; the channel
// seam is channels/literal.ts's, ranking factors rerank.ts's.
import { HciError } from '../../platform.ts';
import type { Database } from '../../sqlite/engine.ts';
import { literalIndexReady } from '../../index/literal-index.ts';
import type { TextQuery } from '../query.ts';
import type { SearchSession } from '../session.ts';
import type { ChunkRow } from '../channels/channel.ts';
import { compilePattern, type CompiledPattern } from './matcher.ts';
import { allOf, ftsTrigramExpression, literalKeys, tiledLiteralQuery, trigramQuery, trigramsIn, type TrigramQuery } from './trigrams.ts';
import { candidateLines, filterText, lineOf, type FilterText } from './line-filter.ts';
import type { ChunkFacts, FileFacts, FileText } from './file-text.ts';
import { cachedTextReader, sessionTextCache } from './text-cache.ts';
import { wordPrefilter } from './word-prefilter.ts';
import { literalProbes, trigramCandidates, type CandidateStream } from './gram-filter.ts';

/** BM25's constants (the same defaults FTS5 uses). */
const K1 = 1.2;
const B = 0.75;
/** How often (in lines) a long file's check looks at the clock. */
const CLOCK_EVERY_LINES = 4096;

export interface LiteralHit {
  row: ChunkRow;
  score: number;
  lines: number[];
  /** Lines matching each pattern, in pattern order (BM25's term frequencies). */
  perPattern: number[];
}

/** What a search did, for explain and the bench. */
export interface LiteralRun {
  /**
   * `trigrams`: the literal index narrowed the files; `words`: the word index did (whole words inside
   * a literal, word-prefilter.ts); `scan`: every file was checked.
   */
  via: 'trigrams' | 'words' | 'scan';
  /** Why not narrowed: the index is off, or the patterns give no trigram (shorter than 3 characters, `.*`). */
  scanReason?: 'index_off' | 'no_trigrams';
  trigrams: string[];
  candidateFiles: number;
  /** Trigram candidates the gram filter ruled out before reading them (gram-filter.ts; counted up to where the search stopped). */
  gramDropped: number;
  /** Candidate files checked (all of them unless the search stopped at its hit cap; then candidateFiles is a lower bound). */
  checkedFiles: number;
  matchedFiles: number;
  /** False when the search stopped at its hit cap before checking every candidate. */
  complete: boolean;
  tookMs: number;
}

export interface LiteralResult {
  hits: LiteralHit[];
  run: LiteralRun;
}

/** Candidates taken ahead of the check at first, and at most: the batch doubles from the first to the second. */
const AHEAD_FIRST = 8;
const AHEAD_MOST = 64;

/**
 * The stream taken ahead in batches, each batch's blobs read in one statement (`prefetch`) before
 * its files are checked, a batch no larger than the hits still to collect (`room`): a search that
 * stops at its hit cap has stepped the candidate statement and read the blobs of at most one batch
 * more than it checked (no inflating: that happens when a file is read).
 */
function readingAhead(files: CandidateStream, prefetch: (ids: readonly number[]) => void, room: () => number): CandidateStream {
  let batch: number[] = [];
  let at = 0;
  let size = AHEAD_FIRST;
  let done = false;
  return {
    next() {
      if (at >= batch.length) {
        if (done) return null;
        batch = [];
        at = 0;
        // No more ahead than the hits still to collect (each matching file gives one or more).
        const take = Math.min(size, Math.max(AHEAD_FIRST, room()));
        while (batch.length < take) {
          const id = files.next();
          if (id === null) {
            done = true;
            break;
          }
          batch.push(id);
        }
        size = Math.min(AHEAD_MOST, size * 2);
        prefetch(batch);
        if (batch.length === 0) return null;
      }
      return batch[at++];
    },
    close: () => files.close(),
  };
}

/** Every file's id, in file id order (a scan: the literal index is off or cannot narrow). */
function allFiles(db: Database, filtered: boolean): CandidateStream {
  const st = db.prepare(`SELECT f.id FROM files f WHERE 1${filtered ? ' AND hci_path_ok(f.path)' : ''} ORDER BY f.id`);
  return {
    next: (): number | null => (st.step() ? Number(st.getInt(0)) : null),
    close: () => st.finalize(),
  };
}

/**
 * The ids of the files with a chunk whose body holds `words` (an FTS5 expression over chunks_fts),
 * in file id order like trigramCandidates (gram-filter.ts): a search stopped at its hit cap
 * stops at the same hits as a scan would.
 */
function wordCandidateFiles(db: Database, words: string, filtered: boolean): CandidateStream {
  const st = db.prepare(
    'SELECT DISTINCT c.file_id FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid' +
      (filtered ? ' JOIN files f ON f.id = c.file_id' : '') +
      ` WHERE chunks_fts MATCH ?${filtered ? ' AND hci_path_ok(f.path)' : ''} ORDER BY c.file_id`,
  );
  st.bind([words]);
  return {
    next: (): number | null => (st.step() ? Number(st.getInt(0)) : null),
    close: () => st.finalize(),
  };
}

/**
 * The average chunk length in lines (BM25's average document length), once per index generation:
 * the files' lines over the number of chunks — a file's chunks cover its lines, so this is the
 * average of the chunks' own lengths up to lines outside any chunk (the same, 14.3198, on the
 * 50k-chunk bench corpus) — read from the files table and the chunk count instead of a scan of
 * every chunk row (1.4 against 5-9 ms, paid by a session's first literal search).
 */
const avgLines = new WeakMap<SearchSession, { generation: string; avg: number }>();
function averageChunkLines(session: SearchSession): number {
  const generation = String(session.db.selectValue("SELECT value FROM meta WHERE key = 'generation'") ?? '');
  const hit = avgLines.get(session);
  if (hit?.generation === generation) return hit.avg;
  const avg = Number(session.db.selectValue('SELECT (SELECT total(line_count) FROM files) / max(1, (SELECT count(*) FROM chunks))') ?? 1) || 1;
  avgLines.set(session, { generation, avg });
  return avg;
}

/** Runs a text query over the stored text; returns every matching chunk, best first. */
export function literalSearch(session: SearchSession, text: TextQuery, budgetMs: number): LiteralResult {
  const t0 = Date.now();
  const deadline = t0 + budgetMs;
  const compiled = text.patterns.map((p) => compilePattern(p, text));
  const perPattern = compiled.map((c) => trigramQuery(c.tree));
  // What the index is asked: a literal's trigrams tiled (trigrams.ts), a regex's query as it is.
  const query = allOf(perPattern.map((q, k) => (text.patterns[k].kind === 'literal' ? tiledLiteralQuery(q, literalKeys(text.patterns[k].source, !text.caseSensitive)) : q)));
  const run: LiteralRun = { via: 'scan', trigrams: trigramsIn(query), candidateFiles: 0, gramDropped: 0, checkedFiles: 0, matchedFiles: 0, complete: true, tookMs: 0 };
  const empty = (): LiteralResult => ({ hits: [], run: { ...run, tookMs: Date.now() - t0 } });
  if (query.op === 'none') return empty();
  const { db } = session;
  const expr = ftsTrigramExpression(query);
  const indexed = literalIndexReady(db);
  const words = indexed && expr ? null : wordPrefilter(text.patterns);
  if (indexed && expr) run.via = 'trigrams';
  else {
    run.scanReason = indexed ? 'no_trigrams' : 'index_off';
    if (words) run.via = 'words';
  }
  // Trigram candidates come narrowed by the literals' 4- and 8-character pieces (gram-filter.ts).
  const grams = run.via === 'trigrams' ? trigramCandidates(db, expr!, session.filtered, literalProbes(text.patterns, text.caseSensitive)) : null;
  const stream = grams ?? (run.via === 'words' ? wordCandidateFiles(db, words!, session.filtered) : allFiles(db, session.filtered));

  const found: Array<Omit<LiteralHit, 'score'> & { chunkLines: number }> = [];
  // The search stops checking files (in path order) once its page's hit cap of chunks matched
  // (TextQuery.maxHits: page.ts textHitCap at the ranking's depth, at most its MAX_TEXT_HITS); the answer says so (complete).
  const maxHits = text.maxHits;
  const cache = sessionTextCache(session);
  const texts = cachedTextReader(db, session.codec, cache);
  // Files' rows, each with its chunks' rows, as one row of JSON for any number of files: one value to
  // cross from SQLite however many chunks (read once per file: the text cache keeps them).
  const factsOfMany = db.prepare(
    'SELECT json_group_array(json_array(f.id, f.path, f.hash, f.lang, f.flags, json((SELECT json_group_array(json_array(c.id, c.ordinal, c.start_line, c.end_line, c.symbol_kind, c.symbol_name)) ' +
      'FROM chunks c WHERE c.file_id = f.id)))) FROM files f WHERE f.id IN (SELECT value FROM json_each(?))',
  );
  const readFactsOf = (ids: readonly number[]): Array<[number, FileFacts]> => {
    factsOfMany.bind([JSON.stringify(ids)]);
    try {
      if (!factsOfMany.step()) return [];
      const rows = JSON.parse(String(factsOfMany.getString(0) ?? '[]')) as Array<[number, string, string, string, number, ChunkFacts[]]>;
      return rows.map(([id, path, hash, lang, flags, chunks]) => [id, { path, hash, lang, flags, chunks: chunks.sort((a, b) => a[1] - b[1]) }]);
    } finally {
      factsOfMany.reset();
    }
  };
  /** One matching file's facts; no row: the file is gone (no hit). */
  const readFacts = (fileId: number): FileFacts => readFactsOf([fileId])[0]?.[1] ?? { path: '', hash: '', lang: '', flags: 0, chunks: [] };
  // The rows of the files taken ahead (those the cache holds no rows for), read in one statement with
  // their blobs while most files checked so far matched (a literal's candidates, narrowed by the gram
  // filters, nearly all do): a bind, step and reset per matching file through oo1 cost 50-60 µs a
  // file the first time (10-15 ms of a capped search at 50k chunks); one row of JSON per batch costs
  // a few. A regex whose candidates mostly fail (hundreds, none matching) reads a matching file's rows alone.
  const aheadFacts = new Map<number, FileFacts>();
  const files = readingAhead(stream, (ids) => {
    texts.prefetch(ids);
    aheadFacts.clear();
    if (2 * run.matchedFiles < run.checkedFiles) return;
    const need = ids.filter((id) => !cache.peek(id)?.facts);
    if (need.length > 1) for (const [id, f] of readFactsOf(need)) aheadFacts.set(id, f);
  }, () => maxHits - found.length);
  try {
    for (let fileId = files.next(); fileId !== null; fileId = files.next()) {
      if (found.length >= maxHits) {
        run.complete = false;
        break;
      }
      if (Date.now() > deadline) throw timeout(text, budgetMs, run);
      run.checkedFiles++;
      const stored = texts.read(Number(fileId));
      if (stored === undefined) continue;
      const matched = matchedLines(stored, compiled, perPattern, deadline, () => timeout(text, budgetMs, run));
      if (matched.length === 0) continue;
      run.matchedFiles++;
      stored.facts ??= aheadFacts.get(Number(fileId)) ?? readFacts(Number(fileId));
      const { path, hash, lang, flags, chunks } = stored.facts!;
      const claimed = new Set<number>();
      const all = (1 << compiled.length) - 1;
      for (const [id, ordinal, startLine, endLine, symbolKind, symbolName] of chunks) {
        let seen = 0;
        const own: number[] = [];
        const perPattern = compiled.map(() => 0);
        for (let i = lowerBound(matched, startLine); i < matched.length && matched[i][0] <= endLine; i++) {
          const [line, mask] = matched[i];
          seen |= mask;
          if (claimed.has(line)) continue;
          own.push(line);
          for (let k = 0; k < compiled.length; k++) if (mask & (1 << k)) perPattern[k]++;
        }
        if (own.length === 0 || seen !== all) continue;
        for (const l of own) claimed.add(l);
        found.push({
          row: {
            chunkId: id, fileId: Number(fileId), ordinal, path, hash, lang, flags, startLine, endLine, symbolKind, symbolName,
          },
          lines: own,
          perPattern,
          chunkLines: endLine - startLine + 1,
        });
      }
    }
  } finally {
    texts.close();
    factsOfMany.finalize();
    files.close();
    run.gramDropped = grams?.dropped() ?? 0;
  }
  // Every candidate was checked unless the cap stopped it: then their number is unknown (not read).
  run.candidateFiles = run.complete ? run.checkedFiles : run.checkedFiles + 1;
  // BM25 over lines: a pattern's term frequency is the chunk's lines matching it, its document
  // frequency the chunks holding it; chunk length in lines against the average.
  const n = session.chunkCount();
  const avg = averageChunkLines(session);
  const df = compiled.map((_, k) => found.reduce((s, h) => s + (h.perPattern[k] > 0 ? 1 : 0), 0));
  const idf = df.map((d) => Math.log(1 + (n - d + 0.5) / (d + 0.5)));
  const hits = found.map(({ chunkLines, ...h }): LiteralHit => ({
    ...h,
    score: h.perPattern.reduce((s, tf, k) => s + (tf ? idf[k] * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * chunkLines) / avg))) : 0), 0),
  }));
  hits.sort((a, b) => b.score - a.score || (a.row.path < b.row.path ? -1 : a.row.path > b.row.path ? 1 : 0) || a.row.startLine - b.row.startLine);
  return { hits, run: { ...run, tookMs: Date.now() - t0 } };
}

/**
 * The matching lines of a file's text, ascending, each with the bit mask of the patterns matching it;
 * empty when some pattern matches no line (a hit needs every pattern). Per pattern, the cheapest way
 * that is exact: a literal's lines by indexOf (matcher.ts); else, in ASCII text, the engine on only
 * the lines its trigram query lets through (line-filter.ts); else the engine on the whole text (a
 * fast no for most files), then on every line.
 */
function matchedLines(file: FileText, compiled: readonly CompiledPattern[], queries: readonly TrigramQuery[], deadline: number, onTimeout: () => HciError): Array<[line: number, mask: number]> {
  let filterable: FilterText | null | undefined;
  let split: string[] | undefined;
  const masks = new Map<number, number>();
  for (let k = 0; k < compiled.length; k++) {
    const c = compiled[k];
    let lines = c.linesOf?.(file) ?? null;
    if (lines === null && queries[k].op !== 'all') {
      filterable ??= filterText(file);
      const candidates = filterable && candidateLines(filterable, queries[k]);
      if (candidates) {
        const ft = filterable!;
        lines = candidates.filter((n, i) => {
          if (i % CLOCK_EVERY_LINES === CLOCK_EVERY_LINES - 1 && Date.now() > deadline) throw onTimeout();
          return c.line.test(lineOf(ft, n));
        });
      }
    }
    if (lines === null) {
      if (c.text && !c.text.test(file.text)) return [];
      split ??= file.text.split('\n');
      lines = [];
      for (let i = 0; i < split.length; i++) {
        if (i % CLOCK_EVERY_LINES === CLOCK_EVERY_LINES - 1 && Date.now() > deadline) throw onTimeout();
        if (c.line.test(split[i])) lines.push(i + 1);
      }
    }
    if (lines.length === 0) return [];
    for (const l of lines) masks.set(l, (masks.get(l) ?? 0) | (1 << k));
  }
  return [...masks].sort((a, b) => a[0] - b[0]);
}

/** The first index of `sorted` (by line) whose line is ≥ `line`. */
function lowerBound(sorted: ReadonlyArray<readonly [number, number]>, line: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid][0] < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function timeout(text: TextQuery, budgetMs: number, run: LiteralRun): HciError {
  const what = text.patterns.some((p) => p.kind === 'regex') ? 'regex' : 'literal';
  const hint = run.via === 'trigrams' || run.via === 'words'
    ? 'narrow it with path:, ext: or -path:, make the pattern more specific, or raise literal_budget_ms in .hci/settings.toml'
    : run.scanReason === 'no_trigrams'
      ? 'give the pattern a literal part of 3 or more characters (the trigram index can then narrow the files), narrow it with path:/ext:, or raise literal_budget_ms'
      : 'turn on literal_index = true in .hci/settings.toml (a trigram index that narrows the files to check) and run `hci index`; or narrow with path:/ext:, or raise literal_budget_ms';
  return new HciError('search_timeout', `the ${what} search stopped at its time budget (${budgetMs} ms) after checking ${run.checkedFiles} ${run.via === 'scan' ? '' : 'candidate '}files`, hint);
}
