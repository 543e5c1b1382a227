// What of a file's chunks may enter the index when secret lines were found in it: the lines of each
// secret, and SECRET_MARGIN_LINES on either side, are left out; the rest of a chunk that held them
// is kept as the parts before and after (same kind, symbol and header), so a 120-line function whose
// doc comment shows `password: 'example'` stays searchable without that line. Parts too small to
// answer anything (fewer than MIN_PART_LINES non-blank lines) are left out too. A part's symbol and
// header lines may be named from a withheld line (a CI step is named by its `run:` command): any
// that holds a word only withheld lines hold (6+ characters), or a piece of one, is dropped from the part. Owns the carving
// only: finding secrets is core/scan/secrets.ts's, counting and storing the writer's and indexer's
// (a line of no kept chunk is stored empty: file-data.ts storedText).
import type { ChunkDraft } from '../chunk/types.ts';
import type { SecretFinding } from '../scan/secrets.ts';

/**
 * Lines left out on either side of a secret's reported lines: a detector reports the line holding
 * the value; a value continued on the next line (a wrapped string, a YAML continuation) must not
 * reach the index through a neighbouring part.
 */
export const SECRET_MARGIN_LINES = 1;

/** A part needs this many non-blank lines to be kept. */
export const MIN_PART_LINES = 2;

/** A word of a withheld line: a run a secret value or a name built from it would share. */
const WITHHELD_WORD = /[\p{L}\p{N}_\-+/=.:@]{6,}/gu;

export interface CarvedChunks {
  kept: ChunkDraft[];
  /** Chunks that lost lines to a secret (each counted once; the `secret_content` count). */
  touched: number;
}

/** The chunks as the index may hold them: every line of a secret and its margin out, the rest kept. */
export function carveSecrets(chunks: readonly ChunkDraft[], secrets: readonly SecretFinding[], lines: readonly string[]): CarvedChunks {
  if (!secrets.length) return { kept: [...chunks], touched: 0 };
  // The withheld line ranges, merged and sorted (1-based, inclusive).
  const out = secrets
    .map((s) => ({ start: Math.max(1, s.startLine - SECRET_MARGIN_LINES), end: s.endLine + SECRET_MARGIN_LINES }))
    .sort((a, b) => a.start - b.start)
    .reduce<Array<{ start: number; end: number }>>((acc, r) => {
      const last = acc[acc.length - 1];
      if (last && r.start <= last.end + 1) last.end = Math.max(last.end, r.end);
      else acc.push({ ...r });
      return acc;
    }, []);
  const nonBlank = (start: number, end: number) => {
    let n = 0;
    for (let l = start; l <= end; l++) if (lines[l - 1]?.trim()) n++;
    return n;
  };
  // Words only the withheld lines hold: what a part's symbol or header must not carry (a word the
  // file's other lines hold — `public`, `password` — reaches the index through them anyway).
  const withheld = new Uint8Array(lines.length + 2);
  for (const r of out) withheld.fill(1, r.start, Math.min(r.end, lines.length) + 1);
  const words = new Set<string>();
  for (const r of out) for (let l = r.start; l <= r.end; l++) for (const w of (lines[l - 1] ?? '').match(WITHHELD_WORD) ?? []) words.add(w);
  for (let l = 1; l <= lines.length && words.size; l++) if (!withheld[l]) for (const w of lines[l - 1]!.match(WITHHELD_WORD) ?? []) words.delete(w);
  // A text carries a withheld word whole, or a 6+ character piece of one (a name cut short).
  const carries = (text: string | undefined) =>
    !!text && ([...words].some((w) => text.includes(w)) || (text.match(WITHHELD_WORD) ?? []).some((t) => [...words].some((w) => w.includes(t))));
  const kept: ChunkDraft[] = [];
  let touched = 0;
  for (const c of chunks) {
    const hits = out.filter((r) => r.start <= c.endLine && r.end >= c.startLine);
    if (!hits.length) {
      kept.push(c);
      continue;
    }
    touched++;
    const symbol = c.symbol && (carries(c.symbol.name) || carries(c.symbol.memberKey)) ? null : c.symbol;
    const header = c.header
      .split('\n')
      .filter((l) => !carries(l))
      .join('\n');
    let from = c.startLine;
    for (const r of [...hits, { start: c.endLine + 1, end: c.endLine + 1 }]) {
      const to = Math.min(r.start - 1, c.endLine);
      if (to >= from && nonBlank(from, to) >= MIN_PART_LINES) kept.push({ ...c, startLine: from, endLine: to, symbol, header });
      from = Math.max(from, r.end + 1);
    }
  }
  return { kept, touched };
}
