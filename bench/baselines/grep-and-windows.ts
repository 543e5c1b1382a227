// The two "plain" comparisons of the evaluation and benchmark: ripgrep (a grep-then-rank approach an
// agent can always fall back to) and a plain FTS5 index over 110-line windows of file content with
// the query's words ORed (what a minimal SQLite search would do). Each has named set-ups
// (RIPGREP_VARIANTS, PLAIN_VARIANTS); the default is the best measured (variants.ts). Owns finding
// rg, its file selection, its ranking, and the plain window index.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_EXCLUDE_PATH_SEGMENTS, DEFAULT_INCLUDE_EXTENSIONS } from '../../core/settings.ts';
import { parseQuery } from '../../core/search/query.ts';
import { STOP_WORDS } from '../../core/text/analyzer.ts';
import { DEFAULT_VARIANT } from './variants.ts';
import type { SqlAdapter } from './sql-store.ts';

// ---------------------------------------------------------------------------------------------
// ripgrep

/** The rg binary to use: `explicit`, $HCI_BENCH_RG, or `rg` on PATH; null when none runs. */
export function findRipgrep(explicit?: string | null): string | null {
  const candidates = [explicit, process.env.HCI_BENCH_RG, 'rg'].filter((c): c is string => !!c);
  for (const c of candidates) {
    const r = spawnSync(c, ['--version'], { encoding: 'utf8' });
    if (r.status === 0 && /ripgrep/.test(r.stdout)) return c;
  }
  return null;
}

export function ripgrepVersion(rg: string): string {
  return spawnSync(rg, ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0]?.trim() ?? 'ripgrep';
}

/** rg arguments that select the files hci indexes by default (extensions, denied folders, hidden files). */
export function rgFileArgs(): string[] {
  const args = ['--hidden', '--no-messages', '--no-config'];
  for (const ext of DEFAULT_INCLUDE_EXTENSIONS) args.push('-g', `*${ext}`); // `*.editorconfig` also matches `.editorconfig`
  for (const seg of DEFAULT_EXCLUDE_PATH_SEGMENTS) args.push('-g', `!${seg}/`);
  return args;
}

export interface RipgrepVariant {
  /** Terms grepped for: each word as written (whole identifiers) and each phrase, or also the split parts of identifiers. */
  terms: 'whole' | 'whole+parts';
  /** Files holding the query verbatim rank first. */
  verbatimFirst: boolean;
  /** Match whole words only (`rg -w`). */
  wordBoundary: boolean;
}

export const RIPGREP_VARIANTS: Record<string, RipgrepVariant> = {
  'whole': { terms: 'whole', verbatimFirst: true, wordBoundary: false },
  'whole+parts': { terms: 'whole+parts', verbatimFirst: true, wordBoundary: false },
  'whole-no-verbatim': { terms: 'whole', verbatimFirst: false, wordBoundary: false },
  'whole-words': { terms: 'whole', verbatimFirst: true, wordBoundary: true },
};

/** The strings grep would be given for a query: each word (whole identifiers) and each phrase (and the parts, when asked). */
export function grepTerms(query: string, terms: RipgrepVariant['terms'] = 'whole'): string[] {
  const parsed = parseQuery(query);
  const out = parsed.clauses.flatMap((c) => (c.kind === 'phrase' ? [c.tokens.join(' ')] : c.kind === 'cjk' ? [c.run] : [c.token, ...(terms === 'whole+parts' && c.parts.length > 1 ? c.parts : [])]));
  return [...new Set(out)].filter((t) => t.length >= 2);
}

