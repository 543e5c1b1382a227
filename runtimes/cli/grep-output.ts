// Grep-shaped output of `hci search`, for terminals and tools that read grep's lines: `--vimgrep`
// (path:line:column:text, one line per match, the column in bytes as ripgrep counts it), `-l` (the
// files, once each), `-C N` (path:line:text for matching lines, path-line-text for the N lines around
// them, `--` between groups), in every search mode. The hits' lines come from the search answer; their
// text and the context around them from the `file` verb (the indexed text, as the hits count lines).
// Literal and regex searches list every match (pages followed to the end unless -k is given); ranked
// modes list their hits' best lines. Owns this layout; the human layout is format.ts, the request the
// search row (commands.ts).
import type { SearchHit, SearchRequest, SearchResponse } from '../../core/contract/search.ts';
import type { HciService } from '../../core/service/index.ts';

export interface GrepShape {
  vimgrep: boolean;
  files: boolean;
  context: number;
}

/** At most this many hits are gathered by following pages (a grep of a common word in a large repository). */
export const MAX_GREP_HITS = 5000;

/** The 1-based line numbers a hit points at: its match lines (literal, regex), else its snippet's lines. */
function hitLines(h: SearchHit): number[] {
  if (h.match_lines?.length) return h.match_lines;
  const out: number[] = [];
  for (const l of h.snippet.split('\n')) {
    const m = /^(\d+): /.exec(l);
    if (m) out.push(Number(m[1]));
  }
  return out.length ? out : [h.start_line];
}

/** Finds the columns (0-based, UTF-16) of every match of the query in a line. */
type Columns = (line: string) => number[];

const NON_WORD = '[^\\p{L}\\p{N}\\p{M}_]';

async function columnsOf(req: SearchRequest, mode: string): Promise<Columns> {
  if (mode === 'literal' || mode === 'regex') {
    const { RE2JS } = await import('re2js');
    const body = mode === 'literal' ? RE2JS.quote(req.query) : req.query;
    const source = req.whole_word ? `(?:^|${NON_WORD})(${body})(?:$|${NON_WORD})` : `(${body})`;
    let re: ReturnType<typeof RE2JS.compile>;
    try {
      // As the search matched: the request's case, else smart case (an upper-case letter asks for case).
      const sensitive = req.case_sensitive ?? (await import('../../core/search/literal/smart-case.ts')).smartCaseSensitive(req.query, mode);
      re = RE2JS.compile(source, sensitive ? 0 : RE2JS.CASE_INSENSITIVE);
    } catch {
      return () => [0];
    }
    return (line) => {
      const out: number[] = [];
      const m = re.matcher(line);
      let from = 0;
      while (from <= line.length && m.find(from)) {
        out.push(m.start(1));
        // An empty match moves on one character; a whole-word match may end on the next one's leading separator.
        from = Math.max(m.end(1), m.start(1) + 1);
      }
      return out.length ? out : [0];
    };
  }
  // Ranked modes: where the first query word shows in the line (words of filters left out).
  const words = req.query.split(/\s+/).filter((w) => w && !/^-?(?:path|ext|file|lang):/i.test(w)).flatMap((w) => w.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
  return (line) => {
    const lower = line.toLowerCase();
    const at = words.map((w) => lower.indexOf(w)).filter((i) => i >= 0);
    return [at.length ? Math.min(...at) : 0];
  };
}

const encoder = new TextEncoder();
/** A 1-based column in bytes of UTF-8, as ripgrep prints it. */
const byteColumn = (line: string, at: number) => encoder.encode(line.slice(0, at)).length + 1;

/** Every hit of the search: this page, then (literal and regex, no -k) the pages after it. */
async function allHits(svc: HciService, req: SearchRequest, first: SearchResponse, follow: boolean): Promise<{ hits: SearchHit[]; more: string | undefined }> {
  const hits = [...first.hits];
  let cursor = first.next_cursor;
  while (follow && cursor && hits.length < MAX_GREP_HITS) {
    const page = await svc.call('search', { ...req, cursor });
    if (page.error) break;
    hits.push(...page.hits);
    cursor = page.next_cursor;
  }
  return { hits, more: cursor };
}

/** The lines of a file from `from` to `to` (clipped to the file), by number. */
async function fileLines(svc: HciService, path: string, from: number, to: number): Promise<Map<number, string>> {
  const r = await svc.call('file', { path, start_line: Math.max(1, from), end_line: Math.max(1, to) });
  const out = new Map<number, string>();
  if (r.error || r.text === undefined) return out;
  const start = r.start_line ?? Math.max(1, from);
  r.text.split('\n').forEach((t, i) => out.set(start + i, t));
  return out;
}

/**
 * The search's answer as grep's lines (stdout) and, unless quiet, a note on stderr when the list is
 * not every match (-k, or the cap). `follow`: literal/regex without -k.
 */
export async function grepLines(svc: HciService, req: SearchRequest, r: SearchResponse, shape: GrepShape, follow: boolean): Promise<{ out: string; note?: string }> {
  const { hits, more } = await allHits(svc, req, r, follow);
  const byFile = new Map<string, Set<number>>();
  for (const h of hits) {
    const set = byFile.get(h.path) ?? new Set<number>();
    for (const l of hitLines(h)) set.add(l);
    byFile.set(h.path, set);
  }
  const note = more ? `hci: ${hits.length} hits listed; more: --cursor ${more}${follow ? ` (stopped at ${MAX_GREP_HITS})` : ' (or leave out -k for every match)'}` : undefined;
  if (shape.files) return { out: [...byFile.keys()].join('\n'), note };

  const cols = shape.vimgrep ? await columnsOf(req, r.mode) : null;
  const n = shape.context;
  const out: string[] = [];
  let previousEnd: { path: string; line: number } | null = null;
  for (const [path, set] of byFile) {
    const lines = [...set].sort((a, b) => a - b);
    const text = await fileLines(svc, path, lines[0] - n, lines[lines.length - 1] + n);
    const last = Math.max(...text.keys(), lines[lines.length - 1]);
    // The lines shown: each match line with n lines either side, overlapping ranges merged.
    const shown = new Set<number>();
    for (const l of lines) for (let k = Math.max(1, l - n); k <= Math.min(last, l + n); k++) shown.add(k);
    const matches = new Set(lines);
    for (const k of [...shown].sort((a, b) => a - b)) {
      if (n > 0 && previousEnd && (previousEnd.path !== path || k > previousEnd.line + 1)) out.push('--');
      const t = text.get(k) ?? '';
      if (!matches.has(k)) out.push(`${path}-${k}-${t}`);
      else if (cols) for (const at of cols(t)) out.push(`${path}:${k}:${byteColumn(t, at)}:${t}`);
      else out.push(`${path}:${k}:${t}`);
      previousEnd = { path, line: k };
    }
  }
  return { out: out.join('\n'), note };
}
