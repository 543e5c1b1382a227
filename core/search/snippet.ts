// Short snippets for hits: the lines of a chunk that carry the most query terms, with their line
// numbers (or, for text matches, the lines that matched). Owns line selection and trimming only.
const MAX_LINE_CHARS = 160;

function trimLine(line: string, terms: readonly string[]): string {
  const t = line.trim();
  if (t.length <= MAX_LINE_CHARS) return t;
  const lower = t.toLowerCase();
  const at = Math.max(0, ...terms.map((term) => lower.indexOf(term)).filter((i) => i >= 0).slice(0, 1));
  const start = Math.max(0, Math.min(at - 40, t.length - MAX_LINE_CHARS));
  return `${start > 0 ? '…' : ''}${t.slice(start, start + MAX_LINE_CHARS)}${start + MAX_LINE_CHARS < t.length ? '…' : ''}`;
}

/** Up to `maxLines` best lines of the chunk (its body starts at `startLine`) as `N: text`, in file order. */
export function makeSnippet(body: string, startLine: number, terms: readonly string[], maxLines = 2): string {
  const lines = body.split('\n');
  const scored: Array<{ n: number; score: number }> = [];
  for (let n = startLine; n < startLine + lines.length; n++) {
    const text = lines[n - startLine];
    if (!text.trim()) continue;
    // Substring tests are enough to pick display lines, and far cheaper than tokenising each line.
    const lower = text.toLowerCase();
    let score = 0;
    for (const t of terms) if (lower.includes(t)) score++;
    if (score > 0) scored.push({ n, score });
  }
  let chosen = scored.sort((a, b) => b.score - a.score || a.n - b.n).slice(0, maxLines).map((s) => s.n);
  if (chosen.length === 0) {
    const first = lines.findIndex((l) => l.trim());
    chosen = first >= 0 ? [startLine + first] : [];
  }
  return chosen
    .sort((a, b) => a - b)
    .map((n) => `${n}: ${trimLine(lines[n - startLine], terms)}`)
    .join('\n');
}

/** The given lines of a chunk (a text match's match_lines), the first `maxLines` of them, as `N: text`. */
export function linesSnippet(body: string, startLine: number, lines: readonly number[], maxLines = 2): string {
  const text = body.split('\n');
  return lines
    .slice(0, maxLines)
    .map((n) => `${n}: ${trimLine(text[n - startLine] ?? '', [])}`)
    .join('\n');
}