function runRg(rg: string, root: string, args: string[]): string {
  const r = spawnSync(rg, [...args, ...rgFileArgs(), '.'], { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

/** Per-file match counts, keyed by workspace-relative path. */
function counts(out: string): Map<string, number> {
  const m = new Map<string, number>();
  for (const line of out.split('\n')) {
    const i = line.lastIndexOf(':');
    if (i <= 0) continue;
    m.set(line.slice(0, i).replace(/^\.\//, ''), Number(line.slice(i + 1)));
  }
  return m;
}

/** One rg call for the whole query (every term as a pattern): what the benchmark times. */
export function ripgrepOnce(rg: string, root: string, query: string): number {
  const terms = grepTerms(query, RIPGREP_VARIANTS[DEFAULT_VARIANT.rg].terms);
  if (!terms.length) return 0;
  return counts(runRg(rg, root, ['-i', '-F', '--count-matches', ...terms.flatMap((t) => ['-e', t])])).size;
}

/**
 * Grep-then-rank: files holding the query verbatim first, then by a TF-IDF-like sum over the
 * query's terms (one rg call per term, counts per file). `totalFiles` is the corpus size for IDF.
 */
export function ripgrepRank(rg: string, root: string, query: string, totalFiles: number, variantName: string = DEFAULT_VARIANT.rg): string[] {
  const v = RIPGREP_VARIANTS[variantName];
  if (!v) throw new Error(`unknown ripgrep variant ${variantName} (${Object.keys(RIPGREP_VARIANTS).join(', ')})`);
  const terms = grepTerms(query, v.terms);
  if (!terms.length) return [];
  const score = new Map<string, number>();
  const w = v.wordBoundary ? ['-w'] : [];
  for (const t of terms) {
    const c = counts(runRg(rg, root, ['-i', '-F', ...w, '--count-matches', '-e', t]));
    if (!c.size) continue;
    const idf = Math.log(1 + totalFiles / c.size);
    for (const [p, n] of c) score.set(p, (score.get(p) ?? 0) + idf * (1 + Math.log(n)));
  }
  const raw = query.replace(/"/g, '').trim();
  if (v.verbatimFirst && raw.length >= 3 && raw !== terms[0]) {
    for (const p of runRg(rg, root, ['-i', '-F', '-l', '-e', raw]).split('\n').filter(Boolean)) {
      const k = p.replace(/^\.\//, '');
      score.set(k, (score.get(k) ?? 0) + 1000);
    }
  }
  return [...score.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([p]) => p);
}

// ---------------------------------------------------------------------------------------------
// Plain FTS5 over 110-line windows

export const PLAIN_WINDOW_LINES = 110;
export const PLAIN_WINDOW_OVERLAP = 15;

export interface PlainVariant {
  /** FTS5 tokenizer: unicode61 as is, or with Porter stemming on top. */
  tokenizer: 'unicode61' | 'porter unicode61';
  /** Drop the stop words hci's query analysis drops (every other engine gets that analysis). */
  dropStopWords: boolean;
  /** Words combined: any word, or every word first and then any (hci's order). */
  combine: 'or' | 'and-then-or';
}

export const PLAIN_VARIANTS: Record<string, PlainVariant> = {
  'or': { tokenizer: 'unicode61', dropStopWords: false, combine: 'or' },
  'no-stop-words': { tokenizer: 'unicode61', dropStopWords: true, combine: 'or' },
  'no-stop-words-and-then-or': { tokenizer: 'unicode61', dropStopWords: true, combine: 'and-then-or' },
  'porter-no-stop-words': { tokenizer: 'porter unicode61', dropStopWords: true, combine: 'or' },
};

export function plainVariant(name: string): PlainVariant {
  const v = PLAIN_VARIANTS[name];
  if (!v) throw new Error(`unknown plain variant ${name} (${Object.keys(PLAIN_VARIANTS).join(', ')})`);
  return v;
}

/** Builds the plain baseline: FTS5 (unicode61, no identifier splitting; Porter only when the variant asks) over content only. */
export function buildLineWindowIndex(db: SqlAdapter, root: string, files: readonly string[], variantName: string = DEFAULT_VARIANT.plain): { windows: number; paths: string[] } {
  db.exec(`CREATE VIRTUAL TABLE w USING fts5(body, tokenize='${plainVariant(variantName).tokenizer}')`);
  const ins = db.prepare('INSERT INTO w(rowid, body) VALUES (?, ?)');
  const paths: string[] = [];
  db.exec('BEGIN');
  try {
    for (const rel of files) {
      let text: string;
      try {
        text = fs.readFileSync(path.join(root, rel), 'utf8');
      } catch {
        continue;
      }
      const lines = text.split(/\r?\n/);
      const step = PLAIN_WINDOW_LINES - PLAIN_WINDOW_OVERLAP;
      for (let start = 0; ; start += step) {
        paths.push(rel);
        ins.run([paths.length, lines.slice(start, start + PLAIN_WINDOW_LINES).join('\n')]);
        if (start + PLAIN_WINDOW_LINES >= lines.length) break;
      }
    }
    db.exec('COMMIT');
  } finally {
    ins.finalize();
  }
  return { windows: paths.length, paths };
}

/** The query's words, each quoted, ORed (or ANDed first); windows by BM25; returns window paths in rank order. */
export function lineWindowSearch(db: SqlAdapter, paths: readonly string[], query: string, limit = 200, variantName: string = DEFAULT_VARIANT.plain): string[] {
  const v = plainVariant(variantName);
  let words = [...new Set(Array.from(query.normalize('NFKC').matchAll(/[\p{L}\p{N}]+/gu), (m) => m[0].toLowerCase()))];
  if (v.dropStopWords && words.some((w) => !STOP_WORDS.has(w))) words = words.filter((w) => !STOP_WORDS.has(w));
  if (!words.length) return [];
  const run = (op: string) => db.all('SELECT rowid FROM w WHERE w MATCH ? ORDER BY bm25(w) LIMIT ?', [words.map((w) => `"${w}"`).join(op), limit]);
  let rows = v.combine === 'and-then-or' && words.length > 1 ? run(' AND ') : [];
  if (!rows.length) rows = run(' OR ');
  return rows.map((r) => paths[Number(r[0]) - 1]);
}
