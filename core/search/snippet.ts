// Short snippets for hits: the lines of a chunk that carry the most query terms, with their line
// numbers. Owns line selection and trimming only.
import { wordsOf, splitIdentifier } from './analyzer.ts';

const MAX_LINE_CHARS = 160;

function lineTokens(line: string): Set<string> {
  const set = new Set(wordsOf(line));
  for (const m of line.matchAll(/[\p{L}\p{N}_]+/gu)) for (const p of splitIdentifier(m[0])) set.add(p);
  return set;
}

function trimLine(line: string, terms: readonly string[]): string {
  const t = line.trim();
  if (t.length <= MAX_LINE_CHARS) return t;
  const lower = t.toLowerCase();
  const at = Math.max(0, ...terms.map((term) => lower.indexOf(term)).filter((i) => i >= 0).slice(0, 1));
  const start = Math.max(0, Math.min(at - 40, t.length - MAX_LINE_CHARS));
  return `${start > 0 ? '…' : ''}${t.slice(start, start + MAX_LINE_CHARS)}${start + MAX_LINE_CHARS < t.length ? '…' : ''}`;
}

/** Up to `maxLines` best lines of the chunk as `N: text`, in file order. */
export function makeSnippet(lines: readonly string[], startLine: number, endLine: number, terms: readonly string[], maxLines = 2): string {
  const scored: Array<{ n: number; score: number }> = [];
  for (let n = startLine; n <= endLine && n <= lines.length; n++) {
    const text = lines[n - 1];
    if (!text.trim()) continue;
    const toks = lineTokens(text);
    let score = 0;
    for (const t of terms) if (toks.has(t)) score++;
    if (score > 0) scored.push({ n, score });
  }
  let chosen = scored.sort((a, b) => b.score - a.score || a.n - b.n).slice(0, maxLines).map((s) => s.n);
  if (chosen.length === 0) {
    const first = lines.slice(startLine - 1, endLine).findIndex((l) => l.trim());
    chosen = first >= 0 ? [startLine + first] : [];
  }
  return chosen
    .sort((a, b) => a - b)
    .map((n) => `${n}: ${trimLine(lines[n - 1], terms)}`)
    .join('\n');
}
